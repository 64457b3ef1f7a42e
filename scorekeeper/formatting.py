"""Points and money as text: integers all the way, formatted only here.

Pure Python, no Django: the chart uses it as it is, templates through the
``ofc`` filters.
"""

MINUS = "\u2212"  # a real minus sign reads better than a hyphen in a dim room
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥", "INR": "₹"}
NO_MINOR_UNIT = {"JPY", "KRW", "ISK"}
# How a language writes an amount, where it differs from English's "€1,234.50":
# (decimal mark, thousands mark, space after a currency sign).
MONEY_STYLES = {"nl": (",", ".", " ")}


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
    """Cents in the currency's own way, written as ``language`` writes amounts.

    >>> money(430), money(-910), money(1250, "CHF"), money(500, "JPY")
    ('€4.30', '−€9.10', '12.50 CHF', '¥500')
    >>> money(50, language="nl"), money(-123450, language="nl"), money(1250, "CHF", "nl")
    ('€ 0,50', '−€ 1.234,50', '12,50 CHF')
    """
    decimal, thousands, gap = MONEY_STYLES.get(language.split("-")[0], (".", ",", ""))
    sign = MINUS if cents < 0 else ""
    cents = abs(cents)
    if currency in NO_MINOR_UNIT:
        amount = f"{cents:,}"
    else:
        amount = f"{cents // 100:,}.{cents % 100:02d}"
    amount = amount.translate({ord(","): thousands, ord("."): decimal})
    symbol = SYMBOLS.get(currency)
    return f"{sign}{symbol}{gap}{amount}" if symbol else f"{sign}{amount} {currency}"
