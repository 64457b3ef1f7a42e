"""Points and money in templates: the formatting of :mod:`scorekeeper.formatting`."""

from django import template

from scorekeeper import formatting

register = template.Library()

register.filter("signed", formatting.signed)
register.filter("money", formatting.money)


@register.filter
def sign_class(points: int) -> str:
    return "plus" if points > 0 else "minus" if points < 0 else ""
