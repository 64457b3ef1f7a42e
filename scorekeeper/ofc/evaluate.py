"""Hand evaluation: five-card high hands, the three-card top, and 2-7 lows.

Every hand gets one integer *key*, bigger is stronger, and three- and
five-card hands share the scale, so the foul check is simply
``top <= middle <= bottom``::

    key = category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

``r1..r5`` are the ranks that matter, main ranks first and then kickers in
order (2 = two ... 14 = ace), and 0 where a hand has no more ranks. A top row
has at most three ranks, so when it runs out of kickers against a middle of
the same pair its key is the smaller one: ``K-K-Q`` is below ``K-K-Q-J-9``.
A straight or straight flush keeps only its high card (5 for ``A-2-3-4-5``).
Suits never enter the key, so equal keys are ties.

Keys come from tables built once at import (a few milliseconds): five-card
hands by the product of their rank primes, or by their rank bits when all five
cards share a suit; tops by the product of three primes.

>>> from scorekeeper.ofc.cards import parse_cards
>>> hand_name(hand_key(parse_cards("Ts Js Qs Ks As")))
'royal flush'
>>> hand_key(parse_cards("Kh Kd Ac")) > hand_key(parse_cards("Ks Kc Qd Jh 9s"))
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations, combinations_with_replacement

from .cards import PRIMES, RANK_NAMES, Card, OFCError

__all__ = [
    "FLUSH_KEY_BY_RANK_BITS",
    "KEY_BY_PRIMES",
    "TOP_KEY_BY_PRIMES",
    "Category",
    "category_of",
    "describe",
    "five_key",
    "hand_key",
    "hand_name",
    "low_fault",
    "low_key",
    "low_name",
    "pack_key",
    "ranks_of",
    "top_key",
]


class Category(IntEnum):
    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ")


# Shape of the rank counts, largest first -> category (before straights and flushes).
_SHAPES = {
    (1, 1, 1, 1, 1): Category.HIGH_CARD,
    (2, 1, 1, 1): Category.PAIR,
    (2, 2, 1): Category.TWO_PAIR,
    (3, 1, 1): Category.TRIPS,
    (3, 2): Category.FULL_HOUSE,
    (4, 1): Category.QUADS,
    (1, 1, 1): Category.HIGH_CARD,
    (2, 1): Category.PAIR,
    (3,): Category.TRIPS,
}


def pack_key(category: Category, ranks: Sequence[int]) -> int:
    """The key of a hand of ``category`` whose ranks that matter are ``ranks``
    (main ranks first, then kickers; missing ones count as 0).

    >>> from scorekeeper.ofc.cards import parse_cards
    >>> pack_key(Category.PAIR, [13, 14]) == hand_key(parse_cards("Kh Kd Ac"))
    True
    """
    key = int(category)
    for position in range(5):
        key = (key << 4) | (ranks[position] if position < len(ranks) else 0)
    return key


def _straight_high(ranks: Sequence[int]) -> int:
    """High card of five distinct ranks that make a straight, else 0."""
    ordered = sorted(ranks, reverse=True)
    if ordered == [14, 5, 4, 3, 2]:
        return 5  # the ace plays low only here
    if ordered[0] - ordered[4] == 4:
        return ordered[0]
    return 0


def _key_from_ranks(ranks: Sequence[int], *, flush: bool = False) -> int:
    counts = Counter(ranks)
    # Main ranks first (the biggest group, then the higher rank), kickers after.
    ordered = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    category = _SHAPES[tuple(counts[rank] for rank in ordered)]
    if len(ranks) == 5 and category is Category.HIGH_CARD:
        high = _straight_high(ranks)
        if high and flush:
            return pack_key(Category.STRAIGHT_FLUSH, [high])
        if high:
            return pack_key(Category.STRAIGHT, [high])
        if flush:
            return pack_key(Category.FLUSH, ordered)
    return pack_key(category, ordered)


def _build_tables() -> tuple[dict[int, int], list[int], dict[int, int]]:
    unsuited: dict[int, int] = {}
    for five in combinations_with_replacement(range(2, 15), 5):
        if max(Counter(five).values()) <= 4:
            product = 1
            for rank in five:
                product *= PRIMES[rank - 2]
            unsuited[product] = _key_from_ranks(five)
    flush = [0] * (1 << 13)
    for suited in combinations(range(2, 15), 5):
        bits = sum(1 << (rank - 2) for rank in suited)
        flush[bits] = _key_from_ranks(suited, flush=True)
    top: dict[int, int] = {}
    for three in combinations_with_replacement(range(2, 15), 3):
        top[PRIMES[three[0] - 2] * PRIMES[three[1] - 2] * PRIMES[three[2] - 2]] = _key_from_ranks(
            three
        )
    return unsuited, flush, top


# Five cards not all of one suit, by the product of their rank primes; five
# suited cards by their rank bits (bits 16-28 of their codes, shifted down);
# a top row by the product of its three primes. The joker search reads them too.
KEY_BY_PRIMES, FLUSH_KEY_BY_RANK_BITS, TOP_KEY_BY_PRIMES = _build_tables()


def five_key(codes: Sequence[int]) -> int:
    """Key of five cards given by their codes; the evaluator's hot path.

    >>> from scorekeeper.ofc.cards import parse_cards
    >>> key = five_key([card.code for card in parse_cards("7d 7c 7s 2h 2s")])
    >>> category_of(key).label
    'full house'
    """
    a, b, c, d, e = codes
    if a & b & c & d & e & 0xF000:
        return FLUSH_KEY_BY_RANK_BITS[(a | b | c | d | e) >> 16]
    return KEY_BY_PRIMES[(a & 0xFF) * (b & 0xFF) * (c & 0xFF) * (d & 0xFF) * (e & 0xFF)]


def top_key(codes: Sequence[int]) -> int:
    """Key of a three-card top row given by codes: high card, pair or trips only."""
    a, b, c = codes
    return TOP_KEY_BY_PRIMES[(a & 0xFF) * (b & 0xFF) * (c & 0xFF)]


def hand_key(cards: Sequence[Card]) -> int:
    """Key of a three- or five-card hand (no jokers); bigger is stronger.

    >>> from scorekeeper.ofc.cards import parse_cards
    >>> hand_key(parse_cards("Kh Kd 9c")) < hand_key(parse_cards("Ks Kc Ad Qh Js"))
    True
    """
    codes = [card.code for card in cards]
    if 0 in codes:
        raise OFCError("a joker has no value until it is substituted")
    if len(codes) == 5:
        return five_key(codes)
    if len(codes) == 3:
        return top_key(codes)
    raise OFCError(f"a hand has 3 or 5 cards, got {len(codes)}")


def category_of(key: int) -> Category:
    return Category(key >> 20)


def ranks_of(key: int) -> tuple[int, ...]:
    """The ranks packed in a key, main ranks first, without the padding."""
    ranks = ((key >> 16) & 15, (key >> 12) & 15, (key >> 8) & 15, (key >> 4) & 15, key & 15)
    return tuple(rank for rank in ranks if rank)


# Every scored row is named, twice more for its royalties: look the names up.
_CATEGORY_LABELS = tuple(category.label for category in Category)
_ROYAL_FLUSH = pack_key(Category.STRAIGHT_FLUSH, [14]) >> 16  # category and high card


def hand_name(key: int) -> str:
    """The hand's category in words, with the royal flush named apart.

    >>> from scorekeeper.ofc.cards import parse_cards
    >>> hand_name(hand_key(parse_cards("9s 9h 9d")))
    'trips'
    """
    if key >> 16 == _ROYAL_FLUSH:
        return "royal flush"
    return _CATEGORY_LABELS[key >> 20]


def _plural(rank: int) -> str:
    name = RANK_NAMES[rank]
    return name + ("es" if name == "six" else "s")


def describe(key: int) -> str:
    """The hand in words, precise enough to tell two hands of a category apart.

    >>> from scorekeeper.ofc.cards import parse_cards
    >>> describe(hand_key(parse_cards("Kh Kd Ac")))
    'pair of kings, ace kicker'
    >>> describe(hand_key(parse_cards("Ks Kc Qd Jh 9s")))
    'pair of kings, queen-jack-nine kickers'
    """
    category = category_of(key)
    ranks = ranks_of(key)
    names = [RANK_NAMES[rank] for rank in ranks]

    def kickers(start: int) -> str:
        rest = names[start:]
        if not rest:
            return ""
        return ", " + "-".join(rest) + (" kicker" if len(rest) == 1 else " kickers")

    if category is Category.HIGH_CARD:
        return f"{names[0]} high" + (", then " + "-".join(names[1:]) if len(names) > 1 else "")
    if category is Category.PAIR:
        return f"pair of {_plural(ranks[0])}{kickers(1)}"
    if category is Category.TWO_PAIR:
        return f"two pair, {_plural(ranks[0])} and {_plural(ranks[1])}{kickers(2)}"
    if category is Category.TRIPS:
        return f"trip {_plural(ranks[0])}{kickers(1)}"
    if category is Category.STRAIGHT:
        return f"{names[0]}-high straight"
    if category is Category.FLUSH:
        return "flush, " + "-".join(names)
    if category is Category.FULL_HOUSE:
        return f"full house, {_plural(ranks[0])} full of {_plural(ranks[1])}"
    if category is Category.QUADS:
        return f"four {_plural(ranks[0])}{kickers(1)}"
    if ranks[0] == 14:
        return "royal flush"
    return f"{names[0]}-high straight flush"


# --- 2-7 lows (the deuce game's middle) ------------------------------------
# A legal low is a five-card high-card hand with no straight or flush whose
# top card is ten or lower; aces are always high. Among legal lows the order
# is exactly the reverse of the high-card order, so the same key serves: the
# smaller key is the better low.


_LOW_FAULTS = {
    Category.PAIR: "it has a pair",
    Category.TWO_PAIR: "it has two pair",
    Category.TRIPS: "it has trips",
    Category.STRAIGHT: "it is a straight",
    Category.FLUSH: "it is a flush",
    Category.FULL_HOUSE: "it is a full house",
    Category.QUADS: "it has quads",
    Category.STRAIGHT_FLUSH: "it is a straight flush",
}


def low_key(key: int) -> int:
    """A five-card key as 2-7 ranks it, for the deuce game's middle.

    Aces are always high in 2-7, so ``A-2-3-4-5`` is no straight: it is ace
    high (``A-5-4-3-2``), or a flush when suited. Every other hand ranks as
    in high poker. A fouled 2-7 middle is named from this key ("high card",
    not "straight"), which is the reading of the rules this engine takes.

    >>> from scorekeeper.ofc.cards import parse_cards
    >>> hand_name(low_key(hand_key(parse_cards("As 2h 3d 4c 5c"))))
    'high card'
    >>> hand_name(low_key(hand_key(parse_cards("As 2s 3s 4s 5s"))))
    'flush'
    """
    category = category_of(key)
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH) and ranks_of(key)[0] == 5:
        ace_high = Category.FLUSH if category is Category.STRAIGHT_FLUSH else Category.HIGH_CARD
        return pack_key(ace_high, [14, 5, 4, 3, 2])
    return key


def low_fault(key: int) -> str | None:
    """Why a five-card hand is not a 10-high-or-better 2-7 low, or None.

    Takes a key as :func:`hand_key` gives it or as :func:`low_key` does.

    >>> from scorekeeper.ofc.cards import parse_cards
    >>> low_fault(hand_key(parse_cards("7s 5h 4d 3c 2s"))) is None
    True
    >>> low_fault(hand_key(parse_cards("As 5h 4d 3c 2s")))
    'it has an ace, and aces are high in 2-7'
    """
    key = low_key(key)
    category = category_of(key)
    if category is not Category.HIGH_CARD:
        return _LOW_FAULTS[category]
    high = ranks_of(key)[0]
    if high == 14:
        return "it has an ace, and aces are high in 2-7"
    if high > 10:
        return f"it is {RANK_NAMES[high]}-high, and a 2-7 middle must be 10-high or better"
    return None


def low_name(key: int) -> str:
    """Name of a legal 2-7 middle by its highest card: '7-high' ... '10-high'."""
    return f"{ranks_of(key)[0]}-high"
