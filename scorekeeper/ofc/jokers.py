"""What the jokers become (Joker OFC).

A joker becomes any card not already in its own row; two jokers in one row
become two different cards. The choice must avoid a foul when any choice
does, and then make the bottom as strong as possible, then the middle, then
the top.

The search works one row at a time. For a row with jokers it lists every key
the row can reach, each with one substitution that reaches it: at most 48
cards for one joker, at most C(49, 2) = 1,176 pairs for two, evaluated
incrementally from the fixed cards' prime product and suit bits. Rows only
interact through the foul check, so the board's choice is then a walk over
the rows' reachable keys, strongest bottom first: the first bottom, middle and
top that fit together are the answer. With two jokers there are at most two
rows with more than one reachable key, so this walk is short.

>>> from scorekeeper.ofc.cards import parse_cards
>>> from scorekeeper.ofc.games import PRESETS
>>> rows = [parse_cards(r) for r in ("Qs Qd JK", "2c 3c 4c 5c 6c", "Ah Ad As JK 7h")]
>>> keys, became = resolve(PRESETS["jokers"], rows, used=set())
>>> [[str(card) for card in cards] for cards in became]
[['Qh'], [], ['Ac']]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TypeAlias

from .cards import BY_CODE, DECK, Card
from .evaluate import (
    FLUSH_KEY_BY_RANK_BITS,
    KEY_BY_PRIMES,
    TOP_KEY_BY_PRIMES,
    five_key,
    low_fault,
    top_key,
)
from .games import Game

__all__ = ["ReachableKeys", "reachable", "resolve"]

# The keys a row with jokers can reach -> joker codes that reach each one.
ReachableKeys: TypeAlias = dict[int, tuple[int, ...]]


def reachable(cards: Sequence[Card], used: Collection[int] = ()) -> ReachableKeys:
    """Every key a row with jokers can reach -> joker codes that reach it.

    ``used`` holds the codes of cards elsewhere on the table; a substitution
    that copies none of them is preferred, so a joker shows as a card that is
    still in the deck whenever that gives the same hand.

    >>> from scorekeeper.ofc.cards import parse_cards
    >>> from scorekeeper.ofc.evaluate import hand_name
    >>> sorted({hand_name(key) for key in reachable(parse_cards("9s 9h JK"))})
    ['pair', 'trips']
    """
    fixed = [card.code for card in cards if not card.is_joker]
    jokers = len(cards) - len(fixed)
    if jokers == 0:
        key = five_key(fixed) if len(fixed) == 5 else top_key(fixed)
        return {key: ()}
    in_row = set(fixed)
    # Highest cards first, and cards still in the deck before copies.
    candidates = [card.code for card in DECK if card.code not in in_row]
    candidates.sort(key=lambda code: code in used)

    product = 1
    all_suits = 0xF000
    rank_bits = 0
    for code in fixed:
        product *= code & 0xFF
        all_suits &= code
        rank_bits |= code
    options: ReachableKeys = {}
    if len(cards) == 3:
        # The top has no straights or flushes: only the ranks count.
        for i, first in enumerate(candidates):
            if jokers == 1:
                options.setdefault(TOP_KEY_BY_PRIMES[product * (first & 0xFF)], (first,))
                continue
            prime = product * (first & 0xFF)
            for second in candidates[i + 1 :]:
                options.setdefault(TOP_KEY_BY_PRIMES[prime * (second & 0xFF)], (first, second))
        return options
    for i, first in enumerate(candidates):
        suits = all_suits & first
        bits = rank_bits | first
        prime = product * (first & 0xFF)
        if jokers == 1:
            key = FLUSH_KEY_BY_RANK_BITS[bits >> 16] if suits else KEY_BY_PRIMES[prime]
            options.setdefault(key, (first,))
            continue
        for second in candidates[i + 1 :]:
            if suits & second:
                key = FLUSH_KEY_BY_RANK_BITS[(bits | second) >> 16]
            else:
                key = KEY_BY_PRIMES[prime * (second & 0xFF)]
            options.setdefault(key, (first, second))
    return options


def resolve(
    game: Game, rows: Sequence[Sequence[Card]], used: Collection[int]
) -> tuple[tuple[int, int, int], tuple[tuple[Card, ...], ...]]:
    """The keys of top, middle and bottom and what each row's jokers became.

    When every choice fouls, each row simply takes its strongest hand (the
    board fouls anyway, and this shows the player the most their cards made).
    """
    top, middle, bottom = (reachable(row, used) for row in rows)
    choice = _choose(game, top, middle, bottom)
    if choice is None:
        choice = (max(top), _best_middle(game, middle), max(bottom))
    became = tuple(
        tuple(BY_CODE[code] for code in options[key])
        for options, key in zip((top, middle, bottom), choice, strict=True)
    )
    return choice, became


def _best_middle(game: Game, middle: ReachableKeys) -> int:
    if game.low_middle:
        lows = [key for key in middle if low_fault(key) is None]
        return min(lows) if lows else max(middle)
    return max(middle)


def _choose(
    game: Game, top: ReachableKeys, middle: ReachableKeys, bottom: ReachableKeys
) -> tuple[int, int, int] | None:
    bottoms = sorted(bottom, reverse=True)
    tops = sorted(top, reverse=True)
    lowest_top = tops[-1]
    if game.low_middle:
        # Only bottom >= top is checked between rows; the middle just has to
        # be a legal low, and the lower the better.
        lows = [key for key in middle if low_fault(key) is None]
        if not lows:
            return None
        for b in bottoms:
            if b >= lowest_top:
                return next(t for t in tops if t <= b), min(lows), b
        return None
    middles = sorted(middle, reverse=True)
    for b in bottoms:
        for m in middles:
            if lowest_top <= m <= b:
                return next(t for t in tops if t <= m), m, b
    return None
