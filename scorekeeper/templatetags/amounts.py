"""Points and money in templates: the formatting of :mod:`scorekeeper.table.formatting`,
money as the active language writes it."""

from django import template

from scorekeeper import i18n
from scorekeeper.table import formatting

register = template.Library()

register.filter("signed", formatting.signed)
register.filter("money", i18n.money)


@register.filter
def sign_class(points: int) -> str:
    return "plus" if points > 0 else "minus" if points < 0 else ""
