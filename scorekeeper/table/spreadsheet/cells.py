"""One cell of a sheet read: a header, a date, points, money, a scoring system."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

from scorekeeper.ofc.scoring_systems import MAX_BONUS, SYSTEMS
from scorekeeper.table.formatting import currency_signs, minor_digits

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


_MINUS = "-\u2212\u2013"


def read_points(text: str) -> int | None:
    """Whole points, with a sign if any; None when ``text`` is not that.

    >>> read_points("+12"), read_points("\u22127"), read_points(" 0 "), read_points("1.5")
    (12, -7, 0, None)
    """
    text = text.strip().replace("\u2212", "-").replace("\u2013", "-")
    if not re.fullmatch(r"[-+]?\d{1,9}", text):
        return None
    return int(text)


def read_money(text: str, currency: str) -> int | None:
    """An amount of ``currency`` in its minor unit, as a spreadsheet writes it: with or
    without its sign or code, a decimal point or comma, thousands apart with the other
    one; None when it is not that, or has more decimals than the currency.

    >>> read_money("12.50", "EUR"), read_money("-€ 1.234,50", "EUR"), read_money("(3,00)", "EUR")
    (1250, -123450, None)
    >>> read_money("1,234.5", "EUR"), read_money("\u22125", "EUR"), read_money("500", "JPY")
    (123450, -500, 500)
    >>> read_money("0.125", "EUR"), read_money("1,234", "EUR"), read_money("1,25", "EUR")
    (None, 123400, 125)
    """
    text = text.strip()
    negative = text[:1] in _MINUS
    text = text[1:].strip() if negative else text
    for sign in currency_signs(currency):
        text = text.removeprefix(sign).removesuffix(sign).strip()
    if text[:1] in _MINUS and not negative:
        negative, text = True, text[1:].strip()
    digits = minor_digits(currency)
    if not re.fullmatch(r"\d[\d.,]*", text) or text[-1] in ".,":
        return None
    marks = [ch for ch in text if ch in ".,"]
    whole, decimals = text, ""
    if marks:
        last = text.rfind(marks[-1])
        # One mark, once, followed by exactly three digits, in a currency with fewer
        # decimals than that: thousands ("1,234" is 1234 euros, not 1.234).
        thousands_only = (
            len(set(marks)) == 1
            and (len(marks) > 1 or (len(text) - last - 1 == 3 and digits < 3))
            and not text.startswith("0")
        )
        if thousands_only:
            whole = text
        else:
            whole, decimals = text[:last], text[last + 1 :]
        separator = set(ch for ch in whole if ch in ".,")
        if len(separator) > 1 or (decimals and marks[-1] in separator):
            return None
        if separator and not re.fullmatch(r"\d{1,3}([.,]\d{3})*", whole):
            return None
        whole = whole.replace(".", "").replace(",", "")
    if len(decimals) > digits:
        return None
    try:
        amount = Decimal(whole + ("." + decimals if decimals else ""))
    except InvalidOperation:
        return None
    minor = int(amount.scaleb(digits))
    return -minor if negative else minor


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
