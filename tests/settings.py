"""Test settings: production settings with a throwaway key and plain HTTP, DEBUG off
and the static files served as `make run` serves them."""

import os
import secrets
import tempfile
from pathlib import Path

os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")

from ofcboard.settings import *
from tests.static_collected import collected_from

# The test client and the browser tests' live server speak plain HTTP.
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
# Hashing passwords slowly is a production virtue and a test-suite cost.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# A real file, not SQLite's shared in-memory database: the concurrency tests need
# WAL and the busy timeout as they are in production. pytest-xdist adds a suffix per worker.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"ofcboard-test-{os.getpid()}.sqlite3")
    }

# The site as `make run` serves it: DEBUG off, and the static files hashed and
# compressed by the production storage (CompressedManifestStaticFilesStorage), served
# by WhiteNoise from their collected folder. tests/conftest.py collects them into a
# folder named by what they are collected from (tests/static_collected.py), so a run finds
# them collected by an earlier one when nothing of that changed; its test workers and
# the servers the tests start inherit the name.
DEBUG = False
STATIC_ROOT = Path(
    os.environ.setdefault(
        "OFCBOARD_TEST_STATIC_ROOT",
        str(Path(tempfile.gettempdir()) / f"ofcboard-test-static-{collected_from(STORAGES)}"),
    )
)

# Sign-ups are counted in this process's memory, emptied before each test
# (tests/conftest.py), so one test's sign-ups never throttle another's.
CACHES = {
    **CACHES,
    "throttle": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "t"},
}

# No backups after each night a test ends: the tests of them give their own folder.
OFCBOARD_BACKUP_DIR = ""

# WhiteNoise as the site runs it, its files read once a run instead of once a test
# client (tests/static_files.py).
MIDDLEWARE = [
    "tests.static_files.StaticFilesReadOnce"
    if name == "whitenoise.middleware.WhiteNoiseMiddleware"
    else name
    for name in MIDDLEWARE
]
