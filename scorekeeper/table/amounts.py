"""An amount of money as a person writes it, read in one place: by the forms
(:class:`scorekeeper.forms.fields.MoneyField`, in the reader's language) and by the
spreadsheet import (:func:`read_money`, a file, which has no language).

After NFKC (full-width digits read as ASCII) and with every space left out (a
non-breaking or narrow one too), an amount is: a sign, a currency sign (any one
character Unicode calls a currency sign, or the currency's own sign in any of the
app's languages, or its code), another place for the sign ("€-5"), digits with
marks, and the currency sign after instead. A minus is "-", a real minus or an en
dash (what spreadsheets write).

The marks: both kinds are thousands marks between groups of three, then one decimal
mark ("1,234.50", "1.234,50"); one mark of either kind, once and not between groups
of three, is the decimal mark ("0,10", "0.10", "1234,5"). One mark between groups of
three ("1,234", "1.234.567") is where a language decides: with the reader's language
known, its thousands mark is thousands and its decimal mark is refused as ambiguous
(a thousand, or one and a bit?); a file has no language, so it is thousands, and
so are both marks in the order the file has them ("1.234,50" and "1,234.50"). Any
text a file reads, then, the form reads as the same amount in one of the app's
languages, and refuses as ambiguous in the others.
"""

import re
import unicodedata
from decimal import Decimal
from functools import cache

from scorekeeper.table.formatting import currency_signs, minor_digits

# The app's languages (settings.LANGUAGES, which a test holds this equal to): a
# currency's sign in any of them is read, whoever reads it.
LANGUAGES = ("en", "de", "nl", "zh-hans")
MINUS = "-\u2212\u2013"

# Any one character Unicode calls a currency sign: € $ £ ¥ ₹ ₩ and the rest.
CURRENCY_CHARACTER = "[{}]".format(
    "".join(chr(c) for c in range(0x10000) if unicodedata.category(chr(c)) == "Sc")
)


class NotAnAmount(ValueError):
    """Why a text is not an amount, as ``kind``: "invalid"; "ambiguous" (the reader's
    decimal mark where a thousands mark would fit); "whole" (decimals in a currency
    without a minor unit)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@cache
def amount_pattern(currency: str) -> re.Pattern[str]:
    """An amount once its spaces are out: a sign, a currency sign, digits and marks."""
    own = {sign for language in LANGUAGES for sign in currency_signs(currency, language)}
    signs = "|".join(re.escape(sign) for sign in sorted(own, key=len, reverse=True))
    sign = f"(?:{signs}|{CURRENCY_CHARACTER})"
    minus = re.escape(MINUS)
    return re.compile(
        rf"(?P<sign>[+{minus}])?{sign}?(?P<late_sign>[+{minus}])?(?P<body>[0-9.,]*){sign}?"
    )


def amount_text(typed: str, currency: str, marks: tuple[str, str] | None = None) -> str:
    """``typed`` as Python's ``Decimal`` reads it, "" when blank; :class:`NotAnAmount`
    when it is none. ``marks`` are the reader's language's (decimal, thousands); None
    for a file, which has no language.

    >>> amount_text("€ 1.234,50", "EUR", (",", ".")), amount_text("−4,3", "EUR", (".", ","))
    ('1234.50', '-4.3')
    >>> amount_text("1.234", "EUR"), amount_text("1,234.5", "BHD"), amount_text(" € ", "EUR")
    ('1234', '1234.5', '')
    """
    text = "".join(unicodedata.normalize("NFKC", typed).split())
    found = amount_pattern(currency).fullmatch(text)
    if not found or (found["sign"] and found["late_sign"]):
        raise NotAnAmount("invalid")
    sign = found["sign"] or found["late_sign"]
    minus = "-" if sign and sign in MINUS else ""
    body = found["body"]
    if not body:
        if sign:
            raise NotAnAmount("invalid")
        return ""
    used = [mark for mark in ".," if mark in body]
    if not used:
        return minus + body
    if len(used) == 2:
        # A file's decimal mark is whichever comes last.
        decimal_mark = marks[0] if marks else body[max(body.rfind("."), body.rfind(","))]
        thousands_mark = "," if decimal_mark == "." else "."
        whole, _point, decimals = body.rpartition(decimal_mark)
        if thousands_mark in decimals or not _grouped(whole, thousands_mark):
            raise NotAnAmount("ambiguous" if marks else "invalid")
        return minus + _decimal(whole.replace(thousands_mark, ""), decimals, currency)
    (mark,) = used
    if _grouped(body, mark):
        if marks is not None and mark != marks[1]:
            raise NotAnAmount("ambiguous")
        return minus + body.replace(mark, "")
    if body.count(mark) > 1:
        raise NotAnAmount("invalid")
    whole, _mark, decimals = body.partition(mark)
    return minus + _decimal(whole, decimals, currency)


def read_money(text: str, currency: str) -> int | None:
    """An amount of ``currency`` in its minor unit, as a file (a spreadsheet) writes
    it (:func:`amount_text` without a language); None when it is not one, or has more
    decimals than the currency.

    >>> read_money("12.50", "EUR"), read_money("-€ 1.234,50", "EUR"), read_money("(3,00)", "EUR")
    (1250, -123450, None)
    >>> read_money("1,234.5", "EUR"), read_money("\u22125", "EUR"), read_money("500", "JPY")
    (123450, -500, 500)
    >>> read_money("0.125", "EUR"), read_money("1,234", "EUR"), read_money("1,25", "EUR")
    (None, 123400, 125)
    """
    try:
        written = amount_text(text, currency)
    except NotAnAmount:
        return None
    if not written:
        return None
    amount = Decimal(written)
    digits = minor_digits(currency)
    if len(written.partition(".")[2]) > digits:
        return None  # more decimals than the currency has, zeros too ("1.230" euros)
    return int(amount.scaleb(digits))


def _decimal(whole: str, decimals: str, currency: str) -> str:
    if not whole and not decimals:  # a mark alone
        raise NotAnAmount("invalid")
    if minor_digits(currency) == 0:
        raise NotAnAmount("whole")
    return f"{whole}.{decimals}"


def _grouped(text: str, mark: str) -> bool:
    """Whether ``text`` is digits in thousands split by ``mark``: "1,234", "12,345,678"
    (not "1,23", "0,500" or "1234")."""
    head, *groups = text.split(mark)
    return (
        bool(groups)
        and 1 <= len(head) <= 3
        and head.isdigit()
        and not head.startswith("0")
        and all(len(group) == 3 and group.isdigit() for group in groups)
    )
