"""``{% if seat_fantasyland|may_stay:game %}``: whether a player in Fantasyland may
stay for one more hand, as the engine says (:func:`scorekeeper.ofc.may_stay`)."""

from django import template

from scorekeeper.ofc import FantasylandState, Game, may_stay

register = template.Library()


@register.filter("may_stay")
def may_stay_in(current: FantasylandState, game: Game) -> bool:
    return may_stay(game, current)
