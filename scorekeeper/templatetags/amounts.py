"""Points and money in templates: the formatting of :mod:`scorekeeper.table.formatting`,
money as the active language writes it."""

from collections.abc import Iterable

from django import template
from django.utils.translation import gettext

from scorekeeper import i18n
from scorekeeper.models.settlements import SeatResult
from scorekeeper.table import formatting

register = template.Library()

register.filter("signed", formatting.signed)
register.filter("money", i18n.money)


@register.filter
def sign_class(points: int) -> str:
    return "plus" if points > 0 else "minus" if points < 0 else ""


@register.filter
def capped_clauses(players: Iterable[SeatResult], currency: str) -> list[str]:
    """What the loss cap took off each capped player, a clause each, for ``|clauses``:
    "Anna pays €20.00 instead of €26.00 (€6.00 less)"."""
    return [
        gettext("%(name)s pays %(pays)s instead of %(would)s (%(less)s less)")
        % {
            "name": player.seat.name,
            "pays": i18n.money(player.pays, currency),
            "would": i18n.money(player.would_pay, currency),
            "less": i18n.money(player.forgiven, currency),
        }
        for player in players
    ]


@register.filter
def reduced_amounts(players: Iterable[SeatResult], currency: str) -> list[str]:
    """Each winner the loss cap took money off, with the amount, for ``|listed``:
    "Bram €4.00" (a name and an amount, the same in every language)."""
    return [f"{player.seat.name} {i18n.money(player.reduced, currency)}" for player in players]
