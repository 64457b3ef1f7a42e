"""The bridge between a night's stored settings and the rules engine's games."""

from dataclasses import replace
from typing import NamedTuple

from scorekeeper.ofc.games import PRESETS, Game

# The house rules a group can switch when it starts a night (ofc-rules.md).
HOUSE_RULES = (
    "fantasyland",
    "stay_full_house_middle",
    "stay_wheel_middle",
    "stay_limit",
    "hold_button",
)


class Fantasyland(NamedTuple):
    """A seat's Fantasyland for one hand: cards dealt, and stays before it in the streak."""

    cards: int
    stays: int


def game_for(game_id: str, rules: dict) -> Game:
    """The preset with the night's house rules applied."""
    changes = {name: value for name, value in rules.items() if name in HOUSE_RULES}
    return replace(PRESETS[game_id], **changes)


def fantasyland_after_claim(
    game: Game, current: Fantasyland | None, *, made: str, stayed: bool
) -> Fantasyland | None:
    """Next hand's Fantasyland from what a player says at the table (totals entry).

    `made` is an entry option id of the game, or "". A player in Fantasyland is
    judged only by the stay: the count never grows within a streak.
    """
    if not game.fantasyland:
        return None
    if current is not None:
        may_stay = game.stay_limit is None or current.stays < game.stay_limit
        if stayed and may_stay:
            return Fantasyland(game.stay_cards or current.cards, current.stays + 1)
        return None
    options = {option.id: option for option in game.entry_options}
    if made in options:
        return Fantasyland(options[made].cards, 0)
    return None
