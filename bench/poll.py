"""Benchmark of the night page's poll, in this process. Run: ``make bench`` or
``.venv/bin/python bench/poll.py`` (``DATABASE_URL=postgres://...`` for PostgreSQL;
SQLite in a throwaway file otherwise).

Every phone at the table asks every 2 s whether the night changed. This prints, in one
run against a night of 40 rounds, the CPU time of that poll when nothing changed (an
empty 204) through Django's WSGI handler with the settings `make run` serves, side by
side with its references: a bare view answering 204 through the same middleware, the
same poll when something changed (the fragment is rendered) and a full page. Then
where the unchanged poll's time goes, part by part: the session read from its store,
the user loaded and checked by Django's auth, the version read through the membership
rule, and the rest (URL resolving and every middleware, which the bare view pays too);
and what the connection kept open saves it.

CPU time of this process, not the clock's: other work on the machine changes it less.
"""

import os
import sys
import time
from collections.abc import Callable
from importlib import import_module
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.in_process import set_up_django  # noqa: E402

set_up_django()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user  # noqa: E402
from django.core.handlers.wsgi import WSGIHandler  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, RequestFactory  # noqa: E402

# A quick run (the test suite checks that the benchmark still runs) or the real one.
QUICK = os.environ.get("OFCBOARD_BENCH_QUICK") == "1"
ROUNDS = 3 if QUICK else 40
REQUESTS = 5 if QUICK else 1000


def build_night():
    from bench.tables import a_group, a_night, play, spread
    from scorekeeper.models import User

    suffix = str(time.time_ns())[-8:]
    users = [User.objects.create_user(name=f"{n}{suffix}", password=None) for n in ("A", "B")]
    group = a_group(f"Bench {suffix}", users)
    night = a_night(group, users, game_id="progressive", guests=["Chris"])
    play(night, users[0], [spread(number) for number in range(1, ROUNDS + 1)])
    night.refresh_from_db()
    return night, users[0]


def cpu_us(work: Callable[[], object]) -> float:
    """The CPU time of one ``work()``, in µs, over REQUESTS of them."""
    work()
    start = time.process_time()
    for _ in range(REQUESTS):
        work()
    return (time.process_time() - start) / REQUESTS * 1e6


def main() -> None:
    from scorekeeper.reads.polls import night_now

    call_command("migrate", verbosity=0)
    # As `make run` does: the pages name the static files by their hashed names.
    call_command("collectstatic", interactive=False, verbosity=0)
    night, user = build_night()
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    handler = WSGIHandler()
    factory = RequestFactory()

    def served(path: str, **params: object) -> Callable[[], None]:
        environ = factory.get(path, params, HTTP_COOKIE=cookie).environ
        statuses: list[str] = []

        def call() -> None:
            body = handler(
                dict(environ), lambda status, headers, info=None: statuses.append(status)
            )
            b"".join(body)
            body.close()

        call()
        assert statuses[-1].split()[0] in ("200", "204"), (path, statuses[-1])
        return call

    # What a seated phone sends: the version, round and seat it last saw.
    seen = {"round": ROUNDS + 1, "seat": night.seats.get(user=user).pk}
    live = f"/nights/{night.pk}/live/"
    unchanged = cpu_us(served(live, version=night.version, **seen))
    rows = [
        ("poll, nothing changed (204)", unchanged),
        ("bare view, 204 (reference)", cpu_us(served("/bench/bare/"))),
        ("poll, something changed", cpu_us(served(live, version=0, **seen))),
        ("full night page", cpu_us(served(f"/nights/{night.pk}/"))),
    ]
    print(f"Night page polling, {ROUNDS} rounds played, {REQUESTS} requests each, CPU time")
    for label, micros in rows:
        print(f"  {label:<30} {micros / 1000:6.2f} ms  {1e6 / micros:7,.0f} req/s a core")
    print(f"  unchanged poll / bare view      {rows[1][1] / unchanged:5.2f} (as req/s)")
    print(f"  six phones polling every 2 s use {3 * unchanged / 1e6:.1%} of a core when idle")

    # The session as the server reads it: from the database, or Redis with CACHE_URL.
    SessionStore = import_module(settings.SESSION_ENGINE).SessionStore
    key = client.cookies["sessionid"].value
    request = factory.get(live)
    request.session = SessionStore(key)

    def load_user() -> None:
        request.session = SessionStore(key)
        get_user(request)

    session = cpu_us(lambda: SessionStore(key).load())
    user_part = cpu_us(load_user) - session
    version = cpu_us(lambda: night_now(user, night_id=night.pk))
    parts = [
        ("the session, from its store", session),
        ("the user, loaded and checked", user_part),
        ("the version, one query", version),
        ("the rest: URLs, middleware", unchanged - session - user_part - version),
    ]
    print("  where an unchanged poll's time goes:")
    for label, micros in parts:
        print(f"    {label:<30} {micros:6.0f} µs  {micros / unchanged:4.0%}")

    def reconnect() -> None:
        connection.close()
        connection.ensure_connection()

    print("  what the standard means save it, against the poll's own part:")
    print(f"    a new database connection      {cpu_us(reconnect):6.0f} µs  (kept open: 0)")


if __name__ == "__main__":
    main()
