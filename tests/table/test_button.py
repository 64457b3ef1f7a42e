"""The dealer button and Fantasyland progression, as pure functions over long sequences."""

import random
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.ofc import FantasylandState as Fantasyland
from scorekeeper.ofc import next_fantasyland
from scorekeeper.ofc.games import PRESETS
from scorekeeper.table.button import at_or_after, next_clockwise, next_dealer


def play(hands: list[bool], *, hold: bool, seats=(1, 2, 3), first=1) -> list[int]:
    """Dealers of hands 1..n+1 when hands[i] says whether anyone plays hand i+2 in FL."""
    dealers = [first]
    in_fantasyland = False
    for fantasyland_next in hands:
        dealers.append(
            next_dealer(
                seats,
                dealers[-1],
                fantasyland_next=fantasyland_next,
                fantasyland_this=in_fantasyland,
                hold=hold,
            )
        )
        in_fantasyland = fantasyland_next
    return dealers


def test_the_rules_example_default_button():
    # A deals hand 1; B makes Fantasyland in hand 1 and does not stay.
    assert play([True, False], hold=False) == [1, 1, 2]


def test_the_rules_example_hold_button():
    assert play([True, False, False], hold=True) == [1, 1, 1, 2]


def test_without_fantasyland_the_button_goes_round_the_table():
    assert play([False] * 7, hold=False) == [1, 2, 3, 1, 2, 3, 1, 2]
    assert play([False] * 7, hold=True) == [1, 2, 3, 1, 2, 3, 1, 2]


def test_a_long_fantasyland_streak_keeps_the_button():
    assert play([True, True, True, False, False], hold=False) == [1, 1, 1, 1, 2, 3]
    assert play([True, True, True, False, False], hold=True) == [1, 1, 1, 1, 1, 2]


@pytest.mark.parametrize(
    ("hands", "default_button", "hold_button"),
    [
        # Hands 2, 3, ...: "F" when someone plays that hand in Fantasyland.
        ("-F--", [1, 2, 2, 3, 1], [1, 2, 2, 2, 3]),
        ("F-F-", [1, 1, 2, 2, 3], [1, 1, 1, 1, 1]),
        ("FF---", [1, 1, 1, 2, 3, 1], [1, 1, 1, 1, 2, 3]),
        ("--FF-", [1, 2, 3, 3, 3, 1], [1, 2, 3, 3, 3, 3]),
    ],
)
def test_the_button_through_fantasyland_patterns(hands, default_button, hold_button):
    fantasyland = [hand == "F" for hand in hands]
    assert play(fantasyland, hold=False) == default_button
    assert play(fantasyland, hold=True) == hold_button


@given(st.lists(st.booleans(), max_size=60), st.booleans())
def test_the_button_stays_for_fantasyland_and_never_skips_a_seat(hands, hold):
    dealers = play(hands, hold=hold)
    for fantasyland, (before, after) in zip(hands, pairwise(dealers), strict=True):
        assert after in (before, before % 3 + 1)  # seats 1, 2, 3 clockwise
        if fantasyland:
            assert after == before


def test_the_button_skips_empty_seats():
    assert next_clockwise([1, 3, 4], 1) == 3
    assert next_clockwise([1, 3, 4], 4) == 1
    assert at_or_after([1, 3, 4], 2) == 3  # the dealer's seat emptied: the next one deals
    assert next_dealer([2, 3], 1, fantasyland_next=True, fantasyland_this=False, hold=False) == 2


@pytest.mark.parametrize(
    ("game_id", "made", "cards"),
    [
        ("standard", "qq+", 13),
        ("pineapple", "qq+", 14),
        ("progressive", "qq", 14),
        ("progressive", "kk", 15),
        ("progressive", "aa", 16),
        ("progressive", "trips", 17),
        ("ultimate", "trips", 17),
        ("jokers", "aa", 16),
        ("deuce", "kk+", 14),
        ("deuce", "wheel", 14),
        ("deuce", "both", 15),
    ],
)
def test_every_game_deals_its_fantasyland_card_count(game_id, made, cards):
    game = PRESETS[game_id]
    assert next_fantasyland(game, None, entry=made, stayed=False) == Fantasyland(cards, 0)


def test_no_fantasyland_in_the_game_without_it():
    game = PRESETS["standard-nofl"]
    assert game.entry_options == ()
    assert next_fantasyland(game, None, entry="qq+", stayed=False) is None


@pytest.mark.parametrize(
    ("game_id", "entered", "stay"),
    [
        ("progressive", 17, 14),
        ("pineapple", 14, 14),
        ("standard", 13, 13),
        ("ultimate", 16, 16),
        ("jokers", 15, 15),
        ("deuce", 15, 14),
    ],
)
def test_a_stay_deals_the_games_stay_count_and_never_grows(game_id, entered, stay):
    game = PRESETS[game_id]
    after = next_fantasyland(game, Fantasyland(entered, 0), stayed=True)
    assert after == Fantasyland(stay, 1)


def test_queens_during_fantasyland_do_not_keep_you_there():
    game = PRESETS["progressive"]
    assert next_fantasyland(game, Fantasyland(14, 0), entry="qq", stayed=False) is None


def test_ultimate_allows_three_stays_in_a_row_at_most():
    game = PRESETS["ultimate"]
    state = next_fantasyland(game, None, entry="kk", stayed=False)
    hands = 0
    while state is not None:
        hands += 1
        state = next_fantasyland(game, state, entry=None, stayed=True)
    assert hands == 4  # entered, then three stays


def test_no_stay_limit_means_the_streak_goes_on():
    game = PRESETS["pineapple"].with_house_rules({})
    state = Fantasyland(14, 0)
    for _ in range(50):
        state = next_fantasyland(game, state, entry=None, stayed=True)
    assert state == Fantasyland(14, 50)


def test_a_house_stay_limit_applies_to_any_game():
    game = PRESETS["pineapple"].with_house_rules({"stay_limit": 1})
    state = next_fantasyland(game, Fantasyland(14, 0), stayed=True)
    assert state == Fantasyland(14, 1)
    assert next_fantasyland(game, state, entry=None, stayed=True) is None


def test_long_random_nights_keep_every_seat_consistent():
    rng = random.Random(7)
    game = PRESETS["ultimate"]
    states: dict[int, Fantasyland | None] = {1: None, 2: None, 3: None}
    for _ in range(500):
        for seat, state in states.items():
            made = rng.choice(["", "", "", "qq", "kk", "aa", "trips"])
            stayed = rng.random() < 0.5
            claim = {"made": made if state is None else "", "stayed": stayed and state is not None}
            after = next_fantasyland(
                game, state, entry=claim["made"] or None, stayed=claim["stayed"]
            )
            if state is not None and after is not None:
                assert after.cards == state.cards and after.stays == state.stays + 1
                assert after.stays <= 3
            states[seat] = after
