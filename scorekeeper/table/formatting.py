"""Points and money as text: integers all the way, formatted only here.

Numbers and money are written from CLDR's data through Babel, so every language
writes them its own way ("€ 0,50" in Dutch, "0,50 €" in German) with no code of
ours. Pure Python, no Django: the chart uses it as it is, templates through the
``ofc`` filters.
"""

import re
from decimal import Decimal
from functools import lru_cache

from babel import Locale, UnknownLocaleError
from babel.lists import format_list
from babel.numbers import (
    format_currency,
    get_currency_precision,
    get_currency_symbol,
    parse_pattern,
)

MINUS = "\u2212"  # a real minus sign reads better than a hyphen in a dim room
NBSP = "\u00a0"
# CLDR's currency spacing, which Babel leaves out: a sign made of letters ("CHF")
# is kept apart from the digits it touches, "CHF 12.50", never "CHF12.50".
LETTERS_THEN_DIGIT = re.compile(r"([^\W\d_])(?=[\d\-\u2212])")
DIGIT_THEN_LETTERS = re.compile(r"(\d)(?=[^\W\d_])")


@lru_cache(maxsize=64)
def locale_of(language: str) -> Locale:
    """Babel's locale for a Django language code ("zh-hans" is zh_Hans); English for
    a language CLDR does not know."""
    try:
        return Locale.parse(language.replace("-", "_"))
    except (ValueError, UnknownLocaleError):
        return Locale.parse("en")


def minor_digits(currency: str) -> int:
    """How many digits the currency's minor unit has (ISO 4217, from CLDR): 2 for
    euros (cents), 0 for yen, 3 for Bahraini dinars. Amounts are stored in that unit.

    >>> minor_digits("EUR"), minor_digits("JPY"), minor_digits("BHD")
    (2, 0, 3)
    """
    return int(get_currency_precision(currency))


def as_major(minor: int, currency: str) -> Decimal:
    """An amount in minor units as a count of the main unit: 430 cents is 4.30.

    >>> as_major(430, "EUR"), as_major(500, "JPY")
    (Decimal('4.30'), Decimal('500'))
    """
    return Decimal(minor).scaleb(-minor_digits(currency))


def signed(points: int | None) -> str:
    """A total with its sign; nothing for no total.

    >>> signed(12), signed(-7), signed(0), signed(None)
    ('+12', '−7', '0', '')
    """
    if points is None:
        return ""
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"{MINUS}{-points}"
    return "0"


def money(cents: int, currency: str = "EUR", language: str = "en") -> str:
    """An amount in the currency's minor unit, written as ``language`` writes amounts
    of that currency (CLDR), with a real minus sign and a non-breaking space:

    >>> money(430), money(-910), money(1250, "CHF"), money(500, "JPY")
    ('€4.30', '−€9.10', 'CHF\\xa012.50', '¥500')
    >>> money(50, language="nl"), money(-123450, language="nl"), money(1250, "CHF", "nl")
    ('€\\xa00,50', '€\\xa0−1.234,50', 'CHF\\xa012,50')
    >>> money(-123450, language="de"), money(500, "JPY", "zh-hans")
    ('−1.234,50\\xa0€', 'JP¥500')
    """
    text = format_currency(
        as_major(cents, currency), currency, locale=locale_of(language), currency_digits=True
    )
    text = text.replace("-", MINUS)
    text = LETTERS_THEN_DIGIT.sub(rf"\1{NBSP}", text)
    return DIGIT_THEN_LETTERS.sub(rf"\1{NBSP}", text)


def decimal(value: "int | Decimal", places: int, language: str = "en") -> str:
    """A number with exactly ``places`` decimals, grouped and marked as ``language``
    writes numbers, without a sign (callers add the real minus).

    >>> decimal(Decimal("1234.5"), 2), decimal(Decimal("1234.5"), 2, "nl"), decimal(3, 1, "de")
    ('1,234.50', '1.234,50', '3,0')
    """
    locale = locale_of(language)
    standard = locale.decimal_formats[None].pattern.split(";")[0]
    whole = standard.split(".")[0]
    pattern = parse_pattern(whole + ("." + "0" * places if places else ""))
    return str(pattern.apply(abs(Decimal(value)), locale))


def marks(language: str = "en") -> tuple[str, str]:
    """The language's decimal mark and thousands mark (CLDR): (".", ",") in English,
    (",", ".") in Dutch and German.

    >>> marks(), marks("nl"), marks("zh-hans")
    (('.', ','), (',', '.'), ('.', ','))
    """
    symbols = locale_of(language).number_symbols["latn"]
    return symbols["decimal"], symbols["group"]


def currency_signs(currency: str, language: str = "en") -> tuple[str, ...]:
    """The ways an amount of ``currency`` may be marked by someone reading
    ``language``: its sign there, its sign in English and its code, longest first.

    >>> currency_signs("JPY", "nl"), currency_signs("EUR")
    (('JPY', 'JP¥', '¥'), ('EUR', '€'))
    """
    signs = {
        get_currency_symbol(currency, locale_of(language)),
        get_currency_symbol(currency, "en"),
        currency,
    }
    return tuple(sorted(signs, key=lambda sign: (-len(sign), sign)))


def names(items: "list[str]", language: str = "en") -> str:
    """Names listed as ``language`` lists them (CLDR): "Anna, Bram, and Chris",
    "Anna、Bram和Chris"; one name alone, nothing for none.

    >>> names(["Anna", "Bram", "Chris"]), names(["Anna", "Bram"], "zh-hans"), names([])
    ('Anna, Bram, and Chris', 'Anna和Bram', '')
    """
    return format_list(list(items), style="standard", locale=locale_of(language))


def list_gap(index: int, count: int, language: str = "en") -> str:
    """What ``language`` writes between item ``index`` and the next one in a list of
    ``count`` names (CLDR's "and" list), for lists whose items carry markup: the last
    item gets nothing.

    >>> [list_gap(i, 3) for i in range(3)], list_gap(0, 2, "zh-hans"), list_gap(0, 3, "zh-hans")
    ([', ', ', and ', ''], '和', '、')
    """
    if index >= count - 1:
        return ""
    marks = [f"\x00{i}\x00" for i in range(count)]
    written = names(marks, language)
    start = written.index(marks[index]) + len(marks[index])
    return written[start : written.index(marks[index + 1])]
