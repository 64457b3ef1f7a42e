"""Starting a night whose seats and first dealer are drawn by the app."""

from django.db import transaction

from scorekeeper.models import Night
from scorekeeper.services.nights import SeatRequest, start_night
from scorekeeper.table.seat_draw import draw_seats


@transaction.atomic
def start_drawn_night(*, seats: list[SeatRequest], **start: object) -> Night:
    """start_night with ``seats`` drawn into a random order and a random first dealer
    (``first_dealer`` is drawn, not taken); start_night's door keeps the draw with the
    night, so every phone can say the seats were drawn, and puts it on the record."""
    start.pop("first_dealer", None)
    order, dealer = draw_seats(seats)
    return start_night(seats=order, first_dealer=dealer, drawn=True, **start)  # type: ignore[arg-type]
