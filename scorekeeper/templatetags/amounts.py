"""Points and money in templates: the formatting of :mod:`scorekeeper.formatting`,
money as the active language writes it."""

from django import template

from scorekeeper import formatting, i18n

register = template.Library()

register.filter("signed", formatting.signed)
register.filter("money", i18n.money)


@register.filter
def sign_class(points: int) -> str:
    return "plus" if points > 0 else "minus" if points < 0 else ""
