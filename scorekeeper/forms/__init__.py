"""Every POST goes through a form, by subject; the services re-check what matters."""
