"""History from a spreadsheet: a CSV file of past nights, read and checked line by line.

One row per player per night (a date, a name, their points or their money, and if the
sheet has them the stake, the game and the currency), or the app's own CSV export (one
row per player per round, with the night's id and the round's number). The columns are
found by their names in a header row (:data:`COLUMNS`), the delimiter by looking at it
(a comma, a semicolon or a tab). Dates are ISO (``2024-03-07``, or the export's
``2024-03-07T20:15:00+01:00``) or day first: ``7-3-2024``, ``7.3.2024``, ``7/3/2024``;
never month first, which cannot be told from day first.

Nothing here writes, and nothing here speaks a language: what does not add up comes
back as :class:`Problem` values with the line they are on, which the page puts into
words. A night is made of rounds whose points add up to zero, as the app records them:
the export's rounds as they were, a spreadsheet's night as one round, or as few more
as it takes to keep each hand within the app's range (:func:`split_rounds`).
"""

from __future__ import annotations

import csv
import enum
import io
import re
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from scorekeeper.ofc.scoring_systems import MAX_BONUS, SYSTEMS
from scorekeeper.table.amounts import read_money
from scorekeeper.table.formatting import minor_digits
from scorekeeper.table.names import clean_name, has_hidden_characters, look_alike_key, name_key
from scorekeeper.table.night_extras import Extras

# A file this big, or this long, is refused before anything of it is read into nights.
# Under the server's limit on any request (ofcboard/serve.py MAX_REQUEST_BODY, 1 MiB),
# with room for the form around the file: a bigger file never reaches the app.
MAX_BYTES = 1_000_000
MAX_LINES = 100_000
# No hand comes to more than this many points either way (the app's Entry range).
MAX_HAND_POINTS = 999
# A player's night is split into at most this many hands; beyond it, a stake is missing.
MAX_ROUNDS_A_NIGHT = 100
# All the hands a file may make, every player's in every night counted.
MAX_ENTRIES = 200_000
# No line of a sheet of nights is longer than this (a row of the export with its cards
# is under 300 characters): a longer one is refused before the CSV reader sees it, and
# so is a cell longer than a line, which only a quote left open makes.
MAX_LINE_CHARS = 2_000
# The delimiter is told from this much of the first line at most.
HEADER_CHARS = 2_000
# A file is read within this many seconds, or refused: the phones' saves wait on none.
READ_SECONDS = 1.5

# A header's name (lower case, "_" and "-" read as spaces) -> what the column holds.
# The English names a spreadsheet would have, and the app's own export's (exports.py).
COLUMNS: Mapping[str, str] = {
    "date": "date",
    "day": "date",
    "started at": "date",
    "name": "name",
    "player": "name",
    "seat": "name",
    "points": "points",
    "score": "points",
    "money": "money",
    "amount": "money",
    "result": "money",
    "stake": "stake",
    "point value": "stake",
    "point cents": "point_cents",
    "game": "game",
    "currency": "currency",
    "night": "night",
    "round": "round",
    "ended at": "ended",
    "dealer": "dealer",
    "fantasyland made": "fantasyland",
    "scoring": "scoring",
    "loss cap cents": "loss_cap",
}
NEEDED = ("date", "name")


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


def count_lines(chunks: Iterable[bytes], limit: int = MAX_LINES) -> int:
    """The lines of a file read a chunk at a time, stopping once there are ``limit``
    (a last line without its line break counts).

    >>> count_lines([b"date,name\\n1-2-", b"2024,Anna\\n"]), count_lines([b"a\\nb"])
    (2, 2)
    >>> count_lines([b"x\\n" * 50, b"x\\n" * 50], limit=60)
    60
    """
    lines = 0
    last = b"\n"
    for chunk in chunks:
        if not chunk:
            continue
        lines += chunk.count(b"\n")
        last = chunk[-1:]
        if lines >= limit:
            return limit
    return min(limit, lines + (last != b"\n"))


def decode(data: bytes) -> str | None:
    """The file's text: UTF-8 (with or without Excel's byte order mark), or Windows'
    own code page as older spreadsheets save it; None for bytes that are neither.

    >>> decode("Zoë".encode()), decode("Zoë".encode("cp1252")), decode(b"\\x81\\x8d")
    ('Zoë', 'Zoë', None)
    """
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return None


def delimiter(header: str) -> str:
    """The delimiter of a file whose first line is ``header``: a comma, a semicolon
    or a tab, whichever its first :data:`HEADER_CHARS` characters hold most of (a
    comma when none). Counted, never sniffed: csv.Sniffer's expressions take time
    growing with the square of a line such as ``a,"a,"a,"...``, holding every thread.

    >>> delimiter("date;name;points"), delimiter("date\\tname\\tmoney"), delimiter("date,name")
    (';', '\\t', ',')
    """
    head = header[:HEADER_CHARS]
    return max(",;\t", key=head.count)


def column_of(header: str) -> str | None:
    """What a header names (:data:`COLUMNS`), or None.

    >>> column_of(" Started_At "), column_of("Points"), column_of("Notes")
    ('date', 'points', None)
    """
    key = " ".join(header.strip().lower().replace("_", " ").replace("-", " ").split())
    return COLUMNS.get(key)


_DAY_FIRST = re.compile(r"(\d{1,2})([-./])(\d{1,2})\2(\d{4})")


def read_date(text: str) -> tuple[date, datetime | None] | None:
    """The day ``text`` gives, with the moment when it gives one (ISO); None when it
    is not a date in ISO or day first (d-m-Y, d.m.Y, d/m/Y).

    >>> read_date("2024-03-07"), read_date("7.3.2024")
    ((datetime.date(2024, 3, 7), None), (datetime.date(2024, 3, 7), None))
    >>> read_date("07/03/2024")[0], read_date("7-3-2024")[0]
    (datetime.date(2024, 3, 7), datetime.date(2024, 3, 7))
    >>> read_date("2024-03-07T20:15:00+01:00")[1].isoformat()
    '2024-03-07T20:15:00+01:00'
    >>> read_date("31-02-2024"), read_date("03/31/2024"), read_date("next friday")
    (None, None, None)
    """
    text = text.strip()
    found = _DAY_FIRST.fullmatch(text)
    try:
        if found:
            return date(int(found[4]), int(found[3]), int(found[1])), None
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return date.fromisoformat(text), None
        if re.match(r"\d{4}-\d{2}-\d{2}[T ]\d", text):
            moment = datetime.fromisoformat(text)
            return moment.date(), moment
    except ValueError:
        return None
    return None


def read_points(text: str) -> int | None:
    """Whole points, with a sign if any; None when ``text`` is not that.

    >>> read_points("+12"), read_points("\u22127"), read_points(" 0 "), read_points("1.5")
    (12, -7, 0, None)
    """
    text = text.strip().replace("\u2212", "-").replace("\u2013", "-")
    if not re.fullmatch(r"[-+]?\d{1,9}", text):
        return None
    return int(text)


def split_rounds(points: tuple[int, ...], limit: int = MAX_HAND_POINTS) -> list[tuple[int, ...]]:
    """A night's points, which add up to zero, as the fewest rounds this finds that each
    add up to zero with no hand over ``limit`` either way: one round when the night
    fits in one hand.

    >>> split_rounds((5, -3, -2))
    [(5, -3, -2)]
    >>> split_rounds((1500, -1200, -300))
    [(999, -699, -300), (501, -501, 0)]
    >>> [sum(r) for r in split_rounds((2500, -2500))], len(split_rounds((2500, -2500)))
    ([0, 0, 0], 3)
    """
    if sum(points) != 0:
        raise ValueError("the points must add up to zero")
    left = list(points)
    rounds: list[tuple[int, ...]] = []
    while any(left) or not rounds:
        hand = [max(-limit, min(limit, value)) for value in left]
        # Whichever side's hands come to more gives back the difference, largest first.
        extra = sum(hand)
        for index in sorted(range(len(hand)), key=lambda i: -abs(hand[i])):
            if extra == 0:
                break
            if (hand[index] > 0) == (extra > 0) and hand[index]:
                give = min(abs(extra), abs(hand[index]))
                step = give if extra > 0 else -give
                hand[index] -= step
                extra -= step
        rounds.append(tuple(hand))
        left = [value - part for value, part in zip(left, hand, strict=True)]
    return rounds


@dataclass
class _Row:
    line: int
    key: str
    day: date
    started: datetime | None
    ended: datetime | None
    name: str
    person: str
    round: int
    points: int | None
    money: int | None
    stake: int | None
    game: str
    currency: str
    dealer: str
    fantasyland: str
    scoring: tuple[int, int] | None = None
    loss_cap: int | None = None


_OWN_SCORING = re.compile(r"scoop (\d{1,2}) majority (\d{1,2})")


def read_scoring(text: str) -> tuple[int, int] | bool | None:
    """A scoring system as the export writes it, as (scoop, majority): a system's
    name (1-6, 2-4, 1-1-1) or "scoop S majority M"; None for no text, False for
    text that is neither.

    >>> read_scoring("2-4"), read_scoring("scoop 5 majority 2"), read_scoring(""), read_scoring("x")
    ((0, 1), (5, 2), None, False)
    """
    text = " ".join(text.lower().split())
    if not text:
        return None
    if text in SYSTEMS:
        return SYSTEMS[text].scoop, SYSTEMS[text].majority
    found = _OWN_SCORING.fullmatch(text)
    if found and max(int(found[1]), int(found[2])) <= MAX_BONUS:
        return int(found[1]), int(found[2])
    return False


@dataclass
class _Reader:
    currency: str
    point_cents: int
    games: Mapping[str, str]
    problems: list[Problem] = field(default_factory=list)
    spelling: dict[str, str] = field(default_factory=dict)  # look-alike key -> name

    def refuse(self, line: int, kind: Kind, text: str = "", number: int = 0) -> None:
        self.problems.append(Problem(line, kind, text, number))

    def row(self, line: int, cells: Mapping[str, str]) -> _Row | None:
        """One line read, or None with its problem noted."""
        for column in NEEDED:
            if not cells.get(column, "").strip():
                self.refuse(line, Kind.MISSING_VALUE, column)
                return None
        read = read_date(cells["date"])
        if read is None:
            self.refuse(line, Kind.BAD_DATE, cells["date"].strip())
            return None
        day, started = read
        ended = read_date(cells.get("ended", ""))
        raw_name = cells["name"]
        try:
            if has_hidden_characters(raw_name):
                raise ValueError(raw_name)
            name = clean_name(raw_name)
        except ValueError:
            self.refuse(line, Kind.BAD_NAME, raw_name.strip())
            return None
        person = look_alike_key(name)
        name = self.spelling.setdefault(person, name)

        currency = cells.get("currency", "").strip().upper() or self.currency
        try:
            minor_digits(currency)
        except Exception:  # Babel knows no such currency
            self.refuse(line, Kind.UNKNOWN_CURRENCY, cells.get("currency", "").strip())
            return None
        game_text = cells.get("game", "").strip()
        game = self.games.get(game_text.lower(), "") if game_text else ""
        if game_text and not game:
            self.refuse(line, Kind.UNKNOWN_GAME, game_text)
            return None

        numbers: dict[str, int | None] = {}
        for column in ("points", "round", "point_cents"):
            text = cells.get(column, "").strip()
            numbers[column] = read_points(text) if text else None
            if text and numbers[column] is None:
                self.refuse(line, Kind.BAD_ROUND if column == "round" else Kind.BAD_NUMBER, text)
                return None
        for column in ("money", "stake"):
            text = cells.get(column, "").strip()
            numbers[column] = read_money(text, currency) if text else None
            if text and numbers[column] is None:
                self.refuse(line, Kind.BAD_NUMBER, text)
                return None
        if numbers["points"] is None and numbers["money"] is None:
            self.refuse(line, Kind.MISSING_VALUE, "points" if "points" in cells else "money")
            return None
        stake = numbers["point_cents"] if numbers["point_cents"] is not None else numbers["stake"]
        if stake is not None and stake <= 0:
            self.refuse(line, Kind.BAD_NUMBER, cells.get("stake", "") or cells["point_cents"])
            return None
        scoring = read_scoring(cells.get("scoring", ""))
        if scoring is False:
            self.refuse(line, Kind.UNKNOWN_SCORING, cells["scoring"].strip())
            return None
        cap_text = cells.get("loss_cap", "").strip()
        loss_cap = read_points(cap_text) if cap_text else None
        if cap_text and (loss_cap is None or loss_cap < 0):
            self.refuse(line, Kind.BAD_NUMBER, cap_text)
            return None
        round_number = numbers["round"]
        if round_number is not None and round_number < 1:
            self.refuse(line, Kind.BAD_ROUND, cells["round"].strip())
            return None
        return _Row(
            line=line,
            key=cells.get("night", "").strip() or day.isoformat(),
            day=day,
            started=started,
            ended=ended[1] if ended else None,
            name=name,
            person=person,
            round=round_number or 0,
            points=numbers["points"],
            money=numbers["money"],
            stake=stake,
            game=game,
            currency=currency,
            dealer=cells.get("dealer", "").strip(),
            fantasyland=cells.get("fantasyland", "").strip()[:20],
            scoring=scoring if isinstance(scoring, tuple) else None,
            loss_cap=loss_cap,
        )

    def night(self, rows: list[_Row]) -> SheetNight | None:
        """The rows of one night as a night, or None with its problem noted."""
        first, last = rows[0].line, rows[-1].line
        if len({_kind_of(row) for row in rows}) > 1:
            bad = next(row for row in rows if _kind_of(row) != _kind_of(rows[0]))
            self.refuse(bad.line, Kind.TWO_STAKES)
            return None
        with_points = [row for row in rows if row.points is not None]
        if with_points and len(with_points) < len(rows):
            bad = next(row for row in rows if row.points is None)
            self.refuse(bad.line, Kind.POINTS_AND_MONEY)
            return None
        stake = rows[0].stake
        people = list(dict.fromkeys(row.person for row in rows))
        names = [next(row.name for row in rows if row.person == p) for p in people]
        numbers = sorted({row.round for row in rows})
        by_round: dict[int, list[int | None]] = {number: [None] * len(people) for number in numbers}
        if with_points:
            known = [row for row in rows if row.money is not None and row.points]
            if stake is None and known:
                first_known = known[0]
                assert first_known.money is not None and first_known.points is not None
                if first_known.money % first_known.points == 0:
                    stake = first_known.money // first_known.points
            point_cents = stake if stake is not None and stake > 0 else self.point_cents
            for row in rows:
                if row.money is not None and row.money != (row.points or 0) * point_cents:
                    self.refuse(row.line, Kind.MONEY_NOT_POINTS)
                    return None
            for row in rows:
                by_round[row.round][people.index(row.person)] = row.points
        else:
            total = sum(row.money or 0 for row in rows)
            if total:
                self.problems.append(
                    Problem(
                        first,
                        Kind.NOT_ZERO_MONEY,
                        _day_text(rows[0].day),
                        total,
                        last,
                        rows[0].currency,
                    )
                )
                return None
            divides = stake is not None and all((row.money or 0) % stake == 0 for row in rows)
            point_cents = stake if divides and stake is not None else 1
            for row in rows:
                by_round[row.round][people.index(row.person)] = (row.money or 0) // point_cents
        night_points = [sum(hand[i] or 0 for hand in by_round.values()) for i in range(len(people))]
        if numbers != [0]:
            for number, hand in by_round.items():
                if sum(value or 0 for value in hand):
                    line = next(row.line for row in rows if row.round == number)
                    total = sum(value or 0 for value in hand)
                    self.problems.append(
                        Problem(line, Kind.NOT_ZERO_ROUND, _day_text(rows[0].day), total, last)
                    )
                    return None
                for row in rows:
                    if row.round == number and abs(row.points or 0) > MAX_HAND_POINTS:
                        self.refuse(row.line, Kind.HAND_TOO_BIG, number=row.points or 0)
                        return None
            rounds = [tuple(by_round[number]) for number in numbers]
        else:
            if sum(night_points):
                self.problems.append(
                    Problem(first, Kind.NOT_ZERO, _day_text(rows[0].day), sum(night_points), last)
                )
                return None
            for index, points in enumerate(night_points):
                if abs(points) > MAX_HAND_POINTS * MAX_ROUNDS_A_NIGHT:
                    line = next(row.line for row in rows if row.person == people[index])
                    self.refuse(line, Kind.NIGHT_TOO_BIG, names[index], points)
                    return None
            rounds = [tuple(hand) for hand in split_rounds(tuple(night_points))]
        claims = {(row.round, row.person): row.fantasyland for row in rows}
        fantasylands = tuple(
            tuple(claims.get((number, person), "") for person in people)
            if numbers != [0]
            else ("",) * len(people)
            for number in (numbers if numbers != [0] else [0] * len(rounds))
        )
        dealt = {row.round: row.dealer for row in rows if row.dealer}
        dealers = tuple(
            _index_of(dealt.get(number, ""), names) if numbers != [0] else None
            for number in (numbers if numbers != [0] else [0] * len(rounds))
        )
        return SheetNight(
            day=rows[0].day,
            started=rows[0].started,
            ended=rows[0].ended,
            game=rows[0].game,
            point_cents=point_cents,
            currency=rows[0].currency,
            players=tuple(names),
            rounds=tuple(rounds),
            fantasylands=fantasylands,
            dealers=dealers,
            first_line=first,
            last_line=last,
            scoring=(
                {"scoop": rows[0].scoring[0], "majority": rows[0].scoring[1]}
                if rows[0].scoring
                else None
            ),
            loss_cap_cents=rows[0].loss_cap,
        )


def _kind_of(row: _Row) -> tuple[object, ...]:
    """What every row of one night must give alike."""
    return row.stake, row.currency, row.game, row.scoring, row.loss_cap


def _index_of(name: str, names: list[str]) -> int | None:
    key = look_alike_key(name) if name else ""
    return next((i for i, other in enumerate(names) if look_alike_key(other) == key), None)


def _day_text(day: date) -> str:
    return day.isoformat()


class Unreadable(Exception):
    """The file cannot be read as CSV from ``line`` on (a :class:`Problem` says why)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.kind.value)
        self.problem = problem


def _long_line(text: str) -> int:
    """The number of the first line longer than :data:`MAX_LINE_CHARS`, or 0."""
    start = 0
    for number, end in enumerate(_line_ends(text), 1):
        if end - start > MAX_LINE_CHARS:
            return number
        start = end + 1
    return 0


def _line_ends(text: str) -> Iterator[int]:
    at = text.find("\n")
    while at != -1:
        yield at
        at = text.find("\n", at + 1)
    yield len(text)


def _records(text: str, deadline: float) -> Iterator[tuple[int, list[str]]]:
    """Each record of the CSV text with the line it starts on (a quoted cell may hold
    a line break), blank lines left out. Raises :class:`Unreadable` for what the CSV
    reader cannot read, a cell longer than a line may be, or past ``deadline``."""
    lines = io.StringIO(text, newline="")
    header = lines.readline()
    lines.seek(0)
    reader = csv.reader(lines, delimiter=delimiter(header.rstrip("\r\n")))
    start = 1
    while True:
        try:
            record = next(reader)
        except StopIteration:
            return
        except csv.Error:
            raise Unreadable(Problem(start, Kind.NOT_CSV)) from None
        if any(len(cell) > MAX_LINE_CHARS for cell in record):
            raise Unreadable(Problem(start, Kind.NOT_CSV))
        if time.monotonic() > deadline:
            raise Unreadable(Problem(0, Kind.TOO_SLOW))
        if any(cell.strip() for cell in record):
            yield start, record
        start = reader.line_num + 1


def read_sheet(
    data: bytes,
    *,
    currency: str,
    point_cents: int,
    games: Mapping[str, str],
) -> Sheet:
    """The nights of a CSV file's ``data``, checked line by line. ``currency`` and
    ``point_cents`` are the group's, for rows that give none; ``games`` maps a game's
    id and name (lower case) to its id.

    >>> sheet = read_sheet(
    ...     b"Date;Name;Points\\n7-3-2024;Anna;+5\\n7-3-2024;bram ;-5\\n14-3-2024;Bram;2\\n",
    ...     currency="EUR", point_cents=10, games={})
    >>> [(n.day.isoformat(), n.players, n.points) for n in sheet.nights]
    [('2024-03-07', ('Anna', 'bram'), (5, -5))]
    >>> [(problem.line, problem.kind.value, problem.number) for problem in sheet.problems]
    [(4, 'not_zero', 2)]
    """
    if len(data) >= MAX_BYTES:
        return Sheet(problems=(Problem(0, Kind.TOO_BIG, number=MAX_BYTES),))
    lines = count_lines([data])
    if lines >= MAX_LINES:
        return Sheet(problems=(Problem(0, Kind.TOO_MANY_LINES, number=MAX_LINES),), lines=lines)
    text = decode(data)
    if text is None:
        return Sheet(problems=(Problem(0, Kind.NOT_TEXT),), lines=lines)
    long_line = _long_line(text)
    if long_line:
        problem = Problem(long_line, Kind.LINE_TOO_LONG, number=MAX_LINE_CHARS)
        return Sheet(problems=(problem,), lines=lines)
    try:
        return _read_records(
            _records(text, time.monotonic() + READ_SECONDS),
            lines,
            currency=currency,
            point_cents=point_cents,
            games=games,
        )
    except Unreadable as unreadable:
        return Sheet(problems=(unreadable.problem,), lines=lines)


def _read_records(
    records: Iterator[tuple[int, list[str]]],
    lines: int,
    *,
    currency: str,
    point_cents: int,
    games: Mapping[str, str],
) -> Sheet:
    first = next(records, None)
    if first is None:
        return Sheet(problems=(Problem(0, Kind.EMPTY),), lines=lines)
    header_line, header = first
    columns = [column_of(cell) for cell in header]
    found = {column for column in columns if column}
    ignored = tuple(
        cell.strip() for cell, column in zip(header, columns, strict=True) if not column
    )
    missing = [column for column in NEEDED if column not in found]
    if missing:
        problem = Problem(header_line, Kind.MISSING_COLUMN, missing[0])
        return Sheet(problems=(problem,), lines=lines, ignored=ignored)
    if not found & {"points", "money"}:
        problem = Problem(header_line, Kind.NO_POINTS_COLUMN)
        return Sheet(problems=(problem,), lines=lines, ignored=ignored)

    reader = _Reader(currency=currency, point_cents=point_cents, games=games)
    nights: dict[str, list[_Row]] = {}
    spoilt: set[str] = set()
    seen: dict[tuple[str, int, str], int] = {}
    for line, record in records:
        cells = {column: cell for column, cell in zip(columns, record, strict=False) if column}
        row = reader.row(line, cells)
        if row is None:
            key = cells.get("night", "").strip() or _key_of_date(cells.get("date", ""))
            spoilt.add(key)
            continue
        place = (row.key, row.round, row.person)
        if place in seen:
            reader.refuse(line, Kind.NAME_TWICE, row.name)
            spoilt.add(row.key)
            continue
        seen[place] = line
        nights.setdefault(row.key, []).append(row)
    made = []
    for key, rows in nights.items():
        if key in spoilt:
            continue
        night = reader.night(rows)
        if night is not None:
            made.append(night)
    entries = sum(len(night.rounds) * len(night.players) for night in made)
    if entries > MAX_ENTRIES:
        reader.refuse(0, Kind.TOO_MANY_HANDS, number=MAX_ENTRIES)
    made.sort(key=lambda night: (night.day, night.started or datetime.min, night.first_line))
    problems = sorted(reader.problems, key=lambda problem: problem.line)
    return Sheet(tuple(made), tuple(problems), lines, ignored)


def _key_of_date(text: str) -> str:
    read = read_date(text)
    return read[0].isoformat() if read else ""


def to_data(nights: Iterable[SheetNight]) -> list[list[Any]]:
    """The nights as plain lists, for a signed token (:func:`from_data` reads them).

    >>> night = read_sheet(b"date,name,points\\n2024-03-07,Anna,3\\n2024-03-07,Bram,-3\\n",
    ...     currency="EUR", point_cents=10, games={}).nights[0]
    >>> from_data(to_data([night])) == [night]
    True
    """
    return [
        [
            night.day.isoformat(),
            night.started.isoformat() if night.started else "",
            night.ended.isoformat() if night.ended else "",
            night.game,
            night.point_cents,
            night.currency,
            list(night.players),
            [list(hand) for hand in night.rounds],
            [list(claims) for claims in night.fantasylands],
            list(night.dealers),
            night.first_line,
            night.last_line,
            night.scoring,
            night.loss_cap_cents,
            night.extras.to_data() if night.extras else None,
        ]
        for night in nights
    ]


def from_data(data: list[list[Any]]) -> list[SheetNight]:
    """The nights :func:`to_data` wrote."""
    return [
        SheetNight(
            day=date.fromisoformat(day),
            started=datetime.fromisoformat(started) if started else None,
            ended=datetime.fromisoformat(ended) if ended else None,
            game=game,
            point_cents=int(point_cents),
            currency=currency,
            players=tuple(players),
            rounds=tuple(tuple(hand) for hand in rounds),
            fantasylands=tuple(tuple(claims) for claims in fantasylands),
            dealers=tuple(dealers),
            first_line=first,
            last_line=last,
            scoring=dict(scoring) if scoring else None,
            loss_cap_cents=int(loss_cap) if loss_cap is not None else None,
            extras=Extras.from_data(extras) if extras else None,
        )
        for (
            day,
            started,
            ended,
            game,
            point_cents,
            currency,
            players,
            rounds,
            fantasylands,
            dealers,
            first,
            last,
            scoring,
            loss_cap,
            extras,
        ) in data
    ]


def adds_up(night: SheetNight) -> bool:
    """Whether every round of ``night`` adds up to zero with every hand in range and a
    claim for each hand: what a night read again from a token is checked for.

    >>> adds_up(SheetNight(date(2024, 3, 7), None, None, "", 10, "EUR", ("A", "B"),
    ...     ((3, -3),), (("", ""),), (None,)))
    True
    """
    size = len(night.players)
    return (
        # A night of the JSON export may have no round: it ended before one went through.
        (bool(night.rounds) or night.extras is not None)
        and (night.extras is None or night.extras.fits(size, len(night.rounds)))
        and night.point_cents > 0
        and len(night.fantasylands) == len(night.rounds) == len(night.dealers)
        and all(
            len(hand) == size
            and sum(value or 0 for value in hand) == 0
            and all(value is None or abs(value) <= MAX_HAND_POINTS for value in hand)
            for hand in night.rounds
        )
        and len({look_alike_key(name) for name in night.players}) == size
    )


def match_people(
    names: Iterable[str], members: Mapping[int, str], guests: Iterable[str] = ()
) -> dict[str, int | str]:
    """Who each name of a file is: a member's id when a member has that name (in other
    capitals, or looking just like it), else the name a guest of the group's nights
    already has that looks like it, else the name itself, as a new guest.

    >>> match_people(["ANNA", "\u0412ram", "gus", "Zoe"], {1: "Anna", 2: "Bram"}, ["Gus"])
    {'ANNA': 1, '\u0412ram': 2, 'gus': 'Gus', 'Zoe': 'Zoe'}
    """
    same = {name_key(name): pk for pk, name in members.items()}
    keyed = {look_alike_key(name): pk for pk, name in members.items()}
    known_guests = {look_alike_key(name): name for name in guests}
    found: dict[str, int | str] = {}
    for name in names:
        key = look_alike_key(name)
        member = same.get(name_key(name), keyed.get(key))
        found[name] = member if member is not None else known_guests.get(key, name)
    return found
