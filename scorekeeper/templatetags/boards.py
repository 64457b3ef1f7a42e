"""Cards in templates: faces for the picker and results, and a round's count."""

from collections.abc import Iterable

from django import template

from scorekeeper.board_forms import Face, face
from scorekeeper.models import Night, Round
from scorekeeper.ofc import Card, OFCError, TableResult
from scorekeeper.services.boards import round_table

register = template.Library()


@register.filter
def cards_text(cards: Iterable[Card]) -> list[str]:
    """The canonical text of each card: ``(Card('Th'), Card('JK'))`` -> ``['Th', 'JK']``."""
    return [str(card) for card in cards]


@register.filter
def card_face(code: str) -> Face:
    return face(code)


@register.simple_tag
def counted(night: Night, round_: Round) -> TableResult | None:
    """The engine's count of a round in which every seat set its cards, else None."""
    try:
        return round_table(night, round_)
    except OFCError:
        return None  # boards fixed by hand into an impossible table: show the totals only
