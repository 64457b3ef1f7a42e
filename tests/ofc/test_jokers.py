"""Joker OFC: what the jokers become, checked against a brute force."""

from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.ofc import DECK, JOKER, PRESETS, OFCError, hand_key
from scorekeeper.ofc.jokers import resolve
from tests.examples import examples

from .util import alone, board, score

JOKERS = PRESETS["jokers"]


def became(row) -> list[str]:
    return [str(card) for card in row.jokers]


def test_a_joker_completes_the_best_hand():
    p = alone("jokers", board("P", "2c 3d 4h", "5c 5d 8h 9s Ts", "Ah Ad As 7h JK"))
    assert p.bottom.hand == "quads"
    assert became(p.bottom) == ["Ac"]
    assert [str(c) for c in p.bottom.cards] == ["Ah", "Ad", "As", "7h", "Ac"]


def test_two_jokers_in_a_row_become_two_different_cards():
    p = alone("jokers", board("P", "2c 3d 4h", "5c 5d 8h 9s Ts", "Ah Ad JK JK 2s"))
    assert p.bottom.hand == "quads"
    assert sorted(became(p.bottom)) == ["Ac", "As"]
    royal = alone("jokers", board("P", "2c 3d 4h", "5c 5d 8h 9s Ts", "As Ks Qs JK JK"))
    assert royal.bottom.hand == "royal flush"
    assert sorted(became(royal.bottom)) == ["Js", "Ts"]


def test_a_joker_copies_no_card_of_its_own_row_but_may_copy_any_other():
    # Trips on top from one joker: the two other aces.
    p = alone("jokers", board("P", "Ah Ad JK", "5c 5d 5h 9s 9c", "Kh Kd Ks Kc 2s"))
    assert became(p.top)[0] in ("As", "Ac")
    # The royal needs the As, which sits in the opponent's bottom.
    mine = board("P", "2c 3d 4h", "5c 5d 8h 9s 9c", "Ks Qs Js Ts JK")
    theirs = board("O", "2d 3h 4s", "6c 6d 7h 7s 8c", "As Ad Ac 2h 2s")
    result = score("jokers", mine, theirs)
    assert result.players[0].bottom.hand == "royal flush"
    assert became(result.players[0].bottom) == ["As"]


def test_jokers_avoid_a_foul_when_they_can():
    # Queens and a joker would make trips on top, above the kings in the middle.
    p = alone("jokers", board("P", "Qs Qd JK", "Kh Kd 4c 5c 8s", "7h 7d 7c 2c 2d"))
    assert not p.fouled
    assert p.top.hand == "pair"
    assert became(p.top)[0][0] == "A"  # the strongest top that stays legal: Q-Q-A


def test_the_bottom_first_then_the_middle():
    # The middle joker could make quad nines, but the bottom can only reach
    # quad eights, so the middle settles for nines full.
    p = alone("jokers", board("P", "2c 3d 4h", "9h 9d 9c 2s JK", "8s 8d 8c 3h JK"))
    assert not p.fouled
    assert (p.middle.hand, p.bottom.hand) == ("full house", "quads")
    assert became(p.bottom) == ["8h"]
    assert p.middle.royalty == 12 and p.bottom.royalty == 10


def test_a_board_that_fouls_whatever_the_jokers_become():
    p = alone("jokers", board("P", "As Ad JK", "2c 3d 5h 7s 9c", "Kh Kd Ks 4c JK"))
    assert p.fouled
    assert p.royalties == 0
    assert p.fantasyland is None
    assert p.top.hand == "trips"  # each row shows the most it could make


def test_joker_hands_count_for_royalties_and_fantasyland():
    p = alone("jokers", board("P", "Ks JK 2d", "Ah Ad 8c 8d 4c", "9s 9c 9h 5c 5d"))
    assert p.top.hand == "pair" and p.top.royalty == 8
    assert p.fantasyland is not None and p.fantasyland.cards == 15


def test_jokers_are_counted_on_the_whole_table():
    with pytest.raises(OFCError, match="there are only 2 jokers"):
        score(
            "jokers",
            board("P", "JK JK 2d", "Ah Ad 8c 8d 4c", "9s 9c 9h 5c 5d"),
            board("O", "JK 3h 4s", "6c 6d 7h 7s 8h", "Ks Kd Kc 2h 2s"),
        )
    with pytest.raises(OFCError, match="jokers are only dealt in the jokers game"):
        alone("standard", board("P", "JK 3h 4s", "6c 6d 7h 7s 8h", "Ks Kd Kc 2h 2s"))


# --- against a brute force -------------------------------------------------


def brute_force(rows):
    """Try every substitution; return the best (legal, bottom, middle, top) keys."""
    choices = []
    for row in rows:
        fixed = [card for card in row if not card.is_joker]
        free = [card for card in DECK if card not in fixed]
        jokers = len(row) - len(fixed)
        choices.append([fixed + list(c) for c in combinations(free, jokers)])
    best = None
    for top, middle, bottom in product(*choices):
        t, m, b = hand_key(top), hand_key(middle), hand_key(bottom)
        rank = (t <= m <= b, b, m, t) if t <= m <= b else (False, 0, 0, 0)
        if best is None or rank > best:
            best = rank
    return best


@st.composite
def joker_boards(draw):
    cards = draw(st.permutations(DECK))[:13]
    jokers = draw(st.sampled_from([[0], [10], [3, 8], [0, 12], [0, 1], [3, 4], [8, 9]]))
    cards = [JOKER if i in jokers else card for i, card in enumerate(cards)]
    if draw(st.booleans()):  # make legal boards more likely: stronger row at the bottom
        middle, bottom = cards[3:8], cards[8:]
        if JOKER not in cards[3:] and hand_key(middle) > hand_key(bottom):
            cards[3:8], cards[8:] = bottom, middle
    return cards[:3], cards[3:8], cards[8:]


@settings(max_examples=examples(30), deadline=None)
@given(joker_boards())
def test_the_search_finds_what_a_brute_force_finds(rows):
    keys, _ = resolve(JOKERS, rows, used=set())
    t, m, b = keys
    expected = brute_force(rows)
    if expected[0]:
        assert (True, b, m, t) == expected
    else:
        assert not t <= m <= b
