"""One cell of a sheet read: a header, a date, points, money, a scoring system."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime

from scorekeeper.ofc.scoring_systems import MAX_BONUS, SYSTEMS

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
