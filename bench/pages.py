"""Every page of a night at 10 rounds against the same page at 1,000, and the pages
that list a group's nights at 10 nights against 300. Run: ``make bench`` or
``.venv/bin/python bench/pages.py``.

Prints, for each page, its time (the best of a few loads, in this process through
Django's test client and every middleware), its queries and its size, raw and
gzipped as the server sends it, for a short night and for a long one, and the
ratio of their times (the goal: within 3x). A throwaway SQLite file; the long
night's rounds are written in bulk, as record_entry would have left them; the
nights of a group are played and ended through the services, a round each.
"""

import gzip
import os
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
# The test settings serve the static files as `make run` does, from a collected folder.
os.environ["OFCBOARD_TEST_STATIC_ROOT"] = tempfile.mkdtemp()

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import F  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

QUICK = os.environ.get("OFCBOARD_BENCH_QUICK") == "1"
SHORT, LONG = (2, 40) if QUICK else (10, 1000)
FEW, SOME, MANY = (2, 10, 30) if QUICK else (10, 100, 300)  # finished nights of a group
LOADS = 1 if QUICK else 5


def a_long_night(group, users, rounds: int):
    """A night of ``rounds`` recorded rounds and one open: round 1 through the service
    (it opened with the night), the rest in bulk, as record_entry would have left them."""
    from bench.tables import a_night, play, spread
    from scorekeeper.models import Entry, Night, Round

    night = a_night(group, users)
    play(night, users[0], [(3, -1, -2)])
    seats = list(night.seats.all())
    Round.objects.filter(night=night, recorded_at__isnull=True).delete()
    now = timezone.now()
    Round.objects.bulk_create(
        Round(
            night=night,
            number=number,
            dealer=seats[number % 3],
            recorded_at=now,
            recorded_sum=0,
        )
        for number in range(2, rounds + 1)
    )
    by_number = {r.number: r for r in Round.objects.filter(night=night, number__gt=1)}
    Entry.objects.bulk_create(
        Entry(round=by_number[number], seat=seat, points=points, entered_by=users[0])
        for number in range(2, rounds + 1)
        for seat, points in zip(seats, spread(number), strict=True)
    )
    Round.objects.create(night=night, number=rounds + 1, dealer=seats[(rounds + 1) % 3])
    Night.objects.filter(pk=night.pk).update(version=F("version") + 1)
    night.refresh_from_db()
    return night


def pages(night, user) -> dict[str, str]:
    group, n = night.group_id, night.pk
    # A phone's poll after someone else's total came in: same round, same seat.
    seen = f"round={night.rounds.count()}&seat={night.seats.get(user=user).pk}"
    return {
        "night page": f"/nights/{n}/",
        "poll, changed": f"/nights/{n}/live/?version=0&{seen}",
        "rounds page": f"/nights/{n}/rounds/",
        "settlement": f"/nights/{n}/settle/",
        "export CSV": f"/nights/{n}/export.csv",
        "export JSON": f"/nights/{n}/export.json",
        "group page": f"/groups/{group}/",
        "group table": f"/groups/{group}/table/",
        "player history": f"/groups/{group}/players/{user.pk}/",
    }


def a_group_of_nights(users, nights: int):
    """A group of ``users`` with ``nights`` finished nights, one round each, every
    third day back from today (300 of them run over three calendar years)."""
    from bench.tables import a_group, a_night, play, spread
    from scorekeeper.models import Night
    from scorekeeper.services.nights import end_night

    group = a_group(f"Bench {nights} nights", users)
    now = timezone.now()
    for number in range(1, nights + 1):
        night = a_night(group, users)
        play(night, users[0], [spread(number)])
        end_night(night=night, by=users[0])
        days = timedelta(days=3 * (nights - number))
        Night.objects.filter(pk=night.pk).update(
            started_at=now - days, ended_at=now - days + timedelta(hours=3)
        )
    return group


def group_pages(group, user) -> dict[str, str]:
    """The group's pages; the all-nights table and a player's page also by season,
    this calendar year (at 300 nights it holds about a third of them)."""
    year = timezone.localdate().year
    return {
        "group page": f"/groups/{group.pk}/",
        "group table": f"/groups/{group.pk}/table/",
        f"group table, {year}": f"/groups/{group.pk}/table/?season={year}",
        "player history": f"/groups/{group.pk}/players/{user.pk}/",
        f"player, {year}": f"/groups/{group.pk}/players/{user.pk}/?season={year}",
    }


FIRST_BYTES: dict[str, float] = {}


def measure(client: Client, url: str) -> tuple[float, int, int, int]:
    """(seconds, queries, bytes, gzipped bytes) of one page; for a streamed one, the
    time to its first chunk goes to FIRST_BYTES."""
    best = first = float("inf")
    for _ in range(LOADS):
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            response = client.get(url)
            if response.streaming:
                chunks = iter(response.streaming_content)
                body = next(chunks)
                first = min(first, time.perf_counter() - start)
                body += b"".join(chunks)
            else:
                body = response.content
            best = min(best, time.perf_counter() - start)
        assert response.status_code == 200, (url, response.status_code)
    if first != float("inf"):
        FIRST_BYTES[url] = first
    return best, len(queries), len(body), len(gzip.compress(body))


def main() -> None:
    setup_test_environment()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    from bench.tables import a_group
    from scorekeeper.models import User

    users = [
        User.objects.create_user(name=n, password="bench-only") for n in ("Anna", "Bram", "Chris")
    ]
    client = Client()
    client.force_login(users[0])
    figures = {}
    for rounds in (SHORT, LONG):
        night = a_long_night(a_group(f"Bench {rounds}", users), users, rounds)
        figures[rounds] = {
            label: measure(client, url) for label, url in pages(night, users[0]).items()
        }

    by_nights = {}
    for nights in (FEW, SOME, MANY):
        group = a_group_of_nights(users, nights)
        by_nights[nights] = {
            label: measure(client, url) for label, url in group_pages(group, users[0]).items()
        }

    print(f"Pages at {SHORT} rounds and at {LONG} (best of {LOADS} loads; goal: within 3x)")
    _table(figures[SHORT], figures[LONG])
    print(
        f"A group's pages at {FEW} finished nights, at {SOME} and at {MANY}"
        " (the same loads and goal)"
    )
    _table(by_nights[FEW], by_nights[SOME], by_nights[MANY])
    firsts = ", ".join(f"{seconds * 1000:.1f} ms" for seconds in FIRST_BYTES.values())
    print(f"  exports are streamed: their first bytes after {firsts}")


def _table(short_figures: dict, *longer: dict) -> None:
    """Each page's figures at each size side by side, then its time at each longer
    size over its time at the first."""
    half = f"{'ms':>7} {'q':>3} {'KB':>6} {'gz KB':>6}"
    print(f"  {'':<20} {' | '.join([half] * (1 + len(longer)))} | x time")
    for label, short in short_figures.items():
        rows = [short, *(figures[label] for figures in longer)]
        ratios = " ".join(f"{figures[label][0] / short[0]:5.1f}" for figures in longer)
        print(f"  {label:<20} {' | '.join(_row(row) for row in rows)} | {ratios}")


def _row(figures: tuple[float, int, int, int]) -> str:
    seconds, queries, size, gzipped = figures
    return f"{seconds * 1000:7.1f} {queries:3} {size / 1024:6.1f} {gzipped / 1024:6.1f}"


if __name__ == "__main__":
    main()
