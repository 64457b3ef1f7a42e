"""Points, money, counts and lists in the reader's language: the app's side of
:mod:`scorekeeper.table.formatting` (CLDR through Babel), which stays pure Python."""

from collections.abc import Iterable
from decimal import Decimal

from django.utils.translation import get_language, ngettext, pgettext

from scorekeeper.table import formatting


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


def listed(items: Iterable[str]) -> str:
    """Names as the language lists them: "Anna, Bram, and Chris", "Anna、Bram和Chris"."""
    return formatting.names([str(item) for item in items], language())


def list_gap(index: int, count: int) -> str:
    """What the language writes after item ``index`` of ``count`` names listed with
    "and" (``formatting.list_gap``), for lists whose names carry markup."""
    return formatting.list_gap(index, count, language())


def series(items: Iterable[str]) -> str:
    """Items one after another without "and", with the language's list comma: the
    options of a game, a round's changes ("Anna +3, Bram −3"; "、" in Chinese)."""
    comma = pgettext("between the items of a list without and", ", ")
    return comma.join(str(item) for item in items)


def clauses(items: Iterable[str]) -> str:
    """Clauses of one sentence, one after another: the reasons of a foul ("; " in
    English, "；" in Chinese)."""
    semicolon = pgettext("between the clauses of one sentence", "; ")
    return semicolon.join(str(item) for item in items)


def sentence(clauses: str) -> str:
    """Clauses made one sentence with the language's full stop: "Anna pays €20.00
    instead of €26.00 (€6.00 less); Bram …." ("…。" in Chinese)."""
    # Translators: one whole sentence made of the clauses in it: end it
    # with your language's full stop.
    return pgettext("one sentence made of clauses", "%(clauses)s.") % {"clauses": clauses}


def sentences(items: Iterable[str]) -> str:
    """Whole sentences one after another in one paragraph: "Saved. Check it." (Chinese
    leaves no space after "。")."""
    items = [str(item) for item in items]
    text = items[0] if items else ""
    for item in items[1:]:
        # Translators: two whole sentences of one paragraph, one after the
        # other: write them as your language does (Chinese leaves no space
        # after 。).
        pattern = pgettext("two sentences of one paragraph", "%(first)s %(second)s")
        text = pattern % {"first": text, "second": item}
    return text


def difference(total: int) -> str:
    """How far a round's totals are from zero: "3 points too many"."""
    count = abs(total)
    if total > 0:
        text = ngettext("%(count)d point too many", "%(count)d points too many", count)
    else:
        text = ngettext("%(count)d point too few", "%(count)d points too few", count)
    return text % {"count": count}
