"""Entering and staying in Fantasyland, per preset, from the boards and by hand."""

from dataclasses import replace

import pytest

from scorekeeper.ofc import (
    PRESETS,
    FantasylandState,
    OFCError,
    entry_option,
    next_fantasyland,
    score_board,
    score_table,
)

from .util import board, filler

# Legal boards with a given top; the middle and bottom have no stay hands.
TOPS = {
    "JJ": "Js Jh 2d",
    "QQ": "Qs Qh 2d",
    "KK": "Ks Kh 2d",
    "AA": "As Ah 2d",
    "trips": "3s 3h 3d",
}


def top_board(top: str, fantasyland=None, middle="4c 5d 6c 7d 8h", bottom="9s 9c 9h Kc Kd"):
    return board("P", TOPS.get(top, top), middle, bottom, fantasyland)


def next_state(game, b, rules=None):
    game = replace(PRESETS[game], **(rules or {}))
    return score_table(game, [b, filler(b)]).players[0].fantasyland


@pytest.mark.parametrize(
    ("game", "top", "cards"),
    [
        ("standard", "JJ", None),
        ("standard", "QQ", 13),
        ("standard", "AA", 13),
        ("standard", "trips", 13),
        ("standard-nofl", "AA", None),
        ("pineapple", "QQ", 14),
        ("pineapple", "trips", 14),
        ("progressive", "JJ", None),
        ("progressive", "QQ", 14),
        ("progressive", "KK", 15),
        ("progressive", "AA", 16),
        ("progressive", "trips", 17),
        ("ultimate", "QQ", 14),
        ("ultimate", "trips", 17),
        ("deuce", "QQ", None),
        ("deuce", "KK", 14),
        ("deuce", "AA", 14),
        ("deuce", "trips", 14),
    ],
)
def test_entry_from_the_top(game, top, cards):
    if game == "deuce":
        b = top_board(top, middle="9d 8d 6c 4d 3c")
    else:
        b = top_board(top)
    expected = FantasylandState(cards, 0) if cards else None
    assert next_state(game, b) == expected


def test_deuce_entry_with_a_wheel_middle_and_both_at_once():
    assert next_state("deuce", top_board("JJ", middle="7c 5d 4c 3d 2c")) == FantasylandState(14)
    assert next_state("deuce", top_board("KK", middle="7c 5d 4c 3d 2c")) == FantasylandState(15)
    # 8-5-4-3-2 is a fine low but not the wheel.
    assert next_state("deuce", top_board("JJ", middle="8c 5d 4c 3d 2c")) is None


def test_a_fouled_board_never_enters_or_stays():
    fouled = top_board("AA", middle="Ks Kh 8c 7d 4c")
    assert next_state("progressive", fouled) is None
    assert next_state("progressive", replace(fouled, fantasyland=FantasylandState(14))) is None


def test_queens_on_top_do_not_keep_a_player_in_fantasyland():
    assert next_state("standard", top_board("QQ", (13, 0))) is None
    assert next_state("progressive", top_board("AA", (16, 0))) is None


@pytest.mark.parametrize(
    ("game", "current", "expected"),
    [
        ("standard", (13, 0), (13, 1)),
        ("standard", (13, 7), (13, 8)),  # no limit
        ("pineapple", (14, 0), (14, 1)),
        ("progressive", (17, 0), (14, 1)),  # stays are 14, the count never grows
        ("progressive", (14, 2), (14, 3)),
        ("ultimate", (16, 0), (16, 1)),  # ultimate keeps the count it entered with
        ("ultimate", (15, 2), (15, 3)),
        ("ultimate", (17, 3), None),  # the fourth Fantasyland hand in a row is the last
        ("jokers", (14, 3), None),
        ("deuce", (15, 0), (14, 1)),
    ],
)
def test_stay_with_trips_on_top(game, current, expected):
    b = top_board("trips", current)
    if game == "deuce":
        b = top_board("trips", current, middle="9d 8d 6c 4d 2c")
    assert next_state(game, b) == (FantasylandState(*expected) if expected else None)


def test_stay_with_quads_or_better_on_the_bottom():
    quads = top_board("2c 4h 5s", (14, 0), middle="Ac Ad 8c 8d 4c", bottom="9s 9c 9h 9d 5d")
    assert next_state("pineapple", quads) == FantasylandState(14, 1)
    full = top_board("2c 4h 5s", (14, 0), middle="Ac Ad 8c 8d 4c", bottom="9s 9c 9h 5c 5d")
    assert next_state("pineapple", full) is None


def test_the_classic_full_house_middle_stay():
    b = top_board("2c 4h 5s", (13, 0), middle="8c 8d 8h 4c 4d", bottom="Ks Kd Kh 3s 3h")
    assert next_state("standard", b) == FantasylandState(13, 1)
    assert next_state("standard", b, {"stay_full_house_middle": False}) is None
    b14 = replace(b, fantasyland=FantasylandState(14, 0))
    assert next_state("pineapple", b14) is None
    assert next_state("pineapple", b14, {"stay_full_house_middle": True}) == FantasylandState(14, 1)


def test_the_wheel_middle_stay_is_a_deuce_house_rule():
    b = top_board("2d 4h 9s", (14, 0), middle="7c 5d 4c 3d 2c", bottom="Ks Qs Js Ts 3s")
    assert next_state("deuce", b) is None
    assert next_state("deuce", b, {"stay_wheel_middle": True}) == FantasylandState(14, 1)


def test_house_rules_switch_fantasyland_off_and_change_the_stay_limit():
    assert next_state("progressive", top_board("AA"), {"fantasyland": False}) is None
    b = top_board("trips", (16, 3))
    assert next_state("ultimate", b, {"stay_limit": None}) == FantasylandState(16, 4)
    assert next_state("pineapple", top_board("trips", (14, 1)), {"stay_limit": 1}) is None


def test_entry_options_for_forms():
    def options(game):
        return [(o.id, o.cards) for o in PRESETS[game].entry_options]

    assert options("standard") == [("qq+", 13)]
    assert options("standard-nofl") == []
    assert options("pineapple") == [("qq+", 14)]
    assert options("progressive") == [("qq", 14), ("kk", 15), ("aa", 16), ("trips", 17)]
    assert options("jokers") == options("ultimate") == options("progressive")
    assert options("deuce") == [("kk+", 14), ("wheel", 14), ("both", 15)]


def test_next_fantasyland_from_manual_entry():
    progressive, ultimate = PRESETS["progressive"], PRESETS["ultimate"]
    assert next_fantasyland(progressive, None, entry="aa") == FantasylandState(16, 0)
    assert next_fantasyland(progressive, None, entry=None) is None
    option = PRESETS["deuce"].entry_options[2]
    assert next_fantasyland(PRESETS["deuce"], None, entry=option) == FantasylandState(15, 0)
    # In Fantasyland only a stay counts, and the count never grows.
    assert next_fantasyland(progressive, FantasylandState(17, 0), entry="trips") is None
    assert next_fantasyland(progressive, FantasylandState(17, 0), stayed=True) == FantasylandState(
        14, 1
    )
    assert next_fantasyland(ultimate, FantasylandState(15, 2), stayed=True) == FantasylandState(
        15, 3
    )
    assert next_fantasyland(ultimate, FantasylandState(15, 3), stayed=True) is None
    assert next_fantasyland(PRESETS["standard-nofl"], None, entry="qq+") is None
    with pytest.raises(OFCError, match='"kk" is not a way into Fantasyland in standard'):
        next_fantasyland(PRESETS["standard"], None, entry="kk")


@pytest.mark.parametrize(
    ("game", "current", "expected"),
    [
        # "cards on a stay" is a fixed count outside ultimate and jokers,
        # whatever count the hand was played with.
        ("pineapple", (13, 0), (14, 1)),
        ("progressive", (13, 1), (14, 2)),
        ("deuce", (13, 0), (14, 1)),
        ("standard", (14, 0), (13, 1)),
        ("progressive", (16, 0), (14, 1)),
        # ultimate and jokers keep the count the streak was entered with
        ("ultimate", (13, 0), (13, 1)),
        ("jokers", (17, 2), (17, 3)),
    ],
)
def test_a_stay_deals_the_presets_fixed_count(game, current, expected):
    b = top_board("trips", current)
    if game == "deuce":
        b = top_board("trips", current, middle="9d 8d 6c 4d 2c")
    assert next_state(game, b) == FantasylandState(*expected)
    assert next_fantasyland(PRESETS[game], FantasylandState(*current), stayed=True) == (
        FantasylandState(*expected)
    )


@pytest.mark.parametrize(
    ("game", "top", "middle", "option"),
    [
        ("deuce", "KK", "9d 8d 6c 4d 3c", "kk+"),
        ("deuce", "JJ", "7c 5d 4c 3d 2c", "wheel"),
        ("deuce", "AA", "7c 5d 4c 3d 2c", "both"),
        ("deuce", "QQ", "9d 8d 6c 4d 3c", None),
        ("deuce", "AA", "Ks Kh 8c 7d 4c", None),  # the middle is no low: a foul
        ("progressive", "AA", "4c 5d 6c 7d 8h", "aa"),
        ("progressive", "trips", "4c 5d 6c 7d 8h", "trips"),
        ("standard-nofl", "AA", "4c 5d 6c 7d 8h", None),
    ],
)
def test_entry_option_names_the_way_in_a_board_made(game, top, middle, option):
    rules = PRESETS[game]
    result = score_board(rules, top_board(top, middle=middle))
    made = entry_option(rules, result)
    assert (made.id if made else None) == option
    # The engine's own Fantasyland is that option's count.
    assert result.fantasyland == (FantasylandState(made.cards) if made else None)
