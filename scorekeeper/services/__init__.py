"""Every write of the app: keyword-only, typed, each in one transaction."""
