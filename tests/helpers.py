"""Small factories and steps shared by the tests: people, groups, nights, and rounds played.

Plain functions, imported by the test modules; `tests/conftest.py` hands the factories
and the login to the tests as fixtures.
"""

import http.client
import itertools
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper.models import Entry, Group, Night, Round, Seat, User, parse_board
from scorekeeper.services.boards import record_board
from scorekeeper.services.groups import create_group, join_group
from scorekeeper.services.money import store_money
from scorekeeper.services.nights import SeatRequest, end_night, start_night
from scorekeeper.services.payments import mark_paid
from scorekeeper.services.round_fixes import edit_round
from scorekeeper.services.rounds import EntryResult, record_entry

PASSWORD = "table-talk-42"


def make_user(name: str = "Anna") -> User:
    return User.objects.create_user(name=name, password=PASSWORD)


def make_group(name: str = "Friday OFC", members: tuple[str, ...] = ("Anna",)) -> Group:
    """A group created by the first of ``members``, who are made unless they exist."""
    users = [User.objects.filter(name=member).first() or make_user(member) for member in members]
    group = create_group(name=name, created_by=users[0] if users else None)
    for user in users[1:]:
        join_group(group=group, user=user)
    return group


def members_since(group: Group, *, days: int) -> None:
    """Every member of ``group`` joined ``days`` ago: long enough, from a day on, to sign
    in someone they sat with (models/sign_ins.table_mates)."""
    group.memberships.update(joined_at=timezone.now() - timedelta(days=days))


def make_night(
    players: tuple[str, ...] = ("Anna", "Bram", "Chris"),
    *,
    game: str = "standard",
    rules: dict | None = None,
    guests: tuple[str, ...] = (),
    dealer: int = 0,
    point_cents: int = 10,
    loss_cap_cents: int | None = None,
    group: Group | None = None,
) -> Night:
    """A night of ``players`` and ``guests``, in a new group unless ``group`` is given
    (its players then already exist)."""
    group = group or make_group(members=players)
    users = {user.name: user for user in User.objects.filter(name__in=players)}
    seats = [SeatRequest(user=users[name]) for name in players]
    seats += [SeatRequest(guest_name=name) for name in guests]
    return start_seated(
        group,
        users[players[0]],
        seats,
        game_id=game,
        rules=rules or {},
        point_cents=point_cents,
        first_dealer=dealer,
        loss_cap_cents=loss_cap_cents,
    )


def start_seated(
    group: Group, by: User, seats: list[SeatRequest], *, door=start_night, **more
) -> Night:
    """A night of ``seats`` started by ``by`` through ``door`` (start_night, or one that
    takes the same: start_drawn_night): the standard game, no house rules, 10 cents a
    point, the first seat dealing; ``more`` changes any of those or adds what else the
    door takes (``beside_running=True``)."""
    usual = {"game_id": "standard", "rules": {}, "point_cents": 10, "first_dealer": 0}
    return door(group=group, started_by=by, seats=seats, **{**usual, **more})


def log_in(client: Client, who: User | str) -> Client:
    """``client``, logged in as ``who`` (a user, or the name of one) without the login form.

    The one way the tests log in; the tests of logging in use the real form."""
    client.force_login(who if isinstance(who, User) else User.objects.get(name=who))
    return client


def settle_url(night: Night) -> str:
    """The night's settlement page."""
    return reverse("night_settle", args=[night.pk])


def seats_of(night: Night) -> dict[str, Seat]:
    return {seat.name: seat for seat in night.seats.all()}


def enter(
    night: Night,
    name: str,
    points: int,
    *,
    by: str | None = None,
    number: int | None = None,
    **claims,
) -> EntryResult:
    """``name``'s total for the open round (or round ``number``), typed by ``by``,
    by themselves, or for a guest by the first member at the table."""
    seat = seats_of(night)[name]
    if by is not None:
        user = User.objects.get(name=by)
    else:
        user = seat.user or night.seats.filter(user__isnull=False).first().user
    number = number or night.rounds.filter(recorded_at__isnull=True).get().number
    return record_entry(
        night=night, round_number=number, seat=seat, points=points, entered_by=user, **claims
    )


def play_round(night: Night, totals: dict[str, int], **claims_by_name) -> EntryResult | None:
    """Enter one round's ``totals`` by seat name, each with its claims
    (``Bram={"fantasyland_made": "kk"}``); the last entry's result."""
    result = None
    for name, points in totals.items():
        result = enter(night, name, points, **claims_by_name.get(name, {}))
    return result


def paid(night: Night, payer: str, payee: str, cents: int):
    """``payer``'s payment of ``cents`` to ``payee`` marked paid on ``night`` by the payee,
    each named by their seat."""
    seats = seats_of(night)
    return mark_paid(
        night=night,
        payer=seats[payer],
        payee=seats[payee],
        cents=cents,
        marked_by=seats[payee].user,
    )


def fix_round(night: Night, number: int, by: User, totals: dict[str, int]):
    """Round ``number`` of ``night`` corrected by ``by`` to ``totals``, by seat name."""
    seats = seats_of(night)
    points = {seats[name].pk: value for name, value in totals.items()}
    return edit_round(night=night, number=number, edited_by=by, points=points)


def open_round(night: Night) -> Round:
    return night.rounds.get(recorded_at__isnull=True)


def play(night: Night, *rounds: dict[str, int], claims: dict[int, dict[str, str]] | None = None):
    """Play rounds by seat name: ``play(night, {"Anna": 5, "Bram": -5})``.

    Each player enters their own total; a guest's is entered by the first member
    at the table. ``claims`` maps a 0-based round index to ``{name: made}``.
    """
    for index, totals in enumerate(rounds):
        made = (claims or {}).get(index, {})
        for name, points in totals.items():
            enter(night, name, points, fantasyland_made=made.get(name, ""))
    night.refresh_from_db()
    return night


def rounds_of(count: int) -> list[dict[str, int]]:
    """``count`` rounds (an even number) that leave Anna +15, Bram -3, Chris -12."""
    assert count >= 2 and count % 2 == 0
    swings = [{"Anna": 1, "Bram": -1, "Chris": 0}, {"Anna": -1, "Bram": 1, "Chris": 0}] * count
    base = [{"Anna": 10, "Bram": -4, "Chris": -6}, {"Anna": 5, "Bram": 1, "Chris": -6}]
    return base + swings[: count - 2]


def finish(night: Night) -> Night:
    """End ``night``, as its first member at the table."""
    return end_night(night=night, by=night.seats.exclude(user=None).first().user)


def set_cards(night, name, top, middle, bottom, *, points=None):
    """``name`` sets a board for the open round (a guest's is set by the first member)."""
    seat = Seat.objects.get(night=night, name=name)
    by = seat.user or night.seats.exclude(user=None).first().user
    return record_board(
        night=night,
        round_number=open_round(night).number,
        seat=seat,
        board=parse_board({"top": top, "middle": middle, "bottom": bottom}),
        entered_by=by,
        points=points,
    )


def play_two_nights(make_night):
    """Two finished nights, by hand:

    Night 1, Pineapple at 10 ct, Anna, Bram, Chris:
      round 1, all cards: Anna +7 (flush bottom, royalties 4), Bram +17 (kings on
        top, royalties 8, Fantasyland), Chris -24 (fouled). Pairs: Anna -3 against
        Bram, +10 against Chris.
      round 2, mixed: Bram sets cards in Fantasyland (queens trips on top, a flush,
        a full house: royalties 20 + 8 + 6 = 34, he stays) and types -10; Anna
        types +25, Chris -15. Only Bram set cards: no pair results.
      Anna +32, Bram +7, Chris -39: Anna wins the night.
    Night 2, Standard at 50 ct, Anna, Bram and the guest Gus:
      round 1, all cards: Anna fouls (-26), Bram +9 (full house bottom, royalties 6),
        Gus +17 (jacks on top 6, straight bottom 2). Pairs: Anna -12 against Bram,
        -14 against Gus.
      round 2, totals: Anna +10, Bram -4, Gus -6.
      Anna -16, Bram +5, Gus +11: Gus wins the night.
    """
    first = make_night(("Anna", "Bram", "Chris"), game="pineapple", point_cents=10)
    set_cards(first, "Anna", "2c 3d 4h", "Qs Qd 5c 5d 9s", "Ah Jh 8h 6h 3h")
    set_cards(first, "Bram", "Kc Kd 7s", "As Ad 9c 6d 2s", "Ts Td 4s 4c Js")
    set_cards(first, "Chris", "Qc Qh 2d", "7c 8d 9h Jd 2h", "6s 6c Kh Ks 3s")
    set_cards(first, "Bram", "Qh Qc Qd", "2h 5h 7h 9h Jh", "8c 8d 8s 4c 4d", points=-10)
    enter(first, "Anna", 25)
    enter(first, "Chris", -15)
    finish(first)

    second = make_night(("Anna", "Bram"), guests=("Gus",), point_cents=50, group=first.group)
    set_cards(second, "Anna", "Ah Ad 2c", "3c 4d 6h 8s Tc", "Kc Kd Ks 5h 5d")
    set_cards(second, "Bram", "2d 3h 4s", "6c 6d 9h 9s Jc", "7c 7d 7h Qs Qd")
    set_cards(second, "Gus", "Jh Js 2s", "8c 8d Th Td 3s", "4h 5c 6s 7s 8h")
    enter(second, "Anna", 10)
    enter(second, "Bram", -4)
    enter(second, "Gus", -6)
    finish(second)
    return first.group, first, second


def play_nights(make_night, group, count):
    """``count`` more finished nights of Anna and Bram, each a card round and a totals round."""
    for _ in range(count):
        night = make_night(("Anna", "Bram"), group=group)
        set_cards(night, "Anna", "2c 3d 4h", "Qs Qd 5c 5d 9s", "Ah Jh 8h 6h 3h")
        set_cards(night, "Bram", "Kc Kd 7s", "As Ad 9c 6d 2s", "Ts Td 4s 4c Js")
        enter(night, "Anna", 3)
        enter(night, "Bram", -3)
        finish(night)


def finished_nights_in_bulk(
    group: Group, totals: list[dict[str, int]], fields: Callable[[int], dict] = lambda index: {}
) -> list[Night]:
    """A finished night of one round for each of ``totals`` (a name to its total, the
    first name starting the night), oldest first and after the group's other nights,
    written in bulk with their money stored as the services store it: for the lists
    and counts of many nights, which the services would take a minute to play.
    ``fields(index)`` gives each night's own stakes or the like."""
    users = {user.name: user for user in User.objects.filter(memberships__group=group)}
    latest = group.nights.order_by("-started_at").values_list("started_at", flat=True).first()
    start = latest or timezone.now() - timedelta(days=len(totals) + 1)
    nights = Night.objects.bulk_create(
        Night(
            group=group,
            game="standard",
            currency=group.currency,
            started_by=users[next(iter(night))],
            started_at=start + timedelta(hours=index + 1),
            ended_at=start + timedelta(hours=index + 2),
            **{"point_cents": 10, **fields(index)},
        )
        for index, night in enumerate(totals)
    )
    seats = Seat.objects.bulk_create(
        Seat(night=night, position=position, user=users[name], name=name)
        for night, points in zip(nights, totals, strict=True)
        for position, name in enumerate(points)
    )
    rounds, entries, at = [], [], 0
    for night, points in zip(nights, totals, strict=True):
        dealer = seats[at]
        rounds.append(
            Round(night=night, number=1, dealer=dealer, recorded_at=night.ended_at, recorded_sum=0)
        )
        entries += [
            Entry(round=rounds[-1], seat=seats[at + position], points=total)
            for position, total in enumerate(points.values())
        ]
        at += len(points)
    Round.objects.bulk_create(rounds)
    Entry.objects.bulk_create(entries)
    store_money([night.pk for night in nights])
    return nights


def fix_state_of(night: Night, number: int) -> str:
    """Round ``number``'s state as its fix page shows it (the form's hidden ``state``)."""
    from scorekeeper.services.round_fixes import fix_state

    round_ = night.rounds.get(number=number)
    return fix_state(round_, round_.entries.all())


def body_text(response) -> str:
    """A response's body as text, whether it was sent whole or streamed (the exports)."""
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


_ports_handed_out = itertools.count()


def free_port() -> int:
    """A port nothing listens on, from a range of this test worker's own (below the
    ports the system hands out to clients). A port the system picked could be picked
    again for another worker's server before the first had bound it, and the server
    binds with SO_REUSEPORT: a test then talked to another test's server. `make test`
    runs its PostgreSQL pass beside the SQLite one, each with its own workers: that
    pass starts its ranges at OFCBOARD_TEST_PORTS."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    first = int(os.environ.get("OFCBOARD_TEST_PORTS", "20000")) + 500 * int(worker or 0)
    for _ in range(500):
        port = first + next(_ports_handed_out) % 500
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError(f"no free port from {first} to {first + 499}")


def start_server(
    env: dict[str, str], *options: str, output: Path | None = None
) -> tuple[subprocess.Popen, int]:
    """The server as `make run` starts it (``python -m ofcboard.serve``) on a free port,
    once it accepts connections: (its process, the port). What it writes goes to the
    file ``output``, when given."""
    port = free_port()
    written = subprocess.DEVNULL if output is None else output.open("ab")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ofcboard.serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            *options,
        ],
        cwd=Path(__file__).resolve().parent.parent,
        env=env,
        stdout=written,
        stderr=written,
    )
    if output is not None:
        written.close()  # the server has its own copy
    deadline = time.monotonic() + 30
    # Behind the front, nginx listens before the app behind it answers.
    ready = _app_answers if "--front" in options else listens
    while not ready(port):
        assert process.poll() is None, "the server did not start"
        assert time.monotonic() < deadline, "the server did not answer"
        time.sleep(0.1)
    return process, port


def listens(port: int) -> bool:
    """Whether something accepts connections on ``port`` of this machine."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def _app_answers(port: int) -> bool:
    """Whether the app behind the front answers: anything but the front's own word
    that it could not reach it (502, 504), a redirect to HTTPS or the health check's
    503 included."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        connection.request("GET", "/health/")
        return connection.getresponse().status not in (502, 504)
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def migrate_app(to: tuple[str, str] | None = None) -> Apps:
    """Migrate the app's tables to migration ``to`` (its newest when None), as a site
    that has or has not migrated yet keeps them; the models as they are there."""
    executor = MigrationExecutor(connection)
    targets = [to] if to else executor.loader.graph.leaf_nodes("scorekeeper")
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def longest_pause_beside(work) -> tuple[float, float]:
    """How long ``work`` took, and the longest a thread beside it that wakes every
    millisecond (a phone's save waiting for the interpreter) had to wait meanwhile."""
    done = threading.Event()
    pauses = [0.0]

    def beside() -> None:
        last = time.perf_counter()
        while not done.is_set():
            time.sleep(0.001)
            now = time.perf_counter()
            pauses.append(now - last)
            last = now

    thread = threading.Thread(target=beside, daemon=True)
    thread.start()
    started = time.perf_counter()
    try:
        work()
    finally:
        took = time.perf_counter() - started
        done.set()
        thread.join(timeout=5)
    return took, max(pauses)


def answered_in_time(work: Callable[[], None]) -> tuple[float, float]:
    """:func:`longest_pause_beside` of ``work``, taken once more when the first is over
    2 s or 0.2 s: a busy machine's stall does not come back at the same place, a reader
    that holds the server does."""
    took, pause = longest_pause_beside(work)
    if took >= 2.0 or pause >= 0.2:
        took, pause = longest_pause_beside(work)
    return took, pause
