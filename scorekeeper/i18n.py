"""Points, money and counts in the reader's language: the app's side of
:mod:`scorekeeper.formatting`, which stays pure Python."""

from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import get_language, ngettext

from scorekeeper import formatting


def money(cents: int, currency: str = "EUR") -> str:
    """``formatting.money`` as the active language writes amounts: "€ 0,50" in Dutch."""
    return formatting.money(cents, currency, get_language() or "en")


def decimal(value: "float | Decimal", places: int) -> str:
    """A number with a fixed count of decimals and the language's decimal mark."""
    return number_format(value, places)


def difference(total: int) -> str:
    """How far a round's totals are from zero: "3 points too many"."""
    count = abs(total)
    if total > 0:
        text = ngettext("%(count)d point too many", "%(count)d points too many", count)
    else:
        text = ngettext("%(count)d point too few", "%(count)d points too few", count)
    return text % {"count": count}
