"""What the site writes out and reads back in: backups (made by hand and kept by
themselves after a night) and a group's copy taken to another site, each checked on
the way in as every door checks what it is given (import_checks)."""
