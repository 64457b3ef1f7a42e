"""Each board's result, stored: the one place where the rules engine scores the
boards of a recorded round for the player pages.

A player's record (:func:`scorekeeper.reads.records.card_record`) counts fouls,
royalties, Fantasyland, best hands and head to head over every board they ever set
in the group. It reads ``Entry.card_result`` (a :class:`CardResult`) instead of
scoring each of those rounds again on every load. The results are written here
only, inside the night's door (:func:`scorekeeper.services.locks.night_change`):
when a round with boards goes through (:func:`.rounds.close_round_if_complete`)
and when it is undone (:func:`.round_fixes.undo_last_round`). A recorded round's cards
and its Fantasyland change only by undoing it, and a night's rules only before its
first round is recorded; a fixed total changes no card result (the pair results
come from the cards).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from scorekeeper.models.boards import CardResult, PairPoints, player_board
from scorekeeper.ofc import (
    PRESETS,
    FantasylandState,
    Game,
    OFCError,
    PlayerBoard,
    PlayerResult,
    score_board,
    score_table,
)


@dataclass(frozen=True)
class Tables:
    """The model read and written: the app's own, or a migration's historical one."""

    entry: Any


def app_tables() -> Tables:
    from scorekeeper.models import Entry

    return Tables(entry=Entry)


def store_card_results(round_ids: Iterable[int], tables: Tables | None = None) -> None:
    """Score the boards of the rounds ``round_ids`` and store each one's result: for a
    recorded round, what :func:`worked_out` says; for one not recorded, none (one
    query, and one more when any entry's result changed)."""
    tables = tables or app_tables()
    entries = (
        tables.entry.objects.filter(round_id__in=set(round_ids), board__isnull=False)
        .select_related("seat", "round__night")
        .order_by("round_id", "seat__position")
    )
    changed = []
    for _round_id, in_round in groupby(entries, key=lambda entry: entry.round_id):
        boards = list(in_round)
        round_ = boards[0].round
        if round_.recorded_at is None:
            results: list[CardResult | None] = [None] * len(boards)
        else:
            results = worked_out(round_.night.game, round_.night.rules, round_.fantasyland, boards)
        for entry, result in zip(boards, results, strict=True):
            if entry.card_result != result:
                entry.card_result = result
                changed.append(entry)
    if changed:
        tables.entry.objects.bulk_update(changed, ["card_result"])


def worked_out(
    game_id: str, rules: dict, fantasyland: dict, entries: list[Any]
) -> list[CardResult | None]:
    """The result of each of ``entries`` (a round's boards, each with its seat, in seat
    order) in a night of ``game_id`` and house ``rules``, ``fantasyland`` being the
    round's {seat id: [cards, stays]}: the boards scored together, with a pair result
    against each other board, or each alone when they cannot be (a mixed round that
    went through on totals); None for a board that cannot be scored even alone."""
    game = PRESETS[game_id].with_house_rules(rules)
    boards = [
        player_board(
            entry.seat.name, entry.board, _fantasyland(fantasyland.get(str(entry.seat_id)))
        )
        for entry in entries
    ]
    if len(boards) >= 2:
        try:
            table = score_table(game, boards)
        except OFCError:
            pass  # not scorable together: each board alone
        else:
            pairs: list[list[PairPoints]] = [[] for _ in boards]
            for pair in table.pairs:
                first, second = pair.seats
                pairs[first].append({"against": boards[second].name, "points": pair.points})
                pairs[second].append({"against": boards[first].name, "points": -pair.points})
            return [
                _result(player, against)
                for player, against in zip(table.players, pairs, strict=True)
            ]
    return [_alone(game, board) for board in boards]


def _fantasyland(value: list[int] | None) -> FantasylandState | None:
    return FantasylandState(*value) if value is not None else None


def _alone(game: Game, board: PlayerBoard) -> CardResult | None:
    try:
        return _result(score_board(game, board), [])
    except OFCError:
        return None


def _result(player: PlayerResult, pairs: list[PairPoints]) -> CardResult:
    # Plain JSON values, so that a result worked out again compares equal to the
    # stored one and an unchanged round writes nothing.
    return {
        "fouled": player.fouled,
        "royalties": player.royalties,
        "fantasyland": player.fantasyland is not None,
        "rows": [{"row": row.row.value, "key": row.key, "low": row.low} for row in player.rows],
        "pairs": pairs,
    }
