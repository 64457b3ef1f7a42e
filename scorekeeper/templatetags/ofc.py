"""Formatting of points and money: integers all the way, formatted only here."""

from django import template

register = template.Library()

MINUS = "\u2212"  # a real minus sign reads better than a hyphen in a dim room
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥", "INR": "₹"}
NO_MINOR_UNIT = {"JPY", "KRW", "ISK"}


@register.filter
def signed(points: int | None) -> str:
    """+12, −7, 0."""
    if points is None:
        return ""
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"{MINUS}{-points}"
    return "0"


@register.filter
def money(cents: int, currency: str = "EUR") -> str:
    """€4.30, −€9.10, 12.50 CHF."""
    sign = MINUS if cents < 0 else ""
    cents = abs(cents)
    if currency in NO_MINOR_UNIT:
        amount = f"{cents:,}"
    else:
        amount = f"{cents // 100:,}.{cents % 100:02d}"
    symbol = SYMBOLS.get(currency)
    return f"{sign}{symbol}{amount}" if symbol else f"{sign}{amount} {currency}"


@register.filter
def points_money(points: int, night) -> str:
    return money(points * night.point_cents, night.currency)


@register.filter
def sign_class(points: int) -> str:
    return "plus" if points > 0 else "minus" if points < 0 else ""
