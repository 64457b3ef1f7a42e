"""Benchmark of the sessions' store as it fills, in this process. Run:
``.venv/bin/python bench/sessions.py [--sessions 10000]`` (``DATABASE_URL=postgres://...``
for PostgreSQL; SQLite in a throwaway file otherwise).

After a restart every phone's first request reads its session, and 10,000 phones
come back within a minute. This prints, for the store the settings use (the
database, without Redis) beside the one used before (Django's file cache written
through to the database, cached_db), the clock time of a session's write when the
store holds few sessions and when it holds ``--sessions``, and of a session's first
read after a restart. A store that slows as it fills makes the last phones of a busy
node wait longest.
"""

import argparse
import sys
import tempfile
import time
from importlib import import_module
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.in_process import set_up_django  # noqa: E402

set_up_django()

from django.conf import settings  # noqa: E402
from django.contrib.sessions.models import Session  # noqa: E402
from django.core.cache import caches  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import override_settings  # noqa: E402

SAMPLE = 200
FILE_CACHE = {
    **settings.CACHES,
    "sessions": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": tempfile.mkdtemp(prefix="bench-sessions-"),
        "TIMEOUT": None,
        "OPTIONS": {"MAX_ENTRIES": 100_000},
    },
}


def ms(seconds: list[float]) -> str:
    return f"{sum(seconds) / len(seconds) * 1000:6.2f} ms"


def measure(engine: str, count: int) -> tuple[str, str, str]:
    """(a write with few sessions, a write with ``count``, a first read after a restart)."""
    store = import_module(engine).SessionStore
    writes, keys = [], []
    for number in range(count):
        session = store()
        session["phone"] = number
        started = time.perf_counter()
        session.save(must_create=True)
        writes.append(time.perf_counter() - started)
        keys.append(session.session_key)
    caches["sessions"].clear() if "sessions" in settings.CACHES else None  # a restart
    reads = []
    for key in keys[-SAMPLE:]:
        started = time.perf_counter()
        store(key).load()
        reads.append(time.perf_counter() - started)
    Session.objects.all().delete()
    return ms(writes[:SAMPLE]), ms(writes[-SAMPLE:]), ms(reads)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10_000)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    now = measure(settings.SESSION_ENGINE, args.sessions)
    with override_settings(CACHES=FILE_CACHE, SESSION_CACHE_ALIAS="sessions"):
        before = measure("django.contrib.sessions.backends.cached_db", args.sessions)
    print(f"A session's write and first read, the mean of {SAMPLE} each, clock time")
    print(f"  {'':34} {'few sessions':>12} {f'{args.sessions:,} sessions':>16} {'first read':>12}")
    print(
        f"  {settings.SESSION_ENGINE.rsplit('.', 1)[-1] + ' (the settings)':34} {now[0]:>12}"
        f" {now[1]:>16} {now[2]:>12}"
    )
    print(f"  {'cached_db in files (before)':34} {before[0]:>12} {before[1]:>16} {before[2]:>12}")


if __name__ == "__main__":
    main()
