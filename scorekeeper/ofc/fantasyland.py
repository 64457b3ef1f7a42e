"""Fantasyland: who plays the next hand in it, and with how many cards.

A player not in Fantasyland gets in with one of the game's entry options; a
player in it stays by meeting a stay condition, up to the game's stay limit.
What counts is the game's data (:class:`~scorekeeper.ofc.games.Game`). The
engine works it out from a scored board (``PlayerResult.fantasyland``);
:func:`next_fantasyland` does the same from what a player claims at the table.

>>> from scorekeeper.ofc.games import PRESETS
>>> from scorekeeper.ofc.cards import parse_cards
>>> from scorekeeper.ofc.evaluate import hand_key
>>> rows = ("Ks Kh 2d", "9c 9d 9s 4h 5c", "As Ad Ah 6c 6d")
>>> keys = tuple(hand_key(parse_cards(row)) for row in rows)
>>> earned_fantasyland(PRESETS["progressive"], None, keys)
FantasylandState(cards=15, stays=0)
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import OFCError
from .evaluate import Category, pack_key
from .games import ANY_TRIPS, EntryOption, Game

__all__ = [
    "FantasylandState",
    "best_entry",
    "earned_fantasyland",
    "may_stay",
    "next_fantasyland",
]

WHEEL = pack_key(Category.HIGH_CARD, [7, 5, 4, 3, 2])  # the best 2-7 low
FULL_HOUSE = pack_key(Category.FULL_HOUSE, [])
QUADS = pack_key(Category.QUADS, [])


@dataclass(frozen=True)
class FantasylandState:
    """A Fantasyland hand: dealt ``cards`` cards, after ``stays`` stays in this streak."""

    cards: int
    stays: int = 0


def may_stay(game: Game, current: FantasylandState) -> bool:
    """Whether a player in Fantasyland (``current``) may stay for one more hand: the
    game's stay limit counts the stays in a row (None: no limit).

    >>> from scorekeeper.ofc.games import PRESETS
    >>> ultimate = PRESETS["ultimate"]  # three stays: four Fantasyland hands at most
    >>> may_stay(ultimate, FantasylandState(16, 2)), may_stay(ultimate, FantasylandState(16, 3))
    (True, False)
    >>> no_limit = PRESETS["pineapple"].with_house_rules({"stay_limit": None})
    >>> may_stay(no_limit, FantasylandState(14, 9))
    True
    """
    return game.stay_limit is None or current.stays < game.stay_limit


def best_entry(game: Game, keys: tuple[int, int, int]) -> EntryOption | None:
    """Of the game's entry options a board with these row keys (top, middle,
    bottom) meets, the one that deals the most cards; None when it meets none.
    Whether the board fouled is the caller's question.

    >>> from scorekeeper.ofc.games import PRESETS, top_at_least
    >>> queens = top_at_least(Category.PAIR, 12)
    >>> best_entry(PRESETS["pineapple"], (queens, QUADS, QUADS)).id
    'qq+'
    """
    earned = [option for option in game.entry_options if _qualifies(option, keys)]
    return max(earned, key=lambda option: option.cards, default=None)


def earned_fantasyland(
    game: Game, current: FantasylandState | None, keys: tuple[int, int, int]
) -> FantasylandState | None:
    """Next hand's Fantasyland for a board that did not foul, from its row keys
    (top, middle, bottom) and ``current``, the Fantasyland it was played in.

    In Fantasyland only the stay conditions count: QQ on top does not keep you.
    See the module docstring for an example.
    """
    if not game.fantasyland:
        return None
    if current is not None:
        return _stay(game, current) if _stays(game, keys) else None
    option = best_entry(game, keys)
    return FantasylandState(option.cards, 0) if option is not None else None


def next_fantasyland(
    game: Game,
    current: FantasylandState | None,
    *,
    entry: EntryOption | str | None = None,
    stayed: bool = False,
) -> FantasylandState | None:
    """Next hand's Fantasyland from what a player claims (manual entry).

    ``entry`` is one of ``game.entry_options`` (or its id) when a player not in
    Fantasyland made it; ``stayed`` says a player in Fantasyland met a stay
    condition. Neither means no Fantasyland next hand.

    >>> from scorekeeper.ofc.games import PRESETS
    >>> next_fantasyland(PRESETS["progressive"], None, entry="kk")
    FantasylandState(cards=15, stays=0)
    >>> ultimate = PRESETS["ultimate"]
    >>> next_fantasyland(ultimate, FantasylandState(16, 2), stayed=True)
    FantasylandState(cards=16, stays=3)
    >>> next_fantasyland(ultimate, FantasylandState(16, 3), stayed=True) is None
    True
    """
    if not game.fantasyland:
        return None
    if current is not None:
        return _stay(game, current) if stayed else None
    if entry is None:
        return None
    if isinstance(entry, str):
        options = {option.id: option for option in game.entry_options}
        if entry not in options:
            raise OFCError(f'"{entry}" is not a way into Fantasyland in {game.id}')
        entry = options[entry]
    return FantasylandState(entry.cards, 0)


def _qualifies(option: EntryOption, keys: tuple[int, int, int]) -> bool:
    return (option.top is None or keys[0] >= option.top) and (
        not option.wheel_middle or keys[1] == WHEEL
    )


def _stays(game: Game, keys: tuple[int, int, int]) -> bool:
    top, middle, bottom = keys
    return (
        (game.stay_top_trips and top >= ANY_TRIPS)
        or (game.stay_full_house_middle and not game.low_middle and middle >= FULL_HOUSE)
        or (game.stay_wheel_middle and game.low_middle and middle == WHEEL)
        or (game.stay_quads_bottom and bottom >= QUADS)
    )


def _stay(game: Game, current: FantasylandState) -> FantasylandState | None:
    if not may_stay(game, current):
        return None
    # A preset with a fixed stay count deals exactly that many ("a stay is
    # always 14 cards, whatever you entered with"), even for a hand given as
    # played with fewer; ultimate and jokers keep the count of the streak.
    cards = current.cards if game.stay_cards is None else game.stay_cards
    return FantasylandState(cards, current.stays + 1)
