"""Benchmark of the OFC rules engine. Run: ``.venv/bin/python bench/engine.py``.

Prints, for random 3-player tables of each game, tables scored per second and
microseconds per table; the worst joker tables in milliseconds; and the same
random five-card hands evaluated by our evaluator and by ``treys`` (a
benchmark-only dependency), with the ratio. Goals on a 2-core machine: under
0.2 ms for a 3-player table without jokers, under 5 ms for the worst joker
table, and five-card evaluation at least as fast as treys.
"""

from __future__ import annotations

import os
import random
import sys
import time
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.ofc import DECK, JOKER, PRESETS, PlayerBoard, parse_cards, score_table
from scorekeeper.ofc.evaluate import five_key

# The tests run it as a documented command only (tests/test_benchmarks.py): smaller.
QUICK = os.environ.get("OFCBOARD_BENCH_QUICK") == "1"
TABLES, HANDS, REPEAT = (200, 20_000, 5) if QUICK else (2000, 200_000, 50)


def best_of(runs: int, func) -> float:
    """The fastest of a few runs, in seconds: the least disturbed measurement."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def random_tables(game_id: str, count: int, rng: random.Random) -> list[list[PlayerBoard]]:
    game = PRESETS[game_id]
    deck = list(DECK) + [JOKER] * game.jokers
    tables = []
    for _ in range(count):
        cards = rng.sample(deck, 39)
        tables.append(
            [
                PlayerBoard(
                    f"P{seat}",
                    tuple(cards[13 * seat : 13 * seat + 3]),
                    tuple(cards[13 * seat + 3 : 13 * seat + 8]),
                    tuple(cards[13 * seat + 8 : 13 * seat + 13]),
                )
                for seat in range(3)
            ]
        )
    return tables


def bench_tables(rng: random.Random) -> None:
    print("Random 3-player tables")
    print(f"  {'game':<14}{'tables/s':>12}{'us/table':>12}")
    for game_id, game in PRESETS.items():
        tables = random_tables(game_id, TABLES, rng)

        def run(game=game, tables=tables) -> None:
            for boards in tables:
                score_table(game, boards)

        seconds = best_of(3, run)
        print(f"  {game_id:<14}{len(tables) / seconds:>12,.0f}{seconds / len(tables) * 1e6:>12.1f}")


WORST_JOKERS = {
    "two jokers in the bottom": ("2c 3d 4h", "5c 5d 8h 9s Ts", "Ah Kd JK JK 2s"),
    "two jokers in the middle": ("Qs Qd 4h", "JK JK 8h 9s 2d", "Ah Kd Tc 3s 2s"),
    "two jokers on top": ("JK JK 4h", "5c 5d 8h 9s Ts", "Ah Kd Qc 3s 2s"),
    "jokers in top and middle": ("Qs JK 4h", "JK 5d 8h 9s Ts", "Ah Kd Qc 3s 2s"),
    "jokers in middle and bottom": ("2c 3d 4h", "9h 9d 9c 2s JK", "8s 8d 8c 3h JK"),
    "jokers that foul anyway": ("As Ad JK", "2c 3d 5h 7s 9c", "Kh Kd Ks 4c JK"),
}


def bench_worst_jokers() -> None:
    print("Worst joker tables (3 players; the others without jokers)")
    game = PRESETS["jokers"]
    for label, rows in WORST_JOKERS.items():
        used = {card for row in rows for card in parse_cards(row)}
        rest = [card for card in DECK if card not in used]
        boards = [PlayerBoard("J", *(parse_cards(row) for row in rows))]
        for seat in range(2):
            cards = rest[13 * seat : 13 * seat + 13]
            boards.append(
                PlayerBoard(f"P{seat}", tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))
            )
        repeat = REPEAT

        def run(boards=boards, repeat=repeat) -> None:
            for _ in range(repeat):
                score_table(game, boards)

        seconds = best_of(3, run) / repeat
        print(f"  {label:<30}{seconds * 1e3:>8.2f} ms/table")


def bench_evaluators(rng: random.Random) -> None:
    try:
        from treys import Card as TreysCard
        from treys import Evaluator
    except ImportError:
        print("treys is not installed: pip install treys")
        return
    hands = [rng.sample(DECK, 5) for _ in range(HANDS)]
    ours = [tuple(card.code for card in hand) for hand in hands]
    theirs = [[TreysCard.new(str(card)) for card in hand] for hand in hands]
    evaluator = Evaluator()
    # Same answers first: our keys rise exactly as treys' ranks fall.
    both = zip(ours, theirs, strict=True)
    pairs = sorted({(five_key(o), evaluator.evaluate(t, [])) for o, t in both})
    assert all(a[1] > b[1] for a, b in pairwise(pairs)), "evaluators disagree"

    def run_ours() -> None:
        for hand in ours:
            five_key(hand)

    def run_treys_public() -> None:
        evaluate = evaluator.evaluate
        for hand in theirs:
            evaluate(hand, [])

    def run_treys_five() -> None:
        five = evaluator._five  # treys' own five-card routine, without its dispatch
        for hand in theirs:
            five(hand)

    ours_rate = len(hands) / best_of(3, run_ours)
    public_rate = len(hands) / best_of(3, run_treys_public)
    five_rate = len(hands) / best_of(3, run_treys_five)
    print(f"Five-card evaluation, the same {len(hands):,} random hands")
    print(f"  ours                  {ours_rate:>12,.0f} hands/s")
    print(
        f"  treys evaluate()      {public_rate:>12,.0f} hands/s   ours / treys = "
        f"{ours_rate / public_rate:.2f}"
    )
    print(
        f"  treys _five()         {five_rate:>12,.0f} hands/s   ours / treys = "
        f"{ours_rate / five_rate:.2f}"
    )


def main() -> None:
    rng = random.Random(2024)
    bench_tables(rng)
    bench_worst_jokers()
    bench_evaluators(rng)


if __name__ == "__main__":
    main()
