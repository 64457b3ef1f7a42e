"""Cards in templates: faces for the picker and results, and a round's count."""

from collections.abc import Iterable

from django import template

from scorekeeper.forms.boards import Face, face
from scorekeeper.models import Night, Round
from scorekeeper.ofc import Card, OFCError, PlayerResult, RowResult, TableResult
from scorekeeper.reads.boards import round_table

register = template.Library()


@register.filter
def cards_text(cards: Iterable[Card]) -> list[str]:
    """The canonical text of each card: ``(Card('Th'), Card('JK'))`` -> ``['Th', 'JK']``."""
    return [str(card) for card in cards]


@register.filter
def row_faces(row: RowResult) -> list[Face]:
    """A scored row's cards as played, each card a joker became marked ``wild``."""
    wild = row.from_joker or (False,) * len(row.cards)
    return [face(str(card), wild=joker) for card, joker in zip(row.cards, wild, strict=True)]


@register.filter
def joker_faces(player: PlayerResult) -> list[Face]:
    """The cards a player's jokers became, marked ``wild``."""
    return [face(str(card), wild=True) for row in player.rows for card in row.jokers]


@register.simple_tag
def counted(night: Night, round_: Round) -> TableResult | None:
    """The engine's count of a round in which every seat set its cards, else None."""
    try:
        return round_table(night, round_)
    except OFCError:
        return None  # boards fixed by hand into an impossible table: show the totals only
