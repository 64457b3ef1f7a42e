"""What a chart of running totals is made of (:func:`scorekeeper.table.chart.running_totals`
works it out): each player's series of totals as given, and the lines, segments and
words it is drawn with, every place in whole pixels, which ``scorekeeper/chart.svg`` writes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.table.colours import colour_class

# The chart's words are drawn this many pixels high.
FONT_SIZE = 11


@dataclass(frozen=True)
class ChartSeries:
    """One player's line: their name and running total after each round.

    ``points[i]`` is the total after round ``start + i + 1``; the chart starts
    the line at 0 after round ``start`` (0: before round 1, for everyone who
    sat down at the start; a late arrival's line starts where they sat down).
    A series may end before the night does (a player who left): its line stops
    where its points do.

    ``colour`` is the player's colour number (1 and up, cycling past the number of
    ``player-N`` classes: :func:`scorekeeper.table.colours.player_colours`); without
    it a series takes its place in the list, which changes when the list does.

    >>> ChartSeries("Anna", [3, -1, 12]).points
    (3, -1, 12)
    >>> dana = ChartSeries("Dana", [4], start=2, colour=3)
    >>> dana.end, dana.total
    (3, 4)
    """

    name: str
    points: Sequence[int]
    start: int = 0
    colour: int | None = None

    def __post_init__(self) -> None:
        # A tuple, so a frozen series really cannot change under the chart.
        object.__setattr__(self, "points", tuple(self.points))
        if self.start < 0:
            raise ValueError(f"{self.name!r} cannot start before round 0, got {self.start}")
        if self.colour is not None and self.colour < 1:
            raise ValueError(f"{self.name!r}'s colour is numbered from 1, got {self.colour}")

    @property
    def end(self) -> int:
        """The round after which the line stops."""
        return self.start + len(self.points)

    @property
    def total(self) -> int:
        """The last running total (0 before the first round)."""
        return self.points[-1] if self.points else 0


@dataclass(frozen=True)
class Segment:
    """A straight line from (``x1``, ``y1``) to (``x2``, ``y2``), in pixels."""

    x1: int
    y1: int
    x2: int
    y2: int


@dataclass(frozen=True)
class Text:
    """Words drawn with their baseline's ``x``/``y`` (its start, middle or end, as its
    place in the chart says): plain text, escaped by whoever writes it."""

    x: int
    y: int
    text: str


@dataclass(frozen=True)
class Line:
    """One player's line: its colour number (``colour``, 1..8, drawn as the class
    ``player-N``: :attr:`css_class`), its ``title``
    (name and total in full), its points in pixels from where it starts to where it
    ends in a dot, and its label beside the chart, with a leader back to the dot when
    the label had to move or the line stops early."""

    colour: int
    title: str
    points: tuple[tuple[int, int], ...]
    label: Text
    leader: Segment | None

    @property
    def end(self) -> tuple[int, int]:
        """Where the line stops: its dot."""
        return self.points[-1]

    @property
    def css_class(self) -> str:
        """The class that gives the line its player's colour.

        >>> Line(3, "Cora −2", ((0, 0),), Text(6, 4, "Cora −2"), None).css_class
        'player-3'
        """
        return colour_class(self.colour)

    @property
    def coordinates(self) -> str:
        """The points as SVG's ``points`` attribute lists them: ``"10,20 30,40"``.

        >>> Line(1, "Anna +4", ((10, 20), (30, 40)), Text(36, 44, "Anna +4"), None).coordinates
        '10,20 30,40'
        """
        return " ".join(f"{x},{y}" for x, y in self.points)


@dataclass(frozen=True)
class Chart:
    """All a chart draws, in a ``width`` x ``height`` box (its ``viewBox``).

    ``name`` is its accessible name, one sentence in the page's language. Before the
    first round it has only a ``zero`` line across its middle and a ``message``;
    after, a light ``grid``, the axes' numbers (``y_ticks`` at the left, ending at
    their ``x``; ``x_ticks`` below, centred), the ``zero`` line and each player's
    ``lines``.
    """

    width: int
    height: int
    name: str
    zero: Segment
    message: Text | None = None
    grid: tuple[Segment, ...] = ()
    y_ticks: tuple[Text, ...] = ()
    x_ticks: tuple[Text, ...] = ()
    lines: tuple[Line, ...] = ()
    font_size: int = FONT_SIZE
