"""Test settings: production settings with a throwaway key and plain HTTP."""

import os
import secrets

os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")

from ofcboard.settings import *

# The test client and the browser tests' live server speak plain HTTP.
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
# Hashing passwords slowly is a production virtue and a test-suite cost.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# A real file, not SQLite's shared in-memory database: the concurrency tests need
# WAL and the busy timeout as they are in production. pytest-xdist adds a suffix per worker.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    import tempfile
    from pathlib import Path as _Path

    DATABASES["default"]["TEST"] = {
        "NAME": str(_Path(tempfile.gettempdir()) / f"ofcboard-test-{os.getpid()}.sqlite3")
    }

# Serve static files from the app folders, as `make run` does; no collectstatic needed.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True

# Sign-ups are counted in this process's memory, emptied before each test
# (tests/conftest.py), so one test's sign-ups never throttle another's.
CACHES = {
    **CACHES,
    "throttle": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "t"},
}
# Sessions in this process's memory, unless the test shares a Redis (the two-node test)
# or gives a server its folder of session files: no test leaves them in the checkout.
if not CACHE_URL and not os.environ.get("OFCBOARD_SESSION_CACHE"):
    CACHES["sessions"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}

# No backups after each night a test ends: the tests of them give their own folder.
OFCBOARD_BACKUP_DIR = ""
