"""Benchmark of the night page's polling. Run: ``make bench`` or
``.venv/bin/python bench/poll.py``.

Every phone at the table asks every 2 s whether the night changed. This prints,
in one run against a throwaway SQLite file with a 40-round night, the cost of
that poll when nothing changed (answered 204 without rendering), side by side
with the reference: the same poll when something changed (the fragment is
rendered) and a full page load. Six phones polling every 2 s make 3 polls a
second; the figures say how much of one core that takes.
"""

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

# A quick run (the test suite checks that the benchmark still runs) or the real one.
QUICK = os.environ.get("OFCBOARD_BENCH_QUICK") == "1"
ROUNDS = 3 if QUICK else 40
REQUESTS = 5 if QUICK else 300


def build_night():
    from bench.tables import a_group, a_night, play, spread
    from scorekeeper.models import User

    users = [User.objects.create_user(name=n, password="bench-only") for n in ("Anna", "Bram")]
    night = a_night(a_group("Bench", users), users, game_id="progressive", guests=["Chris"])
    play(night, users[0], [spread(number) for number in range(1, ROUNDS + 1)])
    return night, users[0]


def per_second(client: Client, url: str, params: dict, status: int) -> float:
    assert client.get(url, params).status_code == status
    start = time.perf_counter()
    for _ in range(REQUESTS):
        client.get(url, params)
    return REQUESTS / (time.perf_counter() - start)


def main() -> None:
    setup_test_environment()
    call_command("migrate", verbosity=0)
    night, user = build_night()
    # What a seated phone sends: the version, round and seat it last saw.
    seen = {"round": ROUNDS + 1, "seat": night.seats.get(user=user).pk}
    client = Client()
    client.force_login(user)
    live = f"/nights/{night.pk}/live/"
    rows = [
        (
            "poll, nothing changed (204)",
            per_second(client, live, {"version": night.version, **seen}, 204),
        ),
        ("poll, something changed", per_second(client, live, {"version": 0, **seen}, 200)),
        ("full night page", per_second(client, f"/nights/{night.pk}/", {}, 200)),
    ]
    print(f"Night page polling, {ROUNDS} rounds played, {REQUESTS} requests each")
    reference = rows[1][1]
    for label, rate in rows:
        print(f"  {label:<30} {rate:8,.0f} req/s  {1000 / rate:6.2f} ms  x{rate / reference:5.1f}")
    print(f"  six phones polling every 2 s use {3 / rows[0][1]:.1%} of a core when idle")


if __name__ == "__main__":
    main()
