"""Scoring a finished hand at the table: the boards checked, each board scored,
and every pair of players settled on rows, scoop, majority and royalties, by
the game's scoring system (1-6 unless the table plays its own).

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
from dataclasses import dataclass, replace
from itertools import combinations

from .board import ROWS, PlayerBoard, PlayerResult, evaluate_board
from .cards import Card, OFCError
from .games import Game
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
    "PairResult",
    "TableResult",
    "score_board",
    "score_table",
    "settle_pair",
    "table_problems",
]


@dataclass(frozen=True)
class PairResult:
    """Two players settled, from the first one's side."""

    seats: tuple[int, int]
    players: tuple[str, str]
    rows: tuple[int, int, int]  # top, middle, bottom: 1 won, 0 tie, -1 lost
    scoop: int  # +-S (the system's scoop bonus) or 0
    majority: int  # +-M (the system's majority bonus) or 0
    royalties: int  # the royalty difference paid
    points: int


@dataclass(frozen=True)
class TableResult:
    game: Game
    players: tuple[PlayerResult, ...]
    # One per pair in seat order: (0, 1), (0, 2), ..., (1, 2), ...
    pairs: tuple[PairResult, ...]


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
    table = [*others, board]
    _check_boards(game, table)
    return evaluate_board(game, board, held=_codes(table))


def score_table(game: Game, boards: Sequence[PlayerBoard]) -> TableResult:
    """Score one finished hand for everyone at the table.

    Raises :class:`OFCError` (plain words, naming the player and row) when the
    boards cannot be scored. See the module docstring for an example.
    """
    if not game.min_players <= len(boards) <= game.max_players:
        raise OFCError(
            f"{game.id} takes {game.min_players} to {game.max_players} players, got {len(boards)}"
        )
    _check_boards(game, boards)
    return _score_checked(game, boards)


def settle_pair(game: Game, first: PlayerResult, second: PlayerResult) -> PairResult:
    """Two scored boards settled from the first one's side: ``points`` is what
    ``second`` pays ``first`` (negative when ``first`` pays).

    A row won is 1 point, winning all three outright adds the scoop bonus,
    winning more rows than the other adds the majority bonus (both from
    ``game.scoring``), and the royalty difference is paid on top. A fouled board
    loses every row outright to a board that stands and pays no royalties of its
    own; two fouled boards are square.

    >>> from scorekeeper.ofc.games import PRESETS
    >>> game = PRESETS["standard"]
    >>> anna = PlayerBoard.parse("A", "Qh Qc 3d", "Ts Js Qd Kc Ah", "7d 7c 7s 2h 2s")
    >>> bram = PlayerBoard.parse("B", "Kh Kd 2c", "3s 3h 4d 4c 8s", "9s 9h 9d 6c 6h")
    >>> pair = settle_pair(game, score_board(game, anna), score_board(game, bram, [anna]))
    >>> pair.rows, pair.scoop, pair.majority, pair.royalties, pair.points
    ((-1, 1, -1), 0, 0, 3, 2)
    >>> from scorekeeper.ofc.scoring_systems import SYSTEMS
    >>> two_four = replace(game, scoring=SYSTEMS["2-4"])
    >>> pair = settle_pair(two_four, score_board(game, anna), score_board(game, bram, [anna]))
    >>> pair.majority, pair.points
    (-1, 1)
    """
    rows = _rows_won(game, first, second)
    won, lost = rows.count(1), rows.count(-1)
    scoop = game.scoring.scoop_for(won, lost)
    majority = game.scoring.majority_for(won, lost)
    # A fouled board's royalties are 0, so a foul pays the other side's in full.
    royalties = first.royalties - second.royalties
    points = sum(rows) + scoop + majority + royalties
    return PairResult(
        (first.seat, second.seat),
        (first.name, second.name),
        rows,
        scoop,
        majority,
        royalties,
        points,
    )


def _rows_won(game: Game, first: PlayerResult, second: PlayerResult) -> tuple[int, int, int]:
    """Top, middle and bottom from the first player's side: 1 won, 0 tie, -1 lost."""
    if first.fouled or second.fouled:
        outcome = int(second.fouled) - int(first.fouled)
        return outcome, outcome, outcome
    top = _compare(first.top.key, second.top.key)
    if game.low_middle:
        # A 2-7 middle: the lower hand wins.
        middle = _compare(second.middle.key, first.middle.key)
    else:
        middle = _compare(first.middle.key, second.middle.key)
    return top, middle, _compare(first.bottom.key, second.bottom.key)


def _compare(key: int, other: int) -> int:
    return (key > other) - (key < other)


def _score_checked(game: Game, boards: Sequence[PlayerBoard]) -> TableResult:
    """Score boards that passed :func:`table_problems` and the player count."""
    # Jokers prefer to become cards nobody at the table holds.
    held = _codes(boards)
    scored = [
        evaluate_board(game, board, seat=seat, held=held) for seat, board in enumerate(boards)
    ]
    pairs = tuple(settle_pair(game, first, second) for first, second in combinations(scored, 2))
    points = [0] * len(scored)
    for pair in pairs:
        first_seat, second_seat = pair.seats
        points[first_seat] += pair.points
        points[second_seat] -= pair.points
    players = tuple(replace(player, points=points[player.seat]) for player in scored)
    return TableResult(game, players, pairs)


def _check_boards(game: Game, boards: Sequence[PlayerBoard]) -> None:
    problems = table_problems(game, boards)
    if problems:
        raise TableError(problems)


def _codes(boards: Sequence[PlayerBoard]) -> set[int]:
    return {card.code for board in boards for row in board.rows() for card in row}
