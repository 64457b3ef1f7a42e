"""Scoring a finished hand: fouls, royalties, 1-6 points and Fantasyland.

>>> from scorekeeper.ofc.games import PRESETS
>>> anna = PlayerBoard.parse("Anna", "Qh Qc 3d", "Ts Js Qd Kc Ah", "7d 7c 7s 2h 2s")
>>> bram = PlayerBoard.parse("Bram", "2c 5d 9h", "3s 3h 4d 4c 8s", "Ks Kh Kd 6c 6h")
>>> result = score_table(PRESETS["pineapple"], [anna, bram])
>>> [(p.name, p.royalties, p.points) for p in result.players]
[('Anna', 17, 12), ('Bram', 6, -12)]
>>> result.players[0].fantasyland
FantasylandState(cards=14, stays=0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .cards import Card, OFCError, parse_cards
from .evaluate import (
    Category,
    category_of,
    describe,
    five_key,
    hand_name,
    low_fault,
    low_key,
    low_name,
    pack_key,
    ranks_of,
    top_key,
)
from .games import ANY_TRIPS, EntryOption, Game
from .jokers import resolve
from .problems import (
    BadFantasyland,
    JokersNotDealt,
    Place,
    Problem,
    RepeatedCard,
    SameName,
    TableError,
    TooManyJokers,
    WrongSize,
)

__all__ = [
    "FantasylandState",
    "PairResult",
    "PlayerBoard",
    "PlayerResult",
    "Row",
    "RowResult",
    "TableResult",
    "entry_option",
    "next_fantasyland",
    "score_board",
    "score_table",
    "table_problems",
]


class Row(StrEnum):
    TOP = "top"
    MIDDLE = "middle"
    BOTTOM = "bottom"

    @property
    def size(self) -> int:
        return 3 if self is Row.TOP else 5


ROWS = (Row.TOP, Row.MIDDLE, Row.BOTTOM)
WHEEL = pack_key(Category.HIGH_CARD, [7, 5, 4, 3, 2])  # the best 2-7 low
FULL_HOUSE = pack_key(Category.FULL_HOUSE, [])
QUADS = pack_key(Category.QUADS, [])


@dataclass(frozen=True)
class FantasylandState:
    """A Fantasyland hand: dealt ``cards`` cards, after ``stays`` stays in this streak."""

    cards: int
    stays: int = 0


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


@dataclass(frozen=True)
class PairResult:
    """Two players settled, from the first one's side."""

    seats: tuple[int, int]
    players: tuple[str, str]
    rows: tuple[int, int, int]  # top, middle, bottom: 1 won, 0 tie, -1 lost
    scoop: int  # 3, -3 or 0
    royalties: int  # the royalty difference paid
    points: int


@dataclass(frozen=True)
class TableResult:
    game: Game
    players: tuple[PlayerResult, ...]
    # One per pair in seat order: (0, 1), (0, 2), ..., (1, 2), ...
    pairs: tuple[PairResult, ...]


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


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


def _weaker(lower: Row, low_key: int, upper: Row, high_key: int) -> str:
    """'the middle, two pair, is weaker than the top, trips' (more detail on a close call)."""
    if category_of(low_key) == category_of(high_key):
        low_text, high_text = describe(low_key), describe(high_key)
    else:
        low_text, high_text = hand_name(low_key), hand_name(high_key)
    return f"the {lower}, {low_text}, is weaker than the {upper}, {high_text}"


def _royalties(game: Game, keys: tuple[int, int, int]) -> tuple[int, int, int]:
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


def _stays(game: Game, keys: tuple[int, int, int]) -> bool:
    top, middle, bottom = keys
    return (
        (game.stay_top_trips and top >= ANY_TRIPS)
        or (game.stay_full_house_middle and not game.low_middle and middle >= FULL_HOUSE)
        or (game.stay_wheel_middle and game.low_middle and middle == WHEEL)
        or (game.stay_quads_bottom and bottom >= QUADS)
    )


def _qualifies(option: EntryOption, keys: tuple[int, int, int]) -> bool:
    return (option.top is None or keys[0] >= option.top) and (
        not option.wheel_middle or keys[1] == WHEEL
    )


def _stay(game: Game, current: FantasylandState) -> FantasylandState | None:
    if game.stay_limit is not None and current.stays >= game.stay_limit:
        return None
    # A preset with a fixed stay count deals exactly that many ("a stay is
    # always 14 cards, whatever you entered with"), even for a hand given as
    # played with fewer; ultimate and jokers keep the count of the streak.
    cards = current.cards if game.stay_cards is None else game.stay_cards
    return FantasylandState(cards, current.stays + 1)


def _fantasyland(
    game: Game, current: FantasylandState | None, fouled: bool, keys: tuple[int, int, int]
) -> FantasylandState | None:
    if not game.fantasyland or fouled:
        return None
    if current is not None:
        # In Fantasyland only the stay conditions count: QQ on top does not keep you.
        return _stay(game, current) if _stays(game, keys) else None
    option = _best_entry(game, keys)
    return FantasylandState(option.cards, 0) if option is not None else None


def _best_entry(game: Game, keys: tuple[int, int, int]) -> EntryOption | None:
    earned = [option for option in game.entry_options if _qualifies(option, keys)]
    return max(earned, key=lambda option: option.cards, default=None)


def entry_option(game: Game, result: PlayerResult) -> EntryOption | None:
    """The way into Fantasyland a scored board qualifies for: of the game's entry
    options it meets, the one that deals the most cards. None for a foul, for a
    board that meets none, and in a game without Fantasyland. (A player already in
    Fantasyland can only stay; this does not say whether they did.)

    >>> from scorekeeper.ofc.games import PRESETS
    >>> deuce = PRESETS["deuce"]
    >>> wheel = PlayerBoard.parse("Anna", "Js Jh 2d", "7c 5d 4c 3d 2c", "9s 9c 9h Kc Kd")
    >>> entry_option(deuce, score_board(deuce, wheel)).id
    'wheel'
    >>> both = PlayerBoard.parse("Anna", "Ks Kh 2d", "7c 5d 4c 3d 2c", "9s 9c 9h Qc Qd")
    >>> entry_option(deuce, score_board(deuce, both)).id
    'both'
    """
    if result.fouled:
        return None
    return _best_entry(game, (result.top.key, result.middle.key, result.bottom.key))


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


def _validate(game: Game, boards: Sequence[PlayerBoard]) -> None:
    if not game.min_players <= len(boards) <= game.max_players:
        raise OFCError(
            f"{game.id} takes {game.min_players} to {game.max_players} players, got {len(boards)}"
        )
    _check_boards(game, boards)


def _check_boards(game: Game, boards: Sequence[PlayerBoard]) -> None:
    problems = table_problems(game, boards)
    if problems:
        raise TableError(problems)


def table_problems(game: Game, boards: Sequence[PlayerBoard]) -> tuple[Problem, ...]:
    """Every reason ``boards`` cannot be scored together (row sizes, jokers, one
    deck across the table, names), in the order the boards and rows meet them;
    empty when they can. A card held three times is one problem with three places.

    >>> from scorekeeper.ofc.games import PRESETS
    >>> anna = PlayerBoard.parse("Anna", "2c 2c 3d", "Ts Js Qd Kc Ah", "7d 7c 7s 2c 2s")
    >>> [problem] = table_problems(PRESETS["standard"], [anna])
    >>> str(problem.card), [str(place) for place in problem.places]
    ('2c', ['Anna top', 'Anna top', 'Anna bottom'])
    """
    # Keyed by what a problem is about, in the order each was first met; a card
    # or the jokers collect their places until the end.
    found: dict[object, Problem | None] = {}
    holders: dict[Card, list[Place]] = {}
    jokers: list[Place] = []
    names: set[str] = set()
    for seat, board in enumerate(boards, start=1):
        if board.name in names:
            found[("name", seat)] = SameName(seat, board.name)
        names.add(board.name)
        for row, cards in zip(ROWS, board.rows(), strict=True):
            place = Place(seat, board.name, row)
            if len(cards) != row.size:
                found[place] = WrongSize(place, len(cards))
            for card in cards:
                if card.is_joker:
                    jokers.append(place)
                    if not game.jokers or len(jokers) > game.jokers:
                        found.setdefault("jokers", None)
                else:
                    holders.setdefault(card, []).append(place)
                    if len(holders[card]) == 2:
                        found[card] = None
        state = board.fantasyland
        if state is not None and not (13 <= state.cards <= 17 and state.stays >= 0):
            found[("fantasyland", seat)] = BadFantasyland(seat, board.name, state)
    problems: list[Problem] = []
    for about, problem in found.items():
        if about == "jokers":
            places = tuple(jokers)
            problem = TooManyJokers(game.jokers, places) if game.jokers else JokersNotDealt(places)
        elif isinstance(about, Card):
            problem = RepeatedCard(about, tuple(holders[about]))
        assert problem is not None
        problems.append(problem)
    return tuple(problems)


def _evaluate(
    game: Game, board: PlayerBoard, used: set[int]
) -> tuple[tuple[int, int, int], tuple[tuple[Card, ...], ...]]:
    top, middle, bottom = board.top, board.middle, board.bottom
    if game.jokers and any(card.is_joker for row in board.rows() for card in row):
        others = used - {card.code for row in board.rows() for card in row}
        return resolve(game, board.rows(), others)
    keys = (
        top_key([card.code for card in top]),
        five_key([card.code for card in middle]),
        five_key([card.code for card in bottom]),
    )
    return keys, ((), (), ())


def _played(cards: tuple[Card, ...], became: tuple[Card, ...]) -> tuple[Card, ...]:
    if not became:
        return cards
    substitutes = iter(became)
    return tuple(next(substitutes) if card.is_joker else card for card in cards)


def score_board(game: Game, board: PlayerBoard, others: Sequence[PlayerBoard] = ()) -> PlayerResult:
    """Score one board on its own: rows, royalties, foul and Fantasyland (points 0).

    For a phone that shows a player's board before the rest of the table is in.
    ``others`` are boards already on the table: the cards must not repeat theirs
    (the error names both places), and jokers become cards they do not hold
    whenever that gives the same hand.

    >>> from scorekeeper.ofc.games import PRESETS
    >>> anna = PlayerBoard.parse("Anna", "Qh Qc 3d", "Ts Js Qd Kc Ah", "7d 7c 7s 2h 2s")
    >>> result = score_board(PRESETS["pineapple"], anna)
    >>> [(row.hand, row.royalty) for row in result.rows], result.royalties
    ([('pair', 7), ('straight', 4), ('full house', 6)], 17)
    >>> bram = PlayerBoard.parse("Bram", "2c 5d 9h", "3s 3h 4d 4c 8s", "Ks Kh Kd 6c Ah")
    >>> score_board(PRESETS["pineapple"], bram, [anna])
    Traceback (most recent call last):
    ...
    scorekeeper.ofc.problems.TableError: Ah appears twice: Anna middle, Bram bottom
    """
    _check_boards(game, [*others, board])
    used = {card.code for other in others for row in other.rows() for card in row}
    return _score(game, [board], used).players[0]


def score_table(game: Game, boards: Sequence[PlayerBoard]) -> TableResult:
    """Score one finished hand for everyone at the table.

    Raises :class:`OFCError` (plain words, naming the player and row) when the
    boards cannot be scored. See the module docstring for an example.
    """
    _validate(game, boards)
    return _score(game, boards)


def _score(game: Game, boards: Sequence[PlayerBoard], used: set[int] | None = None) -> TableResult:
    # Jokers prefer to become cards nobody at the table holds.
    used = (used or set()) | {card.code for board in boards for row in board.rows() for card in row}
    evaluated = []
    for board in boards:
        keys, became = _evaluate(game, board, used)
        if game.low_middle:
            # The middle as 2-7 ranks it: A-2-3-4-5 is ace high, not a straight.
            keys = (keys[0], low_key(keys[1]), keys[2])
        reason = _foul_reason(game, keys)
        fouled = reason is not None
        royalties = (0, 0, 0) if fouled else _royalties(game, keys)
        rows = []
        for row, cards, key, jokers, royalty in zip(
            ROWS, board.rows(), keys, became, royalties, strict=True
        ):
            low = game.low_middle and row is Row.MIDDLE
            hand = low_name(key) if low and low_fault(key) is None else hand_name(key)
            wild = tuple(card.is_joker for card in cards)
            played = _played(cards, jokers)
            rows.append(RowResult(row, played, jokers, key, hand, royalty, low, wild))
        evaluated.append((board, keys, reason, tuple(rows), sum(royalties)))

    points = [0] * len(boards)
    pairs = []
    for i, (board_a, keys_a, foul_a, _, royal_a) in enumerate(evaluated):
        for j in range(i + 1, len(evaluated)):
            board_b, keys_b, foul_b, _, royal_b = evaluated[j]
            if foul_a and foul_b:
                rows, scoop, royalties = (0, 0, 0), 0, 0
            elif foul_a:
                rows, scoop, royalties = (-1, -1, -1), -3, -royal_b
            elif foul_b:
                rows, scoop, royalties = (1, 1, 1), 3, royal_a
            else:
                rows = (
                    _sign(keys_a[0] - keys_b[0]),
                    # A 2-7 middle: the lower hand wins.
                    _sign(keys_b[1] - keys_a[1])
                    if game.low_middle
                    else _sign(keys_a[1] - keys_b[1]),
                    _sign(keys_a[2] - keys_b[2]),
                )
                # A scoop is three rows won outright: a tied row spoils it.
                scoop = 3 if rows == (1, 1, 1) else -3 if rows == (-1, -1, -1) else 0
                royalties = royal_a - royal_b
            total = sum(rows) + scoop + royalties
            points[i] += total
            points[j] -= total
            pairs.append(
                PairResult((i, j), (board_a.name, board_b.name), rows, scoop, royalties, total)
            )

    players = tuple(
        PlayerResult(
            seat,
            board.name,
            reason is not None,
            reason,
            rows,
            royalty_sum,
            points[seat],
            _fantasyland(game, board.fantasyland, reason is not None, keys),
        )
        for seat, (board, keys, reason, rows, royalty_sum) in enumerate(evaluated)
    )
    return TableResult(game, players, tuple(pairs))
