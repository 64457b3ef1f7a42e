"""The engine's words at the app's boundary: the same facts as the engine says them.

`scorekeeper.terms` names hands and fouls again, from the keys the engine scored, so
that gettext can say them in Dutch and Chinese; in English it must say exactly what
the engine says.
"""

import random
from itertools import combinations

import pytest
from django.utils import translation

from scorekeeper import terms
from scorekeeper.ofc import DECK, PRESETS, PlayerBoard, score_board
from scorekeeper.ofc.evaluate import describe, five_key, top_key

GAMES = ["standard", "pineapple", "deuce", "jokers"]


def random_boards(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        cards = rng.sample(DECK, 13)
        yield PlayerBoard("Anna", tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))


@pytest.fixture
def english():
    with translation.override("en"):
        yield


def test_every_five_and_three_card_hand_is_described_as_the_engine_does(english):
    rng = random.Random(7)
    for _ in range(1500):
        five = [card.code for card in rng.sample(DECK, 5)]
        assert terms.describe(five_key(five)) == describe(five_key(five))
    for three in combinations(DECK[::3], 3):
        codes = [card.code for card in three]
        assert terms.describe(top_key(codes)) == describe(top_key(codes))


@pytest.mark.parametrize("game", GAMES)
def test_a_boards_rows_and_foul_are_said_as_the_engine_says_them(english, game):
    fouled = 0
    for board in random_boards(250, seed=len(game)):
        result = score_board(PRESETS[game], board)
        assert [terms.row_description(row) for row in result.rows] == [
            row.description for row in result.rows
        ]
        assert terms.foul_reason(result) == (result.foul_reason or "")
        fouled += result.fouled
    assert fouled > 30  # random boards foul often: the foul sentences were compared


def test_every_game_option_and_row_has_its_translatable_name(english):
    for game in PRESETS.values():
        assert game.id in terms.GAME_NAMES
        assert terms.game_name(game) == game.name
        for option in game.entry:
            assert option.label in terms.ENTRY_LABELS
    assert [terms.row_name(row) for row in ("top", "middle", "bottom")] == [
        "top",
        "middle",
        "bottom",
    ]


@pytest.mark.parametrize(
    ("language", "pair", "foul"),
    [
        ("nl", "paar heren, aas als kicker", "de middenrij (paar heren, vrouw-boer-negen"),
        ("zh-hans", "一对 K，踢脚 A", "中道（一对 K，踢脚 Q-J-9）比头道（一对 K，踢脚 A）小"),
    ],
)
def test_hands_and_fouls_in_dutch_and_chinese(language, pair, foul):
    board = PlayerBoard.parse("Anna", "Kh Kd Ac", "Ks Kc Qd Jh 9s", "2c 3c 4c 5c 6c")
    result = score_board(PRESETS["standard"], board)
    with translation.override(language):
        assert terms.row_description(result.top) == pair
        assert terms.foul_reason(result).startswith(foul)
        assert (
            terms.game_name(PRESETS["pineapple"])
            == {"nl": "Pineapple", "zh-hans": "大菠萝"}[language]
        )
