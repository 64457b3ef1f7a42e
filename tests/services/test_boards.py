"""The card-entry services: a waiting board, counting the table, mixed rounds."""

import pytest
from django.db import IntegrityError, transaction

from scorekeeper.models import Entry, User, parse_board
from scorekeeper.services.boards import record_board
from scorekeeper.services.errors import Refused
from scorekeeper.services.round_fixes import undo_last_round
from tests.helpers import enter

A = parse_board({"top": "2c 3d 4h", "middle": "Qs Qd 5c 5d 9s", "bottom": "Ah Jh 8h 6h 3h"})
B = parse_board({"top": "Kc Kd 7s", "middle": "As Ad 9c 6d 2s", "bottom": "Ts Td 4s 4c Js"})


def seat_of(night, name):
    return night.seats.get(name=name)


def set_board(night, name, board, number=1, **extra):
    return record_board(
        night=night,
        round_number=number,
        seat=seat_of(night, name),
        board=board,
        entered_by=User.objects.get(name=name),
        **extra,
    )


def type_total(night, name, points, number=1):
    return enter(night, name, points, number=number)


def test_cards_for_a_round_that_went_through_are_refused_in_words_and_save_nothing(make_night):
    night = make_night(("Anna", "Bram"), game="pineapple")
    set_board(night, "Anna", A)
    assert set_board(night, "Bram", B).round_recorded
    kept = list(Entry.objects.order_by("pk").values())
    # Sent again (the answer to the first save lost, or a page left open): the words
    # say the round went through with these very cards.
    with pytest.raises(
        Refused, match=r"^Round 1 already went through, with your cards\. Round 2 is open\.$"
    ):
        set_board(night, "Bram", B)
    with pytest.raises(Refused, match=r"^Round 1 already went through: your cards were not used"):
        set_board(night, "Bram", {**B, "top": ["Kc", "Kd", "8s"]})
    assert list(Entry.objects.order_by("pk").values()) == kept


def test_a_board_sent_again_with_its_key_after_its_round_went_through_is_saved(make_night):
    night = make_night(("Anna", "Bram"), game="pineapple")
    set_board(night, "Anna", A)
    key = "0123456789abcdef0123"
    assert set_board(night, "Bram", B, key=key).round_recorded
    retry = set_board(night, "Bram", B, key=key)  # the same save: its answer was lost
    assert retry.entry.points == 3 and not retry.round_recorded


def test_a_waiting_board_never_lets_a_round_through_on_its_placeholder(make_night):
    night = make_night(("Anna", "Bram"), game="pineapple")
    saved = set_board(night, "Anna", A)
    assert saved.entry.awaiting_total and not saved.round_recorded
    # Bram's 0 would make the sum 0 with Anna's placeholder: the round must wait.
    assert not type_total(night, "Bram", 0).round_recorded
    assert not night.rounds.get(number=1).is_recorded


def test_two_boards_count_a_heads_up_round(make_night):
    night = make_night(("Anna", "Bram"), game="pineapple")
    set_board(night, "Anna", A)
    saved = set_board(night, "Bram", B)
    assert saved.round_recorded
    entries = {e.seat.name: e.points for e in Entry.objects.select_related("seat")}
    assert entries == {"Anna": -3, "Bram": 3}
    assert saved.entry.points == 3


def test_a_typed_total_keeps_the_cards_and_their_fantasyland(make_night):
    night = make_night(("Anna", "Bram"), game="pineapple")
    set_board(night, "Bram", B)
    type_total(night, "Bram", 5)
    entry = Entry.objects.get()
    assert entry.board == B and not entry.awaiting_total
    assert entry.fantasyland_made == "qq+"


def test_a_refused_board_saves_nothing_and_keeps_the_old_one(make_night):
    night = make_night(("Anna", "Bram"), game="pineapple")
    set_board(night, "Anna", A)
    set_board(night, "Bram", B)
    undo_last_round(night=night, by=User.objects.get(name="Anna"))
    clash = {**B, "top": ["Ah", "Kd", "7s"]}
    with pytest.raises(Refused, match="Ah appears twice: Anna's bottom, Bram's top"):
        set_board(night, "Bram", clash)
    assert Entry.objects.get(seat__name="Bram").board == B


def test_a_reopened_round_is_counted_again_when_a_board_changes(make_night):
    night = make_night(("Anna", "Bram"), game="pineapple")
    set_board(night, "Anna", A)
    set_board(night, "Bram", B)
    undo_last_round(night=night, by=User.objects.get(name="Anna"))
    weaker = {**B, "top": ["Kc", "Jd", "7s"]}  # no kings on top: no Fantasyland
    saved = set_board(night, "Bram", weaker)
    assert saved.round_recorded
    assert Entry.objects.get(seat__name="Bram").fantasyland_made == ""


@pytest.mark.database
def test_only_a_board_may_wait_for_its_total(make_night):
    night = make_night(("Anna", "Bram"), game="pineapple")
    type_total(night, "Anna", 4)
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.filter(seat__name="Anna").update(awaiting_total=True)


def test_a_deuce_board_stores_the_way_into_fantasyland_it_made(make_night):
    night = make_night(game="deuce")
    wheel = parse_board({"top": "Js Jh 2d", "middle": "7c 5d 4c 3d 2c", "bottom": "9s 9c 9h Qc Qd"})
    kings = parse_board({"top": "Ks Kh 3h", "middle": "8d 6h 4h 3c 2h", "bottom": "As Ad Ah Tc Td"})
    both = parse_board({"top": "Kc Kd 5s", "middle": "7s 5c 4s 3s 2s", "bottom": "8c 8h 8s 6c 6d"})
    # Stored at once while the board waits, and again when the table is counted.
    assert set_board(night, "Anna", wheel).entry.fantasyland_made == "wheel"
    assert set_board(night, "Bram", kings).entry.fantasyland_made == "kk+"
    assert set_board(night, "Chris", both).round_recorded
    made = dict(Entry.objects.values_list("seat__name", "fantasyland_made"))
    assert made == {"Anna": "wheel", "Bram": "kk+", "Chris": "both"}


def test_every_card_that_clashes_is_named(make_night):
    night = make_night(("Anna", "Bram"), game="pineapple")
    set_board(night, "Anna", A)
    clash = {**B, "top": ["Ah", "Qs", "7s"]}
    with pytest.raises(Refused) as refused:
        set_board(night, "Bram", clash)
    assert str(refused.value) == (
        "Ah appears twice: Anna's bottom, Bram's top; Qs appears twice: Anna's middle, Bram's top."
    )


def test_a_card_typed_twice_in_ones_own_row_says_so(make_night):
    night = make_night(("Anna", "Bram"), game="pineapple")
    with pytest.raises(Refused) as refused:
        set_board(night, "Anna", {**A, "top": ["2c", "2c", "4h"]})
    assert str(refused.value) == "2c is in Anna's top twice."


@pytest.mark.parametrize(
    ("game", "tops", "message"),
    [
        (
            "jokers",
            {"Bram": ["JK", "JK", "JK"]},
            "There are only 2 jokers in the deck; Bram's top has 3.",
        ),
        (
            "jokers",
            {"Anna": ["JK", "3d", "4h"], "Bram": ["JK", "JK", "7s"]},
            "There are only 2 jokers in the deck; Anna's top has 1 and Bram's top has 2.",
        ),
        (
            "ultimate",
            {"Bram": ["Kc", "Kd", "JK"]},
            "Progressive Ultimate is played without jokers; take the joker out of Bram's top.",
        ),
    ],
)
def test_joker_refusals_speak_to_the_table(make_night, game, tops, message):
    night = make_night(("Anna", "Bram"), game=game)
    if "Anna" in tops:
        set_board(night, "Anna", {**A, "top": tops["Anna"]})
    with pytest.raises(Refused) as refused:
        set_board(night, "Bram", {**B, "top": tops["Bram"]})
    assert str(refused.value) == message


def test_clashes_and_too_many_jokers_are_separate_sentences(make_night):
    night = make_night(("Anna", "Bram"), game="jokers")
    board = parse_board({"top": "JK JK JK", "middle": "2c 2c 4c 5c 6c", "bottom": "Ah Ad As Kc 7h"})
    with pytest.raises(Refused) as refused:
        set_board(night, "Anna", board)
    assert str(refused.value) == (
        "There are only 2 jokers in the deck; Anna's top has 3. 2c is in Anna's middle twice."
    )
