"""The site's machinery, apart from the table's rules and pages: backups and the
backups kept by themselves, copying a group between sites, the Redis cache with its
fallback, throttling, middleware and the network address the table's phones use."""
