"""Starting a night whose seats and first dealer are drawn by the app."""

from django.db import transaction

from scorekeeper.models import Night, SeatDraw
from scorekeeper.services.nights import SeatRequest, start_night
from scorekeeper.table.seat_draw import draw_seats


@transaction.atomic
def start_drawn_night(*, seats: list[SeatRequest], **start: object) -> Night:
    """start_night with ``seats`` drawn into a random order and a random first dealer
    (``first_dealer`` is drawn, not taken), and the draw recorded with the night so
    every phone can say the seats were drawn."""
    start.pop("first_dealer", None)
    order, dealer = draw_seats(seats)
    night = start_night(seats=order, first_dealer=dealer, **start)  # type: ignore[arg-type]
    SeatDraw.objects.create(night=night)
    return night
