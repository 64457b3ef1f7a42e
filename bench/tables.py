"""The groups and nights the benchmarks measure, made through the app's own services.

Imported once Django is set up (each benchmark sets up its own settings first).
"""

from collections.abc import Iterable, Sequence

from scorekeeper.models import Group, Night, User
from scorekeeper.services.groups import create_group, join_group
from scorekeeper.services.nights import SeatRequest, start_night
from scorekeeper.services.rounds import record_entry


def a_group(name: str, users: Sequence[User]) -> Group:
    """A group that the first of ``users`` made and the others joined."""
    group = create_group(name=name, created_by=users[0])
    for user in users[1:]:
        join_group(group=group, user=user)
    return group


def a_night(
    group: Group, users: Sequence[User], *, game_id: str = "standard", guests: Sequence[str] = ()
) -> Night:
    """A night at 10 ct a point for ``users`` and ``guests``, the first user dealing."""
    return start_night(
        group=group,
        started_by=users[0],
        game_id=game_id,
        rules={},
        point_cents=10,
        seats=[SeatRequest(user=user) for user in users]
        + [SeatRequest(guest_name=name) for name in guests],
        first_dealer=0,
    )


def play(night: Night, by: User, rounds: Iterable[Sequence[int]]) -> None:
    """Each round's totals (one per seat, in seat order) entered as phones enter them."""
    seats = list(night.seats.all())
    for number, totals in enumerate(rounds, start=1):
        for seat, points in zip(seats, totals, strict=True):
            record_entry(night=night, round_number=number, seat=seat, points=points, entered_by=by)
    night.refresh_from_db()


def spread(number: int) -> tuple[int, int, int]:
    """Three seats' totals for round ``number``: never all alike, always adding up to zero."""
    return number % 7, -(number % 5), number % 5 - number % 7
