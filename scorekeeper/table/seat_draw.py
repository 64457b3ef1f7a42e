"""Drawing for seats, as a table draws cards: the players in a random order round the
table and a random first dealer, from the operating system's secure random source.

Pure: no Django.

>>> seats, dealer = draw_seats(["Anna", "Bram", "Chris"])
>>> sorted(seats), 0 <= dealer < 3
(['Anna', 'Bram', 'Chris'], True)
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

# Nobody at the table can predict or steer it: not Python's Mersenne Twister, whose
# next draws follow from its last ones.
_DRAW = secrets.SystemRandom()


def draw_seats(players: Sequence[T], source: secrets.SystemRandom = _DRAW) -> tuple[list[T], int]:
    """``players`` shuffled into seats (every order equally likely: Fisher-Yates), and
    the index in that order of who deals first (each seat equally likely)."""
    if not players:
        raise ValueError("a draw needs players")
    seats = list(players)
    source.shuffle(seats)
    return seats, source.randrange(len(seats))
