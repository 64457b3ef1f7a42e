"""One player's board, its three rows, and the board scored on its own.

Scoring a board finds each row's key (jokers become what makes the strongest
hand, see :mod:`.jokers`), whether the board fouls and why, its royalties and
the player's Fantasyland for the next hand. Points need the other boards: see
:mod:`.scoring`.

>>> from scorekeeper.ofc.games import PRESETS
>>> anna = PlayerBoard.parse("Anna", "Qh Qc 3d", "Ts Js Qd Kc Ah", "7d 7c 7s 2h 2s")
>>> result = evaluate_board(PRESETS["pineapple"], anna)
>>> [(row.hand, row.royalty) for row in result.rows], result.royalties
([('pair', 7), ('straight', 4), ('full house', 6)], 17)
>>> result.fantasyland
FantasylandState(cards=14, stays=0)
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from enum import StrEnum

from .cards import Card, parse_cards
from .evaluate import (
    Category,
    category_of,
    describe,
    five_key,
    hand_name,
    low_fault,
    low_key,
    low_name,
    ranks_of,
    top_key,
)
from .fantasyland import FantasylandState, best_entry, earned_fantasyland
from .games import EntryOption, Game
from .jokers import resolve

__all__ = [
    "ROWS",
    "PlayerBoard",
    "PlayerResult",
    "Row",
    "RowResult",
    "entry_option",
    "evaluate_board",
    "row_royalties",
]


class Row(StrEnum):
    TOP = "top"
    MIDDLE = "middle"
    BOTTOM = "bottom"

    @property
    def size(self) -> int:
        return 3 if self is Row.TOP else 5


ROWS = (Row.TOP, Row.MIDDLE, Row.BOTTOM)


@dataclass(frozen=True)
class PlayerBoard:
    """One player's finished board, and their Fantasyland if this hand was one."""

    name: str
    top: tuple[Card, ...]
    middle: tuple[Card, ...]
    bottom: tuple[Card, ...]
    fantasyland: FantasylandState | None = None

    @classmethod
    def parse(
        cls,
        name: str,
        top: str | Sequence[str],
        middle: str | Sequence[str],
        bottom: str | Sequence[str],
        fantasyland: FantasylandState | None = None,
    ) -> PlayerBoard:
        """Build a board from card text.

        >>> PlayerBoard.parse("Anna", "Qh Qc 3d", "Ts Js Qd Kc Ah", "7d 7c 7s 2h 2s").top
        (Card('Qh'), Card('Qc'), Card('3d'))
        """
        return cls(name, parse_cards(top), parse_cards(middle), parse_cards(bottom), fantasyland)

    def rows(self) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
        return self.top, self.middle, self.bottom


@dataclass(frozen=True)
class RowResult:
    """A row as scored: the cards as played (jokers shown as what they became)."""

    row: Row
    cards: tuple[Card, ...]
    # What the row's jokers became, in the order the jokers were entered.
    jokers: tuple[Card, ...]
    key: int
    hand: str
    royalty: int
    low: bool = False  # a 2-7 middle, where the lower key is the better hand
    # Per card of ``cards``: True where a joker became it.
    from_joker: tuple[bool, ...] = ()

    @property
    def description(self) -> str:
        """The hand in words, e.g. 'pair of kings, ace kicker' or '8-high low'."""
        if self.low and low_fault(self.key) is None:
            return "-".join(str(rank) for rank in ranks_of(self.key)) + " low"
        return describe(self.key)


@dataclass(frozen=True)
class PlayerResult:
    seat: int
    name: str
    fouled: bool
    # Why the board fouled, in plain words, or None.
    foul_reason: str | None
    rows: tuple[RowResult, RowResult, RowResult]
    royalties: int
    points: int
    # The player's Fantasyland for the NEXT hand, or None.
    fantasyland: FantasylandState | None

    @property
    def top(self) -> RowResult:
        return self.rows[0]

    @property
    def middle(self) -> RowResult:
        return self.rows[1]

    @property
    def bottom(self) -> RowResult:
        return self.rows[2]


def evaluate_board(
    game: Game, board: PlayerBoard, *, seat: int = 0, held: AbstractSet[int] = frozenset()
) -> PlayerResult:
    """Score one board of a table already checked (row sizes, one deck): rows,
    royalties, foul and next Fantasyland, with 0 points.

    ``held`` is the codes of every card on the table; a joker becomes a card
    no other board holds whenever that gives the same hand. The checked entry
    points are :func:`~scorekeeper.ofc.scoring.score_board` and
    :func:`~scorekeeper.ofc.scoring.score_table`.
    """
    keys, became = _row_keys(game, board, held)
    reason = _foul_reason(game, keys)
    fouled = reason is not None
    royalties = (0, 0, 0) if fouled else row_royalties(game, keys)
    top, middle, bottom = board.rows()
    rows = (
        _row_result(game, Row.TOP, top, keys[0], became[0], royalties[0]),
        _row_result(game, Row.MIDDLE, middle, keys[1], became[1], royalties[1]),
        _row_result(game, Row.BOTTOM, bottom, keys[2], became[2], royalties[2]),
    )
    fantasyland = None if fouled else earned_fantasyland(game, board.fantasyland, keys)
    return PlayerResult(seat, board.name, fouled, reason, rows, sum(royalties), 0, fantasyland)


def row_royalties(game: Game, keys: tuple[int, int, int]) -> tuple[int, int, int]:
    """What the game's royalty table pays for rows with these keys (top, middle,
    bottom), foul or not.

    >>> from scorekeeper.ofc.games import PRESETS
    >>> from scorekeeper.ofc.evaluate import hand_key
    >>> board = PlayerBoard.parse("P", "Qh Qc 3d", "Ts Js Qd Kc Ah", "7d 7c 7s 2h 2s")
    >>> row_royalties(PRESETS["standard"], tuple(hand_key(row) for row in board.rows()))
    (7, 4, 6)
    """
    table = game.royalties
    top, middle, bottom = keys
    category, rank = top >> 20, (top >> 16) & 15
    if category == Category.TRIPS:
        top_points = table.top_trips.get(rank, 0)
    elif category == Category.PAIR:
        top_points = table.top_pair.get(rank, 0)
    else:
        top_points = 0
    if game.low_middle:
        middle_points = table.low_middle.get((middle >> 16) & 15, 0)
    else:
        middle_points = table.middle.get(hand_name(middle), 0)
    return top_points, middle_points, table.bottom.get(hand_name(bottom), 0)


def entry_option(game: Game, result: PlayerResult) -> EntryOption | None:
    """The way into Fantasyland a scored board qualifies for: of the game's entry
    options it meets, the one that deals the most cards. None for a foul, for a
    board that meets none, and in a game without Fantasyland. (A player already in
    Fantasyland can only stay; this does not say whether they did.)

    >>> from scorekeeper.ofc.games import PRESETS
    >>> deuce = PRESETS["deuce"]
    >>> wheel = PlayerBoard.parse("Anna", "Js Jh 2d", "7c 5d 4c 3d 2c", "9s 9c 9h Kc Kd")
    >>> entry_option(deuce, evaluate_board(deuce, wheel)).id
    'wheel'
    >>> both = PlayerBoard.parse("Anna", "Ks Kh 2d", "7c 5d 4c 3d 2c", "9s 9c 9h Qc Qd")
    >>> entry_option(deuce, evaluate_board(deuce, both)).id
    'both'
    """
    if result.fouled:
        return None
    return best_entry(game, (result.top.key, result.middle.key, result.bottom.key))


def _row_keys(
    game: Game, board: PlayerBoard, held: AbstractSet[int]
) -> tuple[tuple[int, int, int], tuple[tuple[Card, ...], ...]]:
    """The rows' keys, as the game ranks them, and what each row's jokers became."""
    rows = board.rows()
    if game.jokers and any(card.is_joker for row in rows for card in row):
        own = {card.code for row in rows for card in row}
        (top, middle, bottom), became = resolve(game, rows, held - own)
    else:
        top = top_key([card.code for card in board.top])
        middle = five_key([card.code for card in board.middle])
        bottom = five_key([card.code for card in board.bottom])
        became = ((), (), ())
    if game.low_middle:
        # The middle as 2-7 ranks it: A-2-3-4-5 is ace high, not a straight.
        middle = low_key(middle)
    return (top, middle, bottom), became


def _row_result(
    game: Game, row: Row, cards: tuple[Card, ...], key: int, became: tuple[Card, ...], royalty: int
) -> RowResult:
    low = game.low_middle and row is Row.MIDDLE
    hand = low_name(key) if low and low_fault(key) is None else hand_name(key)
    if not became:  # no jokers in the row
        return RowResult(row, cards, became, key, hand, royalty, low, (False,) * len(cards))
    substitutes = iter(became)
    played = tuple(next(substitutes) if card.is_joker else card for card in cards)
    from_joker = tuple(card.is_joker for card in cards)
    return RowResult(row, played, became, key, hand, royalty, low, from_joker)


def _foul_reason(game: Game, keys: tuple[int, int, int]) -> str | None:
    top, middle, bottom = keys
    if game.low_middle:
        fault = low_fault(middle)
        if fault is not None:
            return f"the middle is not a 10-high-or-better 2-7 low: {fault}"
        if top > bottom:
            return _weaker(Row.BOTTOM, bottom, Row.TOP, top)
        return None
    reasons = []
    if top > middle:
        reasons.append(_weaker(Row.MIDDLE, middle, Row.TOP, top))
    if middle > bottom:
        reasons.append(_weaker(Row.BOTTOM, bottom, Row.MIDDLE, middle))
    return "; ".join(reasons) or None


def _weaker(lower: Row, lower_key: int, upper: Row, upper_key: int) -> str:
    """'the middle, two pair, is weaker than the top, trips' (more detail on a close call)."""
    if category_of(lower_key) == category_of(upper_key):
        lower_text, upper_text = describe(lower_key), describe(upper_key)
    else:
        lower_text, upper_text = hand_name(lower_key), hand_name(upper_key)
    return f"the {lower}, {lower_text}, is weaker than the {upper}, {upper_text}"
