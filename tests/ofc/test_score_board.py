"""One board scored on its own, for the phone that just set it."""

import pytest

from scorekeeper.ofc import (
    PRESETS,
    OFCError,
    RepeatedCard,
    Row,
    TableError,
    TooManyJokers,
    score_board,
    score_table,
)

from .util import board, filler


def test_a_board_alone_matches_the_same_board_at_a_table():
    anna = board("Anna", "Kc Kd 7s", "As Ad 9c 6d 2s", "Ts Td 4s 4c Js")
    alone = score_board(PRESETS["pineapple"], anna)
    at_table = score_table(PRESETS["pineapple"], [anna, filler(anna)]).players[0]
    assert alone.rows == at_table.rows
    assert (alone.royalties, alone.fouled, alone.fantasyland) == (8, False, at_table.fantasyland)
    assert alone.points == 0


def test_a_fouled_board_alone_says_why():
    chris = board("Chris", "Qc Qh 2d", "7c 8d 9h Jd 2h", "6s 6c Kh Ks 3s")
    result = score_board(PRESETS["standard"], chris)
    assert result.fouled
    assert result.foul_reason == "the middle, high card, is weaker than the top, pair"
    assert result.royalties == 0 and result.fantasyland is None


def test_a_card_already_on_the_table_is_refused_naming_both_places():
    anna = board("Anna", "Qh Qc 3d", "Ts Js Qd Kc Ah", "7d 7c 7s 2h 2s")
    bram = board("Bram", "2c 5d 9h", "3s 3h 4d 4c 8s", "Ks Kh Kd 6c 7s")
    with pytest.raises(OFCError, match="7s appears twice: Anna bottom, Bram bottom"):
        score_board(PRESETS["standard"], bram, [anna])


def test_jokers_only_in_the_jokers_game_and_only_two_on_the_table():
    one = board("Anna", "Qs Qd JK", "2c 3c 4c 5c 6c", "Ah Ad As JK 7h")
    with pytest.raises(OFCError, match="jokers are only dealt in the jokers game"):
        score_board(PRESETS["ultimate"], one)
    result = score_board(PRESETS["jokers"], one)
    assert [str(card) for card in result.top.jokers] == ["Qh"]
    two = board("Bram", "JK 9d 9c", "2d 3d 4d 5d 7d", "Kh Kd Ks 8c 8d")
    with pytest.raises(OFCError, match="only 2 jokers"):
        score_board(PRESETS["jokers"], two, [one])


def test_a_joker_becomes_a_card_nobody_else_holds_when_that_is_as_good():
    holder = board("Anna", "Qh 2c 3d", "4h 5h 6h 7h 9s", "Ts Js Kd Kc Ks")
    pair = board("Bram", "Qs Qd JK", "2h 3h 4d 5c 7d", "Ah Ad As 8c 8d")
    result = score_board(PRESETS["jokers"], pair, [holder])
    assert [str(card) for card in result.top.jokers] == ["Qc"]


def test_an_incomplete_board_is_refused():
    short = board("Anna", "Qh Qc", "Ts Js Qd Kc Ah", "7d 7c 7s 2h 2s")
    with pytest.raises(OFCError, match="top needs 3 cards, got 2"):
        score_board(PRESETS["standard"], short)


def test_a_table_error_lists_every_problem_and_says_the_first_as_before():
    anna = board("Anna", "Qh Qc JK", "Ts Js Qd Kc Ah", "7d 7c 7s JK 2s")
    bram = board("Bram", "JK JK Qh", "3s 3h 4d 4c 8s", "Ks Kh Kd 6c Ah")
    with pytest.raises(TableError) as caught:
        score_board(PRESETS["jokers"], bram, [anna])
    # The message is the first problem in the engine's words, as the contract has it.
    assert str(caught.value) == "player 2 (Bram), top: there are only 2 jokers"
    jokers, queen, ace = caught.value.problems
    assert isinstance(jokers, TooManyJokers) and jokers.limit == 2
    assert [str(place) for place in jokers.places] == [
        "Anna top",
        "Anna bottom",
        "Bram top",
        "Bram top",
    ]
    assert isinstance(queen, RepeatedCard) and str(queen.card) == "Qh"
    assert [str(place) for place in queen.places] == ["Anna top", "Bram top"]
    assert isinstance(ace, RepeatedCard)
    assert [(place.seat, place.name, place.row) for place in ace.places] == [
        (1, "Anna", Row.MIDDLE),
        (2, "Bram", Row.BOTTOM),
    ]


def test_a_row_says_which_of_its_cards_a_joker_became():
    anna = board("Anna", "Qs JK Qd", "2c 3c 4c 5c 6c", "Ah Ad As JK 7h")
    result = score_board(PRESETS["jokers"], anna)
    assert [str(card) for card in result.top.cards] == ["Qs", "Qh", "Qd"]
    assert result.top.from_joker == (False, True, False)
    assert result.middle.from_joker == (False,) * 5
    assert result.bottom.from_joker == (False, False, False, True, False)
