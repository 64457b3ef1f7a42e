"""Small helpers shared by the engine tests."""

from __future__ import annotations

from scorekeeper.ofc import PRESETS, FantasylandState, PlayerBoard, TableResult, score_table


def board(
    name: str, top: str, middle: str, bottom: str, fantasyland: tuple[int, int] | None = None
) -> PlayerBoard:
    state = FantasylandState(*fantasyland) if fantasyland else None
    return PlayerBoard.parse(name, top, middle, bottom, state)


def score(game: str, *boards: PlayerBoard) -> TableResult:
    return score_table(PRESETS[game], boards)


def player(result: TableResult, name: str):
    return next(p for p in result.players if p.name == name)


# A filler opponent that does not foul and has no royalties, built from cards
# the tests below leave alone as far as possible.
def filler(name: str = "Zed") -> PlayerBoard:
    return board(name, "2d 3d 4s", "5h 5s 9d Tc Jc", "6c 6d 8c 8d Qd")
