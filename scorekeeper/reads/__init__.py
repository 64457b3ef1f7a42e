"""Every page's read, by subject: plain data for the templates, in a fixed number of
queries however long the night. Reads never write and never import services."""
