"""Each player's colour on a page, as :mod:`scorekeeper.table.colours` gives it out.

``{{ seat|player_colour:night_seats }}`` writes the class ``player-N`` of a seat (or of
anything with a ``seat``: a night page's seat line, a settlement's result), its colour
worked out from all the night's seats (``state.seats``, a settlement's ``players``,
``NightResults.colours``: every seat of the night, so the same colour as the chart
draws); ``{{ 3|player_colour }}`` that of colour 3. The stylesheet colours the class;
the name is always written beside it.
"""

from collections.abc import Iterable, Mapping

from django import template

from scorekeeper.table.colours import colour_class, player_colours

register = template.Library()


@register.filter
def player_colour(seat: object, night_seats: Iterable[object] | None = None) -> str:
    """The ``player-N`` class of ``seat`` among ``night_seats`` (seats, things with a
    ``seat``, or seat ids to colour numbers), or of a colour number; "" for a seat the
    night does not know: nothing coloured rather than a wrong colour."""
    if night_seats is None:
        return colour_class(seat) if isinstance(seat, int) else ""
    if isinstance(night_seats, Mapping):
        colours = dict(night_seats)
    else:
        colours = player_colours(_seat_id(each) for each in night_seats)
    number = colours.get(_seat_id(seat))
    return colour_class(number) if number else ""


def _seat_id(seat: object) -> int:
    return getattr(getattr(seat, "seat", seat), "pk", seat)  # type: ignore[return-value]
