"""What reading a file comes to: its nights, and its problems with the line they are on."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import date, datetime

from scorekeeper.table.night_extras import Extras


class Kind(enum.Enum):
    """What is wrong. The page says each in words, with its line and ``text``."""

    TOO_BIG = "too_big"  # number: the limit in bytes
    TOO_MANY_LINES = "too_many_lines"  # number: the limit
    TOO_MANY_HANDS = "too_many_hands"  # number: the limit
    NOT_TEXT = "not_text"
    EMPTY = "empty"
    MISSING_COLUMN = "missing_column"  # text: the column
    NO_POINTS_COLUMN = "no_points_column"
    MISSING_VALUE = "missing_value"  # text: the column
    BAD_DATE = "bad_date"  # text: the date as written
    BAD_NAME = "bad_name"  # text: the name as written
    BAD_NUMBER = "bad_number"  # text: the number as written
    BAD_ROUND = "bad_round"  # text: the round as written
    UNKNOWN_GAME = "unknown_game"  # text: the game as written
    UNKNOWN_CURRENCY = "unknown_currency"  # text: the currency as written
    NAME_TWICE = "name_twice"  # text: the name
    HAND_TOO_BIG = "hand_too_big"  # number: the points
    NIGHT_TOO_BIG = "night_too_big"  # text: the name; number: the points
    POINTS_AND_MONEY = "points_and_money"  # a night with rows of points and rows of money
    TWO_STAKES = "two_stakes"  # a night whose rows give two stakes, currencies or games
    MONEY_NOT_POINTS = "money_not_points"  # money that is not the points at the stake
    NOT_ZERO = "not_zero"  # text: the date; number: what the night comes to
    NOT_ZERO_MONEY = "not_zero_money"  # text: the date and currency; number: in minor units
    NOT_ZERO_ROUND = "not_zero_round"  # text: the date; number: what the round comes to
    LINE_TOO_LONG = "line_too_long"  # number: the limit in characters
    NOT_CSV = "not_csv"  # a quote left open, or what the CSV reader cannot read
    TOO_SLOW = "too_slow"  # the file took longer than READ_SECONDS to read
    UNKNOWN_SCORING = "unknown_scoring"  # text: the scoring system as written
    # The app's JSON export (scorekeeper.table.history_json)
    NOT_JSON = "not_json"  # a file that starts as JSON and cannot be read as JSON
    NOT_EXPORT = "not_export"  # text: where in the file (a path such as nights[2].game)
    EXPORT_NOT_ZERO = "export_not_zero"  # text: the date; number: what the round comes to


@dataclass(frozen=True)
class Problem:
    """Something on lines ``line`` to ``last_line`` that does not add up (line 0: the
    file as a whole)."""

    line: int
    kind: Kind
    text: str = ""
    number: int = 0
    last_line: int = 0
    currency: str = ""  # the currency of ``number`` when it is money

    @property
    def lines(self) -> tuple[int, int]:
        return self.line, max(self.line, self.last_line)


@dataclass(frozen=True)
class SheetNight:
    """A night as the file tells it: its players in the order they first come, and its
    rounds, each a tuple of points by player (None: not dealt in)."""

    day: date
    started: datetime | None  # the export's moment; None for a date alone
    ended: datetime | None
    game: str  # a game's id, or "" for the group's own
    point_cents: int
    currency: str
    players: tuple[str, ...]
    rounds: tuple[tuple[int | None, ...], ...]
    # The export's Fantasyland claims, by round and player ("" for none).
    fantasylands: tuple[tuple[str, ...], ...] = ()
    # Who dealt each round, as an index of ``players`` (None: not known).
    dealers: tuple[int | None, ...] = ()
    first_line: int = 0
    last_line: int = 0
    # The export's scoring system ({"scoop": S, "majority": M}; None: the group's own)
    # and loss cap in minor units (None: none).
    scoring: dict[str, int] | None = None
    loss_cap_cents: int | None = None
    # What only the app's JSON export carries (rules, seats, cards, stays); None: a CSV's.
    extras: Extras | None = None

    @property
    def points(self) -> tuple[int, ...]:
        """Each player's points over the night."""
        return tuple(
            sum(round_[index] or 0 for round_ in self.rounds) for index in range(len(self.players))
        )

    @property
    def cents(self) -> tuple[int, ...]:
        """Each player's money over the night, in the currency's minor unit."""
        return tuple(points * self.point_cents for points in self.points)


@dataclass(frozen=True)
class Sheet:
    """What a file comes to: its nights, oldest first, and what does not add up."""

    nights: tuple[SheetNight, ...] = ()
    problems: tuple[Problem, ...] = ()
    lines: int = 0
    ignored: tuple[str, ...] = ()  # columns read past

    @property
    def people(self) -> tuple[str, ...]:
        """Every name the nights have, once each, in the order they first come."""
        return tuple(dict.fromkeys(name for night in self.nights for name in night.players))
