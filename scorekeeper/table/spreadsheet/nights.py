"""Rows of a sheet checked one by one and gathered into nights: each night's rounds
add up to zero, every hand within the app's range (:func:`split_rounds`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime

from scorekeeper.table.amounts import read_money
from scorekeeper.table.formatting import minor_digits
from scorekeeper.table.names import clean_name, has_hidden_characters, look_alike_key
from scorekeeper.table.spreadsheet.cells import (
    NEEDED,
    column_of,
    read_date,
    read_points,
    read_scoring,
)
from scorekeeper.table.spreadsheet.limits import MAX_ENTRIES, MAX_HAND_POINTS, MAX_ROUNDS_A_NIGHT
from scorekeeper.table.spreadsheet.sheet import Kind, Problem, Sheet, SheetNight


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


def read_records(
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
