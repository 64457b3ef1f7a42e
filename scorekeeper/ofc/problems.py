"""Why boards cannot be scored together, as values.

Before it counts, the engine checks the table: row sizes, one deck across every
board, jokers only where they are dealt, one name per player.
:func:`~scorekeeper.ofc.scoring.table_problems` lists every problem it meets,
in table order, and :class:`TableError` carries them. The error's message is
the first problem in the engine's words (what the ``score`` command prints), so
a caller with another audience can word all of them its own way.

>>> from scorekeeper.ofc import PRESETS, PlayerBoard, table_problems
>>> anna = PlayerBoard.parse("Anna", "Qh Qc 3d", "Ts Js Qd Kc Ah", "7d 7c 7s 2h 2s")
>>> bram = PlayerBoard.parse("Bram", "Qh 5d 9h", "3s 3h 4d 4c 8s", "Ks Kh Kd 6c Ah")
>>> [str(problem) for problem in table_problems(PRESETS["standard"], [anna, bram])]
['Qh appears twice: Anna top, Bram top', 'Ah appears twice: Anna middle, Bram bottom']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .board import Row
from .cards import Card, OFCError
from .fantasyland import FantasylandState

__all__ = [
    "BadFantasyland",
    "JokersNotDealt",
    "Place",
    "Problem",
    "RepeatedCard",
    "SameName",
    "TableError",
    "TooManyJokers",
    "WrongSize",
]


@dataclass(frozen=True)
class Place:
    """One row of one board; ``seat`` counts from 1 in the order the boards came."""

    seat: int
    name: str
    row: Row

    @property
    def player(self) -> str:
        return f"player {self.seat} ({self.name})"

    def __str__(self) -> str:
        return f"{self.name} {self.row}"


@dataclass(frozen=True)
class RepeatedCard:
    """A card on the table more than once; ``places`` holds every place it is in."""

    card: Card
    places: tuple[Place, ...]

    def __str__(self) -> str:
        return f"{self.card} appears twice: {self.places[0]}, {self.places[1]}"


@dataclass(frozen=True)
class TooManyJokers:
    """More jokers on the table than the game deals; ``places`` has one per joker."""

    limit: int
    places: tuple[Place, ...]

    def __str__(self) -> str:
        extra = self.places[self.limit]
        return f"{extra.player}, {extra.row}: there are only {self.limit} jokers"


@dataclass(frozen=True)
class JokersNotDealt:
    """Jokers in a game without them; ``places`` has one per joker."""

    places: tuple[Place, ...]

    def __str__(self) -> str:
        first = self.places[0]
        return f"{first.player}, {first.row}: jokers are only dealt in the jokers game"


@dataclass(frozen=True)
class WrongSize:
    place: Place
    count: int

    def __str__(self) -> str:
        place = self.place
        return f"{place.player}, {place.row} needs {place.row.size} cards, got {self.count}"


@dataclass(frozen=True)
class SameName:
    seat: int
    name: str

    def __str__(self) -> str:
        return f"player {self.seat} ({self.name}): two players are called {self.name}"


@dataclass(frozen=True)
class BadFantasyland:
    seat: int
    name: str
    state: FantasylandState

    def __str__(self) -> str:
        return (
            f"player {self.seat} ({self.name}), fantasyland: needs 13 to 17 cards and 0 or "
            f"more stays, got {self.state.cards} cards and {self.state.stays} stays"
        )


Problem = RepeatedCard | TooManyJokers | JokersNotDealt | WrongSize | SameName | BadFantasyland


class TableError(OFCError):
    """Boards that cannot be scored together: ``problems`` lists every reason, and
    the message is the first one."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__(str(self.problems[0]))
