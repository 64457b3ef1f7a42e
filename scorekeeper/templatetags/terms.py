"""The engine's words in templates, in the reader's language (see scorekeeper.terms)."""

from collections.abc import Iterable

from django import template
from django.utils.translation import pgettext

from scorekeeper import terms
from scorekeeper.i18n import series

register = template.Library()

register.filter("game_name", terms.game_name)
register.filter("option_label", terms.option_label)
register.filter("row_name", terms.row_name)
register.filter("row_label", terms.row_label)
register.filter("category_name", terms.category_name)
register.filter("row_description", terms.row_description)
register.filter("foul_reason", terms.foul_reason)


@register.filter
def royalty_series(royalties: Iterable[tuple[str, int]]) -> str:
    """Hands and the royalties they pay, one after another: "7-high 10, 8-high 8"."""
    # Translators: a hand and the royalty it pays, as in "7-high 10"; one
    # of a list.
    pattern = pgettext("a hand and its royalty", "%(hand)s %(points)s")
    return series(pattern % {"hand": hand, "points": points} for hand, points in royalties)
