"""The table's own house rules: its royalty amounts and its scoring system
(ofc-rules.md, "Royalties" and "Scoring systems"), and the score command's
``rules.royalties`` / ``rules.scoring``."""

import json
from dataclasses import replace
from pathlib import Path

import pytest

from scorekeeper.ofc import PRESETS, score_table
from scorekeeper.ofc.contract import run
from scorekeeper.ofc.royalties import STANDARD_ROYALTIES, royalty_table
from scorekeeper.ofc.rule_values import RuleError
from scorekeeper.ofc.scoring_systems import SYSTEMS, Scoring, scoring_system

from .util import board

DATA = Path(__file__).parent / "data"
HANDS = "pair, two pair, trips, straight, flush, full house, quads, straight flush, royal flush"
SECTIONS = "top_pair, top_trips, middle, bottom, low_middle"


def played(system: Scoring, *boards, game: str = "standard", royalties=None):
    rules = {"scoring": system.as_json()}
    if royalties is not None:
        rules["royalties"] = royalties
    return score_table(PRESETS[game].with_house_rules(rules), boards)


# Boards that pay no royalties, so a pair's points are its rows and bonuses alone.
A = board("A", "Ah Kd 2c", "Qs Qd 5h 6c 8s", "Ks Kc 7h 7d 9s")
WON_TOP_MIDDLE_LOST_BOTTOM = board("B", "Kh Qh 3c", "Js Jd 5c 6d 8h", "As Ac 7s 7c 9h")
A2 = board("A", "Ah 4d 2c", "Qs Qd 5h 6c 8s", "Ks Kc 7h 7d 9s")
WON_TOP_TIED_TWO = board("B", "Jh Th 3c", "Qc Qh 5c 6d 8h", "Kd Kh 7s 7c 9h")
WON_TOP_LOST_MIDDLE_TIED_BOTTOM = board("B", "Jh Th 3c", "Ac Ad 5c 6d 8h", "Kd Kh 7s 7c 9h")
SCOOPER = board("A", "Ah Kd 2c", "Qs Qd 5h 6c 8s", "As Ac 7h 7d 9s")
SCOOPED = board("B", "Kh Qh 3c", "Js Jd 5c 6d 8h", "Ks Kc 7s 7c 9h")
# A fouled board against one with a flush on the bottom (4 in the standard table).
FOULED = board("F", "Qh Qc 2d", "3s 4d 5h 7c 9s", "Ks Kh Kd 6c 6h")
FLUSH = board("S", "Jh Tc 3c", "Js Jd 5c 6d 8h", "2s 4s 7s Ts As")


@pytest.mark.parametrize(
    ("a", "b", "rows", "points"),
    [
        (A, WON_TOP_MIDDLE_LOST_BOTTOM, (1, 1, -1), 2),  # 2 - 1 + 1
        (A2, WON_TOP_TIED_TWO, (1, 0, 0), 2),  # 1 + 1
        (A2, WON_TOP_LOST_MIDDLE_TIED_BOTTOM, (1, -1, 0), 0),
        (SCOOPER, SCOOPED, (1, 1, 1), 4),
    ],
)
def test_the_examples_under_two_four(a, b, rows, points):
    pair = played(SYSTEMS["2-4"], a, b).pairs[0]
    assert pair.rows == rows
    assert pair.points == points
    assert pair.scoop == 0


@pytest.mark.parametrize(
    ("system", "win_two_of_three", "scoop", "foul_costs"),
    [
        ("1-6", 1, 6, 6 + 4),
        ("2-4", 2, 4, 4 + 4),
        ("1-1-1", 1, 3, 3 + 4),
    ],
)
def test_the_table_of_systems(system, win_two_of_three, scoop, foul_costs):
    rules = SYSTEMS[system]
    assert played(rules, A, WON_TOP_MIDDLE_LOST_BOTTOM).pairs[0].points == win_two_of_three
    assert played(rules, SCOOPER, SCOOPED).pairs[0].points == scoop
    foul = played(rules, FOULED, FLUSH)
    assert foul.pairs[0].rows == (-1, -1, -1)
    assert [p.points for p in foul.players] == [-foul_costs, foul_costs]


def test_a_tables_own_system_pays_its_scoop_and_majority():
    own = Scoring(scoop=5, majority=2)
    scoop = played(own, SCOOPER, SCOOPED).pairs[0]
    assert (scoop.scoop, scoop.majority, scoop.points) == (5, 2, 3 + 5 + 2)
    two = played(own, A, WON_TOP_MIDDLE_LOST_BOTTOM).pairs[0]
    assert (two.scoop, two.majority, two.points) == (0, 2, 1 + 2)
    foul = played(own, FOULED, FLUSH).pairs[0]  # 3 + S + M, plus the flush's 4
    assert (foul.scoop, foul.majority, foul.points) == (-5, -2, -14)


def test_two_fouled_boards_are_square_under_any_system():
    other = board("G", "Ah Ac 3h", "2h 4h 6d 8d Tc", "Jc Jh 9c 8c 5d")
    pair = played(Scoring(scoop=7, majority=4), FOULED, other).pairs[0]
    assert (pair.rows, pair.scoop, pair.majority, pair.points) == ((0, 0, 0), 0, 0, 0)


OWN_TABLE = {"top_pair": {"22": 3}, "bottom": {"trips": 2}}
DEUCES_AND_TRIPS = board("P", "2s 2h 5d", "3c 3d 7h 8s 9c", "Ks Kh Kd 4c 6s")


def test_a_custom_table_pays_deuces_on_top_and_trips_on_the_bottom():
    other = board("Z", "4h 5h 6h", "Ac Ad Tc Jd Qh", "As Ah 7s 7c 9h")
    standard = played(SYSTEMS["1-6"], DEUCES_AND_TRIPS, other)
    own = played(SYSTEMS["1-6"], DEUCES_AND_TRIPS, other, royalties=OWN_TABLE)
    assert [row.royalty for row in standard.players[0].rows] == [0, 0, 0]
    assert [row.royalty for row in own.players[0].rows] == [3, 0, 2]
    assert own.players[0].royalties == 5
    assert own.pairs[0].points - standard.pairs[0].points == 5


def test_a_fouled_board_earns_none_of_the_tables_own_amounts():
    fouled = board("P", "2c 2h 5d", "Ac Qd 7h 8s 9c", "Ks Kh Kd 4c 6s")  # middle below 22
    result = played(SYSTEMS["1-6"], fouled, FLUSH, royalties=OWN_TABLE)
    assert result.players[0].fouled
    assert [row.royalty for row in result.players[0].rows] == [0, 0, 0]
    assert result.players[1].points == 6 + 4


def test_fantasyland_does_not_follow_the_royalty_amounts():
    queens = board("P", "Qs Qh 5d", "Kc Kd 7h 8s 9c", "Ac Ah Ad 4c 6s")
    zero = {"top_pair": {"QQ": 0, "KK": 0, "AA": 0}, "top_trips": {"AAA": 0}}
    paid_for_sixes = {"top_pair": {"22": 50, "66": 40}}
    for game in ("standard", "progressive", "ultimate"):
        enters = played(ONE := SYSTEMS["1-6"], queens, FLUSH, game=game).players[0].fantasyland
        assert enters is not None
        assert (
            played(ONE, queens, FLUSH, game=game, royalties=zero).players[0].fantasyland == enters
        )
        sixes = board("P", "6s 6h 5d", "Kc Kd 7h 8s 9c", "Ac Ah Ad 4c 6c")
        assert (
            played(ONE, sixes, FLUSH, game=game, royalties=paid_for_sixes).players[0].fantasyland
            is None
        )
    stay = board("P", "5s 5h 5d", "Kc Kd Kh 8s 9c", "Ac Ah Ad 4c 6s", fantasyland=(14, 0))
    standard_stay = played(SYSTEMS["1-6"], stay, FLUSH, game="pineapple").players[0].fantasyland
    own_stay = (
        played(SYSTEMS["1-6"], stay, FLUSH, game="pineapple", royalties={"top_trips": {"555": 0}})
        .players[0]
        .fantasyland
    )
    assert standard_stay == own_stay is not None


def test_the_changes_of_a_table_read_back_as_the_same_changes():
    table = royalty_table(OWN_TABLE)
    assert table.changes_from(STANDARD_ROYALTIES) == OWN_TABLE
    assert table.as_json()["top_pair"]["AA"] == 9
    assert len(table.as_json()["middle"]) == 9  # every five-card hand, 0s included


def test_sections_a_game_never_pays_are_accepted_and_change_nothing():
    deuce_boards = (
        board("A", "Qs Qh 2d", "7s 5h 4d 3c 2s", "Ks Kd Kh 8c 8d"),
        board("B", "Js Jh 3d", "9s 8h 6d 4c 3s", "As Ad Ah Tc Td"),
    )
    plain = played(SYSTEMS["1-6"], *deuce_boards, game="deuce")
    middle = played(SYSTEMS["1-6"], *deuce_boards, game="deuce", royalties={"middle": {"pair": 9}})
    assert [p.points for p in middle.players] == [p.points for p in plain.players]
    low = played(SYSTEMS["1-6"], A, FLUSH, royalties={"low_middle": {"7": 99}})
    assert [p.points for p in low.players] == [
        p.points for p in played(SYSTEMS["1-6"], A, FLUSH).players
    ]


def test_the_two_seven_middle_pays_the_tables_own_amounts():
    wheel = board("A", "Qs Qh 2d", "7s 5h 4d 3c 2s", "Ks Kd Kh 8c 8d")
    other = board("B", "Js Jh 3d", "9s 8h 6d 4c 3s", "As Ad Ah Tc Td")
    result = played(SYSTEMS["1-6"], wheel, other, game="deuce", royalties={"low_middle": {"7": 10}})
    assert result.players[0].middle.royalty == 10


SCORED = {
    "variant": "standard",
    "players": [
        {"name": "A", "top": "Ah Kd 2c", "middle": "Qs Qd 5h 6c 8s", "bottom": "Ks Kc 7h 7d 9s"},
        {"name": "B", "top": "Kh Qh 3c", "middle": "Js Jd 5c 6d 8h", "bottom": "As Ac 7s 7c 9h"},
    ],
}


def test_the_command_takes_the_tables_rules_and_shows_the_majority():
    hand = {
        **SCORED,
        "rules": {"scoring": {"scoop": 0, "majority": 1}, "royalties": {"top_pair": {"AA": 12}}},
    }
    out = run(json.dumps(hand))
    assert (out.status, out.stderr) == (0, "")
    pair = json.loads(out.stdout)["pairs"][0]
    assert pair == {
        "players": ["A", "B"],
        "rows": [1, 1, -1],
        "scoop": 0,
        "majority": 1,
        "royalties": 0,
        "points": 2,
    }


def test_a_bonus_left_out_keeps_its_default():
    assert scoring_system({"majority": 1}) == Scoring(scoop=3, majority=1)
    assert scoring_system({}) == SYSTEMS["1-6"]


def test_without_the_new_rules_the_command_prints_what_it_did_but_for_majority_zero():
    out = run((DATA / "hands_without_house_rules.json").read_text())
    before = (DATA / "scored_before_house_rules.json").read_text()
    lines = out.stdout.splitlines(keepends=True)
    majority = [line for line in lines if '"majority"' in line]
    assert majority and all(line.strip() == '"majority": 0,' for line in majority)
    assert "".join(line for line in lines if '"majority"' not in line) + "\n" == before


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (
            {"royalties": 5},
            'rule "royalties" must be an object of changes to the standard table, got 5',
        ),
        (
            {"royalties": []},
            'rule "royalties" must be an object of changes to the standard table, got []',
        ),
        (
            {"royalties": {"top": {}}},
            'rule "royalties": unknown section "top"; the sections are ' + SECTIONS,
        ),
        (
            {"royalties": {"top_pair": 9}},
            'rule "royalties", top_pair must be an object of amounts, got 9',
        ),
        (
            {"royalties": {"top_pair": {"1010": 5}}},
            'rule "royalties", top_pair: unknown key "1010"; the keys are 22 to AA',
        ),
        (
            {"royalties": {"top_pair": {"qq": 5}}},
            'rule "royalties", top_pair: unknown key "qq"; the keys are 22 to AA',
        ),
        (
            {"royalties": {"top_trips": {"AA": 5}}},
            'rule "royalties", top_trips: unknown key "AA"; the keys are 222 to AAA',
        ),
        (
            {"royalties": {"low_middle": {"6": 5}}},
            'rule "royalties", low_middle: unknown key "6"; the keys are 7 to 10',
        ),
        (
            {"royalties": {"middle": {"high card": 1}}},
            'rule "royalties", middle: unknown key "high card"; the keys are ' + HANDS,
        ),
        (
            {"royalties": {"bottom": {"Full House": 1}}},
            'rule "royalties", bottom: unknown key "Full House"; the keys are ' + HANDS,
        ),
        (
            {"royalties": {"top_pair": {"AA": 2.5}}},
            'rule "royalties", top_pair, "AA": must be a whole number from 0 to 999, got 2.5',
        ),
        (
            {"royalties": {"top_pair": {"AA": "5"}}},
            'rule "royalties", top_pair, "AA": must be a whole number from 0 to 999, got "5"',
        ),
        (
            {"royalties": {"top_pair": {"AA": [5]}}},
            'rule "royalties", top_pair, "AA": must be a whole number from 0 to 999, got [5]',
        ),
        (
            {"royalties": {"middle": {"flush": -1}}},
            'rule "royalties", middle, "flush": must be a whole number from 0 to 999, got -1',
        ),
        (
            {"royalties": {"middle": {"flush": 1000}}},
            'rule "royalties", middle, "flush": must be a whole number from 0 to 999, got 1000',
        ),
        (
            {"royalties": {"middle": {"flush": True}}},
            'rule "royalties", middle, "flush": must be a whole number from 0 to 999, got true',
        ),
        (
            {"royalties": {"middle": {"flush": None}}},
            'rule "royalties", middle, "flush": must be a whole number from 0 to 999, got null',
        ),
        (
            {"scoring": "2-4"},
            'rule "scoring" must be an object {"scoop": S, "majority": M}, got "2-4"',
        ),
        (
            {"scoring": {"scoop": 11}},
            'rule "scoring", "scoop": must be a whole number from 0 to 10, got 11',
        ),
        (
            {"scoring": {"majority": -1}},
            'rule "scoring", "majority": must be a whole number from 0 to 10, got -1',
        ),
        (
            {"scoring": {"majority": 1.0}},
            'rule "scoring", "majority": must be a whole number from 0 to 10, got 1.0',
        ),
        (
            {"scoring": {"scoop": False}},
            'rule "scoring", "scoop": must be a whole number from 0 to 10, got false',
        ),
        (
            {"scoring": {"bonus": 1}},
            'rule "scoring": unknown key "bonus"; the keys are scoop, majority',
        ),
    ],
)
def test_every_invalid_rules_object_is_refused_in_one_line(rules, message):
    out = run(json.dumps({**SCORED, "rules": rules}))
    assert (out.status, out.stdout, out.stderr) == (2, "", message)
    with pytest.raises(RuleError):
        PRESETS["standard"].with_house_rules(rules)


def test_an_invalid_rule_in_an_array_is_an_error_in_its_place():
    hands = [{**SCORED, "rules": {"scoring": {"scoop": 11}}}, SCORED]
    out = run(json.dumps(hands))
    first, second = json.loads(out.stdout)
    assert first == {
        "error": 'rule "scoring", "scoop": must be a whole number from 0 to 10, got 11'
    }
    assert second["pairs"][0]["majority"] == 0


def test_a_house_rule_is_data_on_the_game_not_a_branch_in_the_scoring():
    game = PRESETS["pineapple"].with_house_rules({"scoring": {"scoop": 0, "majority": 1}})
    assert game == replace(PRESETS["pineapple"], scoring=Scoring(0, 1))
    assert game.scoring.name == "2-4" and Scoring(5, 2).name == ""
