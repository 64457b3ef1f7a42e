"""Small factories and steps shared by the tests: people, groups, nights, and rounds played.

Plain functions, imported by the test modules; `tests/conftest.py` hands the factories
and the login to the tests as fixtures.
"""

from django.test import Client
from django.urls import reverse

from scorekeeper.models import Group, Night, Round, Seat, User
from scorekeeper.services.groups import create_group, join_group
from scorekeeper.services.nights import SeatRequest, end_night, start_night
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
    return start_night(
        group=group,
        started_by=users[players[0]],
        game_id=game,
        rules=rules or {},
        point_cents=point_cents,
        seats=seats,
        first_dealer=dealer,
        loss_cap_cents=loss_cap_cents,
    )


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
