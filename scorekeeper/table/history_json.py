"""The app's own JSON export of a group or a night (:mod:`scorekeeper.reads.exports`),
read back as nights to import, with what only it carries (:mod:`.night_extras`).

A file is taken for JSON when its first character is ``{`` (:func:`is_json`): no CSV
of nights starts so. Every value is checked for the type and range the export writes
(a number where a number goes, a known game, cards as the card page writes them,
rounds that add up to zero), so a file edited by hand or made to hurt is refused
with where in it the first thing is wrong, and nothing of it is imported. Like
:mod:`.spreadsheet`, nothing here writes or speaks a language: what is wrong comes
back as a :class:`~.spreadsheet.sheet.Problem` which the page puts into words.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from scorekeeper.ofc import (
    HOUSE_RULES,
    PRESETS,
    ROWS,
    TABLE_RULES,
    Game,
    OFCError,
    RuleError,
    parse_cards,
)
from scorekeeper.table.formatting import minor_digits
from scorekeeper.table.names import clean_name, has_hidden_characters, look_alike_key
from scorekeeper.table.night_extras import Board, Extras, SeatPlace
from scorekeeper.table.spreadsheet.limits import (
    MAX_BYTES,
    MAX_ENTRIES,
    MAX_HAND_POINTS,
    READ_SECONDS,
)
from scorekeeper.table.spreadsheet.sheet import Kind, Problem, Sheet, SheetNight

EXPORT_FORMAT = "ofcboard"
EXPORT_VERSIONS = (1,)
# Above any stake, loss cap or round number, and within the columns that keep them.
MOST = 1_000_000_000
MOST_SEATS = 50


def is_json(data: bytes) -> bool:
    """Whether ``data`` is to be read as JSON: its first character (past a byte order
    mark and blanks) is ``{``.

    >>> is_json(b'\\xef\\xbb\\xbf {"format": "ofcboard"}'), is_json(b"date,name,points")
    (True, False)
    """
    return data.removeprefix(b"\xef\xbb\xbf").lstrip()[:1] == b"{"


class _Wrong(Exception):
    """The file is not the export at ``where``."""

    def __init__(self, where: str, kind: Kind = Kind.NOT_EXPORT, text: str = "", number: int = 0):
        super().__init__(where)
        self.problem = Problem(0, kind, text or where, number)


def read_history(data: bytes, *, games: set[str] | None = None) -> Sheet:
    """The nights of an export's ``data``, oldest first; or no nights and the first
    thing wrong. ``games`` are the game ids a night may play (every preset's)."""
    if len(data) >= MAX_BYTES:
        return Sheet(problems=(Problem(0, Kind.TOO_BIG, number=MAX_BYTES),))
    deadline = time.monotonic() + READ_SECONDS
    try:
        document = json.loads(
            data.decode("utf-8-sig"),
            parse_constant=_no_constant,
            object_pairs_hook=_objects_until(deadline),
        )
    except (ValueError, RecursionError, UnicodeDecodeError):
        # ValueError: not JSON, NaN, or a number of more digits than Python reads.
        return Sheet(problems=(Problem(0, Kind.NOT_JSON),))
    except _Wrong as wrong:
        return Sheet(problems=(wrong.problem,))
    try:
        nights = _nights(document, games or set(PRESETS), deadline)
    except _Wrong as wrong:
        return Sheet(problems=(wrong.problem,))
    nights.sort(
        key=lambda night: (night.started.timestamp() if night.started else 0, night.first_line)
    )
    return Sheet(nights=tuple(nights))


def _objects_until(deadline: float) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    """Each object of the file as a dict, made in Python: the C parser hands the
    interpreter to the other threads (the phones' saves) between two objects, where
    it would otherwise hold it for the whole file, and reading stops past ``deadline``."""

    def made(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        if time.monotonic() > deadline:
            raise _Wrong("", Kind.TOO_SLOW)
        return dict(pairs)

    return made


def _no_constant(name: str) -> None:
    raise ValueError(name)


def _nights(document: object, games: set[str], deadline: float) -> list[SheetNight]:
    head = _dict(document, "")
    if head.get("format") != EXPORT_FORMAT or head.get("version") not in EXPORT_VERSIONS:
        raise _Wrong("format")
    made = []
    hands = 0
    for index, night in enumerate(_list(head.get("nights"), "nights")):
        if time.monotonic() > deadline:
            raise _Wrong("", Kind.TOO_SLOW)
        made.append(_night(night, f"nights[{index}]", games, index))
        hands += sum(1 for hand in made[-1].rounds for value in hand if value is not None)
        if hands > MAX_ENTRIES:
            raise _Wrong("", Kind.TOO_MANY_HANDS, number=MAX_ENTRIES)
    return made


def _night(raw: object, at: str, games: set[str], index: int) -> SheetNight:
    night = _dict(raw, at)
    started = _moment(night.get("started_at"), f"{at}.started_at")
    ended = None if night.get("ended_at") is None else _moment(night["ended_at"], f"{at}.ended_at")
    game = night.get("game")
    if game not in games:
        raise _Wrong(f"{at}.game")
    rules = _dict(night.get("rules"), f"{at}.rules")
    played = _played(game, rules, f"{at}.rules")
    currency = _text(night.get("currency"), f"{at}.currency", 3)
    try:
        minor_digits(currency)
    except Exception:  # Babel knows no such currency
        raise _Wrong(f"{at}.currency") from None
    cap = night.get("loss_cap_cents")
    seats = _list(night.get("seats"), f"{at}.seats")
    if not seats or len(seats) > MOST_SEATS:
        raise _Wrong(f"{at}.seats")
    names, places = _seats(seats, f"{at}.seats")
    rounds = _list(night.get("rounds"), f"{at}.rounds")
    claims_of = {option.id for option in played.entry_options}
    read = [
        _round(raw_round, f"{at}.rounds[{number - 1}]", number, names, places, claims_of)
        for number, raw_round in enumerate(rounds, 1)
    ]
    for number, (hand, *_rest) in enumerate(read, 1):
        total = sum(value or 0 for value in hand)
        if total:
            day = started.date().isoformat()
            raise _Wrong(f"{at}.rounds[{number - 1}]", Kind.EXPORT_NOT_ZERO, day, total)
    return SheetNight(
        day=started.date(),
        started=started,
        ended=ended,
        game=game,
        point_cents=_number(night.get("point_cents"), f"{at}.point_cents", 1, MOST),
        currency=currency,
        players=tuple(names),
        rounds=tuple(hand for hand, *_rest in read),
        fantasylands=tuple(claims for _hand, claims, *_rest in read),
        dealers=tuple(dealer for _hand, _claims, dealer, *_rest in read),
        first_line=index,
        last_line=index,
        scoring=None,
        loss_cap_cents=None if cap is None else _number(cap, f"{at}.loss_cap_cents", 0, MOST),
        extras=Extras(
            rules=rules,
            seats=tuple(places),
            recorded=tuple(recorded for *_rest, recorded, _boards, _stays in read),
            boards=tuple(boards for *_rest, _recorded, boards, _stays in read),
            stays=tuple(stays for *_rest, stays in read),
        ),
    )


def _played(game: str, rules: dict[str, Any], at: str) -> Game:
    """``game`` with the house ``rules``, each a house rule of its kind (as the services
    check a night's rules: scorekeeper.services.groups.checked_house_rules)."""
    try:
        for name, value in rules.items():
            if name in TABLE_RULES:
                TABLE_RULES[name](value)
            elif name not in HOUSE_RULES or not HOUSE_RULES[name].accepts(value):
                raise ValueError(name)
        return PRESETS[game].with_house_rules(rules)
    except (OFCError, RuleError, KeyError, TypeError, ValueError, AttributeError):
        raise _Wrong(at) from None


def _seats(seats: list[Any], at: str) -> tuple[list[str], list[SeatPlace]]:
    names: list[str] = []
    places: list[SeatPlace] = []
    for index, raw in enumerate(seats):
        seat = _dict(raw, f"{at}[{index}]")
        name = _name(seat.get("name"), f"{at}[{index}].name")
        if look_alike_key(name) in {look_alike_key(other) for other in names}:
            raise _Wrong(f"{at}[{index}].name")
        first = _number(seat.get("first_round"), f"{at}[{index}].first_round", 1, MOST)
        last = seat.get("last_round")
        if last is not None:
            last = _number(last, f"{at}[{index}].last_round", 0, MOST)
        position = _number(seat.get("position"), f"{at}[{index}].position", 1, 32767)
        if position in {place.position for place in places}:
            raise _Wrong(f"{at}[{index}].position")
        names.append(name)
        places.append(SeatPlace(position, first, last))
    return names, places


def _round(
    raw: object,
    at: str,
    number: int,
    names: list[str],
    places: list[SeatPlace],
    claims_of: set[str],
) -> tuple[
    tuple[int | None, ...],
    tuple[str, ...],
    int,
    datetime,
    tuple[Board | None, ...],
    tuple[bool, ...],
]:
    """A recorded round: each player's points (None: not dealt in), claims, the dealer,
    when it went through, each player's cards and stay."""
    round_ = _dict(raw, at)
    if round_.get("number") != number:  # the export's rounds are 1, 2, 3 ... in order
        raise _Wrong(f"{at}.number")
    dealer = _seat_of(round_.get("dealer"), f"{at}.dealer", names)
    recorded = _moment(round_.get("recorded_at"), f"{at}.recorded_at")
    points: list[int | None] = [None] * len(names)
    claims = [""] * len(names)
    boards: list[Board | None] = [None] * len(names)
    stays = [False] * len(names)
    for index, raw_entry in enumerate(_list(round_.get("entries"), f"{at}.entries")):
        where = f"{at}.entries[{index}]"
        entry = _dict(raw_entry, where)
        seat = _seat_of(entry.get("seat"), f"{where}.seat", names)
        place = places[seat]
        if points[seat] is not None or not (
            place.first_round <= number and (place.last_round is None or number <= place.last_round)
        ):
            raise _Wrong(f"{where}.seat")
        points[seat] = _number(entry.get("points"), f"{where}.points", -MAX_HAND_POINTS)
        claims[seat] = _text(entry.get("fantasyland_made"), f"{where}.fantasyland_made", 20)
        if claims[seat] and claims[seat] not in claims_of:
            raise _Wrong(f"{where}.fantasyland_made")
        stayed = entry.get("fantasyland_stayed")
        if type(stayed) is not bool:
            raise _Wrong(f"{where}.fantasyland_stayed")
        stays[seat] = stayed
        if entry.get("board") is not None:
            boards[seat] = _board(entry["board"], f"{where}.board")
    return tuple(points), tuple(claims), dealer, recorded, tuple(boards), tuple(stays)


def _board(raw: object, at: str) -> Board:
    """Cards as the card page keeps them: three rows of canonical card text."""
    board = _dict(raw, at)
    try:
        read = {
            row.value: [str(card) for card in parse_cards(_list(board.get(row.value), at))]
            for row in ROWS
        }
    except (OFCError, TypeError, ValueError, AttributeError):
        raise _Wrong(at) from None
    if read != board:
        raise _Wrong(at)
    return read


# --- values of a kind ------------------------------------------------------------------


def _dict(value: object, at: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Wrong(at or "(the file)")
    return value


def _list(value: object, at: str) -> list[Any]:
    if not isinstance(value, list):
        raise _Wrong(at)
    return value


def _text(value: object, at: str, longest: int) -> str:
    if not isinstance(value, str) or len(value) > longest:
        raise _Wrong(at)
    return value


def _number(value: object, at: str, least: int, most: int = MAX_HAND_POINTS) -> int:
    # bool is an int to Python; true is not a number of the export.
    if type(value) is not int or not least <= value <= most:
        raise _Wrong(at)
    return value


def _name(value: object, at: str) -> str:
    text = _text(value, at, 100)
    try:
        if has_hidden_characters(text) or clean_name(text) != text:
            raise ValueError(text)
    except ValueError:
        raise _Wrong(at) from None
    return text


def _seat_of(value: object, at: str, names: list[str]) -> int:
    if value not in names:
        raise _Wrong(at)
    return names.index(str(value))


def _moment(value: object, at: str) -> datetime:
    try:
        moment = datetime.fromisoformat(_text(value, at, 40))
    except ValueError:
        raise _Wrong(at) from None
    if moment.tzinfo is None or not date(2000, 1, 1) <= moment.date() <= date(2200, 1, 1):
        raise _Wrong(at)
    return moment
