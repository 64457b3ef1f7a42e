"""Rounds through their services: entries, the zero-sum check, corrections and undo,
Fantasyland and the button."""

import pytest

from scorekeeper.models import Entry, Night, RoundEdit, User
from scorekeeper.reads.owed import owed_across_nights
from scorekeeper.services.errors import Refused
from scorekeeper.services.payments import mark_paid, pay_owed, undo_owed_payment, unmark_paid
from scorekeeper.services.round_fixes import undo_last_round
from scorekeeper.services.rounds import record_entry
from scorekeeper.table.people import person_key
from tests.helpers import enter, finish, fix_round, open_round, play, play_round, seats_of


def test_a_round_goes_through_when_totals_sum_to_zero(make_night):
    night = make_night()
    assert not enter(night, "Anna", 7).round_recorded
    assert not enter(night, "Bram", 17).round_recorded
    assert enter(night, "Chris", -24).round_recorded
    first = night.rounds.get(number=1)
    assert first.is_recorded and first.recorded_sum == 0
    assert open_round(night).number == 2


def test_totals_that_do_not_add_up_stay_open_and_editable(make_night):
    night = make_night()
    play_round(night, {"Anna": 7, "Bram": 17, "Chris": -21})
    assert open_round(night).number == 1
    assert enter(night, "Chris", -24).round_recorded


def test_saving_the_same_entry_twice_records_one_entry(make_night):
    night = make_night()
    enter(night, "Anna", 5)
    version = type(night).objects.get(pk=night.pk).version
    enter(night, "Anna", 5)
    assert Entry.objects.filter(seat__name="Anna").count() == 1
    assert type(night).objects.get(pk=night.pk).version == version  # nothing changed


def test_a_retry_after_the_round_went_through_is_taken_as_already_saved(make_night):
    night = make_night(("Anna", "Bram"))
    play_round(night, {"Anna": 3, "Bram": -3})
    version = type(night).objects.get(pk=night.pk).version
    result = enter(night, "Bram", -3, number=1)  # the answer to the first try was lost
    assert result.entry.points == -3 and not result.round_recorded
    assert type(night).objects.get(pk=night.pk).version == version
    with pytest.raises(Refused, match="Round 1 already went through: your −4 was not used"):
        enter(night, "Bram", -4, number=1)  # a different total is a correction
    assert Entry.objects.count() == 2


def test_undo_then_confirming_the_same_totals_records_the_round_again(make_night):
    night = make_night(("Anna", "Bram", "Cora"))
    play_round(night, {"Anna": 3, "Bram": -3, "Cora": 0})
    undo_last_round(night=night, by=User.objects.get(name="Anna"))
    # The first phone to confirm does not put the round back through on its own.
    assert not enter(night, "Anna", 3).round_recorded
    assert not enter(night, "Bram", -3).round_recorded
    assert not enter(night, "Bram", -3).round_recorded  # confirming twice is one confirm
    assert enter(night, "Cora", 0).round_recorded
    history = list(night.rounds.get(number=1).edits.values_list("kind", "changes"))
    assert history == [(RoundEdit.Kind.UNDO, [])]
    log = list(night.changes.order_by("pk").values_list("kind", "values"))
    assert log[-2:] == [
        ("round_undone", {"round": 1}),
        ("round_through_again", {"round": 1, "how": "confirmed"}),
    ]


def test_a_reopened_round_goes_through_again_once_a_changed_total_adds_up(make_night):
    night = make_night(("Anna", "Bram", "Cora"))
    play_round(night, {"Anna": 3, "Bram": -3, "Cora": 0})
    undo_last_round(night=night, by=User.objects.get(name="Anna"))
    assert not enter(night, "Bram", -5).round_recorded  # 2 points too few
    assert enter(night, "Cora", 2).round_recorded  # nobody else needs to confirm
    assert night.changes.order_by("pk").values_list("values", flat=True).last() == {
        "round": 1,
        "how": "changed",
    }


def test_a_total_for_a_round_that_went_through_is_refused_in_words_and_lands_nowhere(
    make_night,
):
    night = make_night(("Anna", "Bram"))
    play_round(night, {"Anna": 3, "Bram": -3})
    bram = seats_of(night)["Bram"]
    kept = {"night": night, "round_number": 1, "seat": bram, "key": "k" * 32}
    anna, bram_user = User.objects.get(name="Anna"), User.objects.get(name="Bram")
    for by, points, words in [
        (bram_user, -2, "Round 1 already went through: your −2 was not used. Round 2 is open."),
        (bram_user, -3, "Round 1 already went through, with your −3. Round 2 is open."),
    ]:
        with pytest.raises(Refused) as refused:
            record_entry(points=points, entered_by=by, **kept)
        assert str(refused.value) == words
    guest = make_night(("Anna",), guests=("Gus",))
    play_round(guest, {"Anna": 1, "Gus": -1})
    with pytest.raises(Refused) as refused:
        record_entry(
            night=guest,
            round_number=1,
            seat=seats_of(guest)["Gus"],
            key="g" * 32,
            points=4,
            entered_by=anna,
        )
    assert str(refused.value) == (
        "Round 1 already went through: +4 for Gus was not used. Round 2 is open."
    )
    assert not Entry.objects.filter(round__number=2).exists()
    assert Entry.objects.filter(round__number=1).count() == 4


def test_a_phone_left_on_a_round_that_was_undone_is_told_where_the_table_is(make_night):
    night = make_night(("Anna", "Bram"))
    play_round(night, {"Anna": 3, "Bram": -3})
    undo_last_round(night=night, by=User.objects.get(name="Bram"))
    with pytest.raises(Refused, match="Round 2 is not open any more: the table is on round 1"):
        enter(night, "Anna", 4, number=2)


def test_changes_in_a_reopened_round_are_kept_in_its_history(make_night):
    night = make_night(("Anna", "Bram"))
    play_round(night, {"Anna": 3, "Bram": -3})
    undo_last_round(night=night, by=User.objects.get(name="Anna"))
    enter(night, "Bram", -5)
    assert enter(night, "Anna", 5).round_recorded
    changes = [edit.changes for edit in night.rounds.get(number=1).edits.all()]
    assert changes == [[], [["Bram", -3, -5]], [["Anna", 3, 5]]]


@pytest.mark.parametrize("points", [1000, -1000, 5000])
def test_out_of_range_totals_are_refused(make_night, points):
    night = make_night()
    with pytest.raises(Refused, match="between −999 and 999"):
        enter(night, "Anna", points)
    assert not Entry.objects.exists()


def test_anyone_seated_fills_in_an_empty_seat_but_not_someone_elses_entry(make_night):
    night = make_night(guests=("Gus",))
    result = enter(night, "Gus", 4, by="Anna")
    assert result.entry.entered_by.name == "Anna"
    enter(night, "Gus", 5, by="Bram")  # a guest's entry anyone at the table may fix
    enter(night, "Chris", 1, by="Anna")  # Chris's phone died
    with pytest.raises(Refused, match="only they can change it"):
        enter(night, "Chris", 2, by="Bram")
    enter(night, "Chris", 3)  # Chris can always change their own


def test_a_member_who_is_not_seated_cannot_enter(make_night, make_user):
    night = make_night(("Anna", "Bram"))
    from scorekeeper.services.groups import join_group

    dana = make_user("Dana")
    join_group(group=night.group, user=dana)
    with pytest.raises(Refused, match="Only players seated"):
        record_entry(
            night=night, round_number=1, seat=seats_of(night)["Anna"], points=1, entered_by=dana
        )


def test_fantasyland_sets_the_next_hand_and_keeps_the_button(make_night):
    night = make_night(game="progressive")
    play_round(night, {"Anna": 10, "Bram": 5, "Chris": -15}, Bram={"fantasyland_made": "kk"})
    second = open_round(night)
    assert second.dealer.name == "Anna"  # the button stays for the Fantasyland hand
    assert second.fantasyland == {str(seats_of(night)["Bram"].pk): [15, 0]}
    play_round(night, {"Anna": 1, "Bram": -2, "Chris": 1})  # Bram does not stay
    third = open_round(night)
    assert third.dealer.name == "Bram" and third.fantasyland == {}


def test_hold_keeps_the_button_for_the_first_regular_hand(make_night):
    night = make_night(game="progressive", rules={"hold_button": True})
    play_round(night, {"Anna": 10, "Bram": 5, "Chris": -15}, Bram={"fantasyland_made": "qq"})
    play_round(night, {"Anna": 1, "Bram": -2, "Chris": 1})
    assert open_round(night).dealer.name == "Anna"
    play_round(night, {"Anna": 1, "Bram": -2, "Chris": 1})
    assert open_round(night).dealer.name == "Bram"


def test_a_stay_keeps_the_count_and_counts_the_streak(make_night):
    night = make_night(game="ultimate")
    play_round(night, {"Anna": 10, "Bram": 5, "Chris": -15}, Chris={"fantasyland_made": "trips"})
    chris = str(seats_of(night)["Chris"].pk)
    for stays in range(1, 4):
        play_round(night, {"Anna": 1, "Bram": -2, "Chris": 1}, Chris={"fantasyland_stayed": True})
        assert open_round(night).fantasyland == {chris: [17, stays]}
    with pytest.raises(Refused, match="4 Fantasyland hands in a row"):
        enter(night, "Chris", 1, fantasyland_stayed=True)


@pytest.mark.parametrize(
    ("game", "claims", "message"),
    [
        ("progressive", {"fantasyland_stayed": True}, "cannot stay"),
        ("progressive", {"fantasyland_made": "qq+"}, "not a way into Fantasyland"),
        ("standard", {"fantasyland_made": "kk"}, "not a way into Fantasyland"),
        ("standard-nofl", {"fantasyland_made": "qq+"}, "without Fantasyland"),
    ],
)
def test_fantasyland_claims_the_game_does_not_allow_are_refused(make_night, game, claims, message):
    night = make_night(game=game)
    with pytest.raises(Refused, match=message):
        enter(night, "Anna", 3, **claims)
    assert not Entry.objects.exists()


def test_a_player_in_fantasyland_says_whether_they_stayed_not_whether_they_made_it(make_night):
    night = make_night(game="progressive")
    play_round(night, {"Anna": 10, "Bram": 5, "Chris": -15}, Bram={"fantasyland_made": "qq"})
    with pytest.raises(Refused, match="say whether they stayed"):
        enter(night, "Bram", 3, fantasyland_made="aa")


def test_a_correction_is_kept_in_the_history_and_must_sum_to_zero(make_night):
    night = make_night()
    play_round(night, {"Anna": 7, "Bram": 17, "Chris": -24})
    anna = User.objects.get(name="Anna")
    with pytest.raises(Refused, match="2 points too many"):
        fix_round(night, 1, anna, {"Anna": 9, "Bram": 17, "Chris": -24})
    fix_round(night, 1, anna, {"Anna": 9, "Bram": 15, "Chris": -24})
    edit = RoundEdit.objects.get()
    assert edit.changes == [["Anna", 7, 9], ["Bram", 17, 15]]
    assert edit.edited_by == anna


def test_undo_reopens_the_last_round(make_night):
    night = make_night()
    play_round(night, {"Anna": 7, "Bram": 17, "Chris": -24})
    undo_last_round(night=night, by=User.objects.get(name="Anna"))
    assert open_round(night).number == 1
    assert night.rounds.count() == 1
    enter(night, "Chris", -20)
    enter(night, "Bram", 13)
    assert night.rounds.get(number=1).is_recorded


def test_undo_is_refused_once_the_next_hand_has_entries(make_night):
    night = make_night()
    play_round(night, {"Anna": 7, "Bram": 17, "Chris": -24})
    enter(night, "Anna", 1)
    with pytest.raises(Refused, match="already has entries"):
        undo_last_round(night=night, by=User.objects.get(name="Anna"))


def _fix_anna_and_bram(night, by):
    fix_round(night, 1, by, {"Anna": 8, "Bram": -5, "Chris": -3})


def test_a_finished_nights_fix_is_refused_once_its_money_was_marked_paid_until_taken_back(
    make_night,
):
    night = finish(play(make_night(), {"Anna": 10, "Bram": -4, "Chris": -6}))
    seats, anna = seats_of(night), User.objects.get(name="Anna")
    mark = mark_paid(
        night=night, payer=seats["Chris"], payee=seats["Anna"], cents=60, marked_by=anna
    )
    version = Night.objects.get(pk=night.pk).version

    with pytest.raises(Refused, match=r"paid already \(Chris → Anna €0.60\)"):
        _fix_anna_and_bram(night, anna)
    assert Night.objects.get(pk=night.pk).version == version
    assert not RoundEdit.objects.exists()

    unmark_paid(night=night, payment=mark, by=anna)
    _fix_anna_and_bram(night, anna)
    assert RoundEdit.objects.get().changes == [["Anna", 10, 8], ["Bram", -4, -5], ["Chris", -6, -3]]


def test_a_fix_is_refused_under_a_payment_across_nights_until_it_is_taken_back(make_night):
    night = finish(play(make_night(), {"Anna": 10, "Bram": -4, "Chris": -6}))
    group, anna = night.group, User.objects.get(name="Anna")
    owed = owed_across_nights(group)
    tab = pay_owed(
        group=group,
        payer=person_key(seats_of(night)["Chris"]),
        payee=person_key(seats_of(night)["Anna"]),
        cents=60,
        currency="EUR",
        fingerprint=owed.fingerprint,
        marked_by=anna,
    )

    with pytest.raises(Refused, match="Take that payment back first"):
        _fix_anna_and_bram(night, anna)

    undo_owed_payment(group=group, payment=tab, by=anna)
    _fix_anna_and_bram(night, anna)
    assert RoundEdit.objects.count() == 1
