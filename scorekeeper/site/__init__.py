"""The site's machinery, apart from the table's rules and pages: the Redis cache with
its fallback, throttling, the front's pass, middleware, the secrets kept out of logs
and the network address the table's phones use."""
