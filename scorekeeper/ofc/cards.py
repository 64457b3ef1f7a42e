"""Cards and their text notation.

A card is written rank then suit: ``As``, ``Td``, ``7c``. Parsing also takes
``10`` for ``T`` and either case (``ah``, ``AH``, ``10h``); a joker is ``JK``.
Printing always gives the canonical form (``Ah``, ``Th``, ``JK``).

Every card also carries an integer ``code`` that the evaluator works on; the
layout is documented on :data:`Card.code`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "DECK",
    "JOKER",
    "RANKS",
    "SUITS",
    "Card",
    "OFCError",
    "format_cards",
    "parse_card",
    "parse_cards",
]


class OFCError(ValueError):
    """Input the engine cannot score; the message is plain words for a person."""


RANKS = "23456789TJQKA"
SUITS = "shdc"
RANK_NAMES = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
# One prime per rank: the product of five primes names the multiset of ranks,
# whatever the order, which is what the evaluator's lookup table is keyed by.
PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def _code(rank: int, suit: str) -> int:
    if rank == 0:
        return 0
    index = rank - 2
    return PRIMES[index] | (index << 8) | (1 << (SUITS.index(suit) + 12)) | (1 << (index + 16))


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card, or the joker (``rank`` 0, ``suit`` "").

    >>> Card(14, "s")
    Card('As')
    >>> str(parse_card("10h"))
    'Th'
    """

    rank: int
    suit: str
    # Bits 0-7 the rank's prime, 8-11 the rank index (0 for a two), 12-15 one
    # bit for the suit, 16-28 one bit for the rank. A joker's code is 0.
    code: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.rank == 0 and self.suit == "":
            object.__setattr__(self, "code", 0)
            return
        if not (2 <= self.rank <= 14) or self.suit not in SUITS or len(self.suit) != 1:
            raise OFCError(f"no such card: rank {self.rank!r}, suit {self.suit!r}")
        object.__setattr__(self, "code", _code(self.rank, self.suit))

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    def __str__(self) -> str:
        if self.rank == 0:
            return "JK"
        return RANKS[self.rank - 2] + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


JOKER = Card(0, "")
# Highest card first, so searches that walk the deck meet strong cards early.
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(14, 1, -1) for suit in SUITS)
BY_CODE: dict[int, Card] = {card.code: card for card in (*DECK, JOKER)}

_NOTATION: dict[str, Card] = {"JK": JOKER}
for _card in DECK:
    _rank_text = RANKS[_card.rank - 2]
    _NOTATION[_rank_text + _card.suit.upper()] = _card
    if _rank_text == "T":
        _NOTATION["10" + _card.suit.upper()] = _card


def parse_card(text: str) -> Card:
    """Read one card in any accepted notation.

    >>> parse_card("ah"), parse_card("10D"), parse_card("jk")
    (Card('Ah'), Card('Td'), Card('JK'))
    """
    card = _NOTATION.get(text.strip().upper()) if isinstance(text, str) else None
    if card is None:
        raise OFCError(f"{_quote(text)} is not a card")
    return card


def parse_cards(cards: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Read a row: a string of space-separated cards, or a list of cards.

    >>> parse_cards("Qh qc 10d")
    (Card('Qh'), Card('Qc'), Card('Td'))
    >>> parse_cards(["As", Card(13, "s")])
    (Card('As'), Card('Ks'))
    """
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    return tuple(card if isinstance(card, Card) else parse_card(card) for card in cards)


def format_cards(cards: Sequence[Card]) -> str:
    """The canonical text of a row.

    >>> format_cards(parse_cards("10h jk as"))
    'Th JK As'
    """
    return " ".join(str(card) for card in cards)


def _quote(text: object) -> str:
    """A value as the input showed it: strings in quotes, anything else as JSON."""
    if isinstance(text, str):
        return '"' + text.replace('"', '\\"') + '"'
    try:
        return json.dumps(text, ensure_ascii=False, default=repr)
    except (TypeError, ValueError, RecursionError):
        return repr(text)
