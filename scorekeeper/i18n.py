"""Points, money, counts and lists in the reader's language: the app's side of
:mod:`scorekeeper.formatting` (CLDR through Babel), which stays pure Python."""

from collections.abc import Iterable
from decimal import Decimal

from django.utils.translation import get_language, ngettext

from scorekeeper import formatting


def language() -> str:
    return get_language() or "en"


def money(cents: int, currency: str = "EUR") -> str:
    """``formatting.money`` as the active language writes amounts: "€ 0,50" in Dutch."""
    return formatting.money(cents, currency, language())


def decimal(value: "int | Decimal", places: int) -> str:
    """A number with a fixed count of decimals and the language's marks, unsigned."""
    return formatting.decimal(value, places, language())


def money_input(cents: int, currency: str) -> str:
    """An amount as a money field shows it to be typed over: the currency's own digits
    and the language's marks, no sign or grouping ("0,10" in Dutch, "500" for yen)."""
    digits = formatting.minor_digits(currency)
    amount = formatting.as_major(cents, currency)
    decimal_mark, _thousands = formatting.marks(language())
    whole, _point, fraction = f"{abs(amount):.{digits}f}".partition(".")
    sign = "-" if amount < 0 else ""
    return sign + whole + (decimal_mark + fraction if fraction else "")


def names(items: Iterable[str]) -> str:
    """Names as the language lists them: "Anna, Bram, and Chris", "Anna、Bram和Chris"."""
    return formatting.names([str(item) for item in items], language())


def difference(total: int) -> str:
    """How far a round's totals are from zero: "3 points too many"."""
    count = abs(total)
    if total > 0:
        text = ngettext("%(count)d point too many", "%(count)d points too many", count)
    else:
        text = ngettext("%(count)d point too few", "%(count)d points too few", count)
    return text % {"count": count}
