"""What a night of the app's JSON export carries that a CSV file cannot: the night's
house rules in full, each seat's place and the rounds it sat in (late seats and
leavers as they were), when each round went through, and each hand's cards and
Fantasyland stay. Read by :mod:`scorekeeper.table.history_json`, kept in a
preview's signed nights (:meth:`Extras.to_data`) and written by the import.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

# {"top": [...], "middle": [...], "bottom": [...]}: canonical card text, as stored.
Board = dict[str, list[str]]


@dataclass(frozen=True)
class SeatPlace:
    """A seat as it was: its place at the table and the rounds it sat in."""

    position: int
    first_round: int
    last_round: int | None  # None: still at the table when the night ended


@dataclass(frozen=True)
class Extras:
    """A night's facts beyond its points, by player in the night's order of players
    and by round in the night's order of rounds."""

    rules: dict[str, Any]
    seats: tuple[SeatPlace, ...]
    recorded: tuple[datetime, ...]  # when each round went through
    boards: tuple[tuple[Board | None, ...], ...]
    stays: tuple[tuple[bool, ...], ...]

    def fits(self, players: int, rounds: int) -> bool:
        """Whether every list has one item per player and per round."""
        return (
            len(self.seats) == players
            and len({seat.position for seat in self.seats}) == players
            and len(self.recorded) == len(self.boards) == len(self.stays) == rounds
            and all(len(row) == players for row in (*self.boards, *self.stays))
        )

    def to_data(self) -> list[Any]:
        """Plain lists for a signed token (:meth:`from_data` reads them).

        >>> extras = Extras({"scoring": {"scoop": 0, "majority": 1}},
        ...     (SeatPlace(1, 1, None), SeatPlace(4, 2, 3)),
        ...     (datetime.fromisoformat("2024-03-07T20:00:00+00:00"),),
        ...     (({"top": ["Ah"], "middle": [], "bottom": []}, None),), ((True, False),))
        >>> Extras.from_data(extras.to_data()) == extras
        True
        """
        return [
            self.rules,
            [[seat.position, seat.first_round, seat.last_round] for seat in self.seats],
            [moment.isoformat() for moment in self.recorded],
            [list(row) for row in self.boards],
            [list(row) for row in self.stays],
        ]

    @classmethod
    def from_data(cls, data: list[Any]) -> Extras:
        rules, seats, recorded, boards, stays = data
        return cls(
            rules=dict(rules),
            seats=tuple(SeatPlace(*seat) for seat in seats),
            recorded=tuple(datetime.fromisoformat(moment) for moment in recorded),
            boards=tuple(tuple(row) for row in boards),
            stays=tuple(tuple(bool(stay) for stay in row) for row in stays),
        )
