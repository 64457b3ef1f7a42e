"""Each player's colour at a night: the same on every page and every phone, all night.

Pure Python, no Django. A player's colour is a number, 1 to :data:`COLOURS`, that the
pages write as the class ``player-N`` (:func:`colour_class`); the stylesheet
(``static/ofcboard/app.css``) gives each class its shade through ``--player-N``, one
for the light scheme and one for the dark, from :data:`PALETTE`.

The palette is Okabe and Ito's eight colours, chosen to stay apart for the common
kinds of colour blindness, each darkened for the light page or lightened for the dark
one until it stands out from the page and from a card at 3:1 or more (WCAG's contrast
for lines and marks, :func:`contrast`). The colour is never all there is: the player's
name is always beside it.

The order puts the four a game seats at most (blue, orange, green, purple) far apart;
the red-orange vermilion comes last, so a player is hardly ever drawn in a colour near
the red of a loss.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Shade:
    """One player colour: its name, and its shade on a light page and on a dark one
    (``#rrggbb``)."""

    name: str
    light: str
    dark: str


#: The player colours, ``player-1`` first.
PALETTE: tuple[Shade, ...] = (
    Shade("blue", light="#0072b2", dark="#3d94c4"),
    Shade("orange", light="#af7900", dark="#e69f00"),
    Shade("bluish green", light="#00966d", dark="#009e73"),
    Shade("reddish purple", light="#b66c95", dark="#cc79a7"),
    Shade("sky blue", light="#428bb3", dark="#56b4e9"),
    Shade("yellow", light="#8b8426", dark="#f0e442"),
    Shade("grey", light="#555555", dark="#a0a0a0"),
    Shade("vermilion", light="#d55e00", dark="#d96e19"),
)

#: Distinct colours before they repeat.
COLOURS = len(PALETTE)

#: What a colour is drawn on in each scheme: the page (``--bg``) and a card (``--card``).
LIGHT_BACKGROUNDS = ("#f6f4ef", "#ffffff")
DARK_BACKGROUNDS = ("#14171c", "#1e232a")


def player_colours(seat_ids: Iterable[int]) -> dict[int, int]:
    """Each seat's colour number, 1 to :data:`COLOURS`, by the order the seats were
    made at the night: the order the players sat down.

    Not by their place at the table, which moves when a late arrival sits in between:
    this way nobody's colour changes when someone sits in, leaves or comes back (a
    seat that comes back is the same seat). Seats are made in that order, so their ids
    grow with it; any order of ``seat_ids`` gives the same answer.

    >>> player_colours([12, 10, 11])
    {10: 1, 11: 2, 12: 3}
    >>> colours = player_colours(range(1, 11))  # nine and ten players start again
    >>> colours[8], colours[9], colours[10]
    (8, 1, 2)
    """
    return {seat: index % COLOURS + 1 for index, seat in enumerate(sorted(set(seat_ids)))}


def colour_class(number: int) -> str:
    """The class a page writes for colour ``number`` (cycling past :data:`COLOURS`).

    >>> colour_class(1), colour_class(8), colour_class(9)
    ('player-1', 'player-8', 'player-1')
    """
    if number < 1:
        raise ValueError(f"colours are numbered from 1, got {number}")
    return f"player-{(number - 1) % COLOURS + 1}"


def contrast(first: str, second: str) -> float:
    """WCAG 2's contrast ratio of two ``#rrggbb`` colours, 1 to 21.

    >>> contrast("#000000", "#ffffff")
    21.0
    >>> round(contrast("#0072b2", "#f6f4ef"), 2)
    4.72
    """
    lighter, darker = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _luminance(colour: str) -> float:
    """WCAG 2's relative luminance of ``#rrggbb``: 0 for black, 1 for white.

    >>> _luminance("#ffffff"), _luminance("#000000")
    (1.0, 0.0)
    """
    if len(colour) != 7 or not colour.startswith("#"):
        raise ValueError(f"not a #rrggbb colour: {colour!r}")
    red, green, blue = (_linear(int(colour[index : index + 2], 16)) for index in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
