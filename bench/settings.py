"""The settings `make run` serves with, plus one bare view to measure against
(see bench/server.py)."""

import os

from ofcboard.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"

# bench/push.py's restart part: the sessions' store used before (Django's file cache in
# this folder, written through to the database), to measure beside the settings' own.
if os.environ.get("BENCH_SESSION_FILES"):
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    SESSION_CACHE_ALIAS = "sessions"
    CACHES = {
        **CACHES,  # noqa: F405
        "sessions": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": os.environ["BENCH_SESSION_FILES"],
            "TIMEOUT": None,
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        },
    }
