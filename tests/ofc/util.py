"""Small helpers shared by the engine tests."""

from __future__ import annotations

from scorekeeper.ofc import (
    DECK,
    PRESETS,
    FantasylandState,
    PlayerBoard,
    PlayerResult,
    TableResult,
    score_table,
)


def board(
    name: str, top: str, middle: str, bottom: str, fantasyland: tuple[int, int] | None = None
) -> PlayerBoard:
    state = FantasylandState(*fantasyland) if fantasyland else None
    return PlayerBoard.parse(name, top, middle, bottom, state)


def score(game: str, *boards: PlayerBoard) -> TableResult:
    return score_table(PRESETS[game], boards)


def player(result: TableResult, name: str):
    return next(p for p in result.players if p.name == name)


def filler(*boards: PlayerBoard, name: str = "Zed") -> PlayerBoard:
    """An opponent dealt the lowest cards nobody else holds (it may foul)."""
    used = {card for b in boards for row in b.rows() for card in row}
    free = [card for card in reversed(DECK) if card not in used][:13]
    return PlayerBoard(name, tuple(free[10:]), tuple(free[5:10]), tuple(free[:5]))


def alone(game: str, board_: PlayerBoard) -> PlayerResult:
    """Score one board against a filler opponent; the board's own result."""
    return score(game, board_, filler(board_)).players[0]


# A weak legal board: 2-3-4 high, a pair of fives, two pair eights and sixes.
def weak(name: str = "W") -> PlayerBoard:
    return board(name, "2d 3d 4s", "5h 5s 9d Tc Jc", "6c 6d 8c 8d 9s")
