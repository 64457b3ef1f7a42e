"""A night through its services: entries, the zero-sum check, Fantasyland, the button."""

import pytest

from scorekeeper.models import Entry, Round, RoundEdit, User
from scorekeeper.services.errors import Refused
from scorekeeper.services.nights import SeatRequest, end_night, start_night
from scorekeeper.services.rounds import edit_round, record_entry, undo_last_round
from scorekeeper.services.seats import add_seat, leave_seat
from tests.helpers import enter, seats_of


def play_round(night, totals: dict[str, int], **claims_by_name):
    result = None
    for name, points in totals.items():
        result = enter(night, name, points, **claims_by_name.get(name, {}))
    return result


def open_round(night) -> Round:
    return night.rounds.get(recorded_at__isnull=True)


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
    with pytest.raises(Refused, match="already gone through"):
        enter(night, "Bram", -4, number=1)  # a different total is a correction
    assert Entry.objects.count() == 2


def test_undo_then_confirming_the_same_totals_records_the_round_again(make_night):
    night = make_night(("Anna", "Bram"))
    play_round(night, {"Anna": 3, "Bram": -3})
    undo_last_round(night=night, by=User.objects.get(name="Anna"))
    assert enter(night, "Bram", -3).round_recorded
    history = list(night.rounds.get(number=1).edits.values_list("note", "changes"))
    assert history == [("reopened with undo", [])]


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
    with pytest.raises(Refused, match="between -999 and 999"):
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


def test_seat_limits_follow_the_game(make_group):
    group = make_group(members=("Anna", "Bram", "Chris", "Dan"))
    users = list(User.objects.order_by("pk"))
    with pytest.raises(Refused, match="takes 2 to 3 players, got 4"):
        start_night(
            group=group,
            started_by=users[0],
            game_id="pineapple",
            rules={},
            point_cents=10,
            seats=[SeatRequest(user=u) for u in users],
            first_dealer=0,
        )
    night = start_night(
        group=group,
        started_by=users[0],
        game_id="standard",
        rules={},
        point_cents=10,
        seats=[SeatRequest(user=u) for u in users],
        first_dealer=2,
    )
    assert night.rounds.get().dealer.name == "Chris"
    group.refresh_from_db()
    assert group.default_game == "standard"


def test_a_guest_named_like_a_member_is_refused(make_group):
    group = make_group(members=("Anna", "Bram"))
    anna = User.objects.get(name="Anna")
    with pytest.raises(Refused, match="seated twice"):
        start_night(
            group=group,
            started_by=anna,
            game_id="standard",
            rules={},
            point_cents=10,
            seats=[SeatRequest(user=anna), SeatRequest(guest_name="anna")],
            first_dealer=0,
        )


def test_a_correction_is_kept_in_the_history_and_must_sum_to_zero(make_night):
    night = make_night()
    play_round(night, {"Anna": 7, "Bram": 17, "Chris": -24})
    seats = seats_of(night)
    anna = User.objects.get(name="Anna")
    with pytest.raises(Refused, match="2 points too many"):
        edit_round(
            night=night,
            number=1,
            edited_by=anna,
            points={seats["Anna"].pk: 9, seats["Bram"].pk: 17, seats["Chris"].pk: -24},
        )
    edit_round(
        night=night,
        number=1,
        edited_by=anna,
        points={seats["Anna"].pk: 9, seats["Bram"].pk: 15, seats["Chris"].pk: -24},
    )
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


def test_a_late_arrival_is_dealt_in_from_the_next_hand(make_night, make_user):
    night = make_night(("Anna", "Bram"))
    play_round(night, {"Anna": 3, "Bram": -3})
    enter(night, "Anna", 1)  # round 2 is being counted
    seat = add_seat(night=night, by=User.objects.get(name="Anna"), guest_name="Gus", position=2)
    assert seat.first_round == 3
    assert [s.name for s in night.seats.order_by("position")] == ["Anna", "Gus", "Bram"]
    enter(night, "Bram", -1)  # round 2 goes through without Gus
    assert night.rounds.get(number=2).is_recorded
    play_round(night, {"Anna": 1, "Gus": 1, "Bram": -2})
    assert night.rounds.get(number=3).is_recorded


def test_someone_leaving_keeps_their_results_and_gives_up_fantasyland(make_night):
    night = make_night(game="progressive")
    play_round(night, {"Anna": 10, "Bram": 5, "Chris": -15}, Anna={"fantasyland_made": "qq"})
    assert open_round(night).dealer.name == "Anna"
    leave_seat(night=night, seat=seats_of(night)["Anna"], by=User.objects.get(name="Bram"))
    second = open_round(night)
    assert second.fantasyland == {}
    assert second.dealer.name == "Bram"  # the button skips the empty seat
    play_round(night, {"Bram": 2, "Chris": -2})
    assert Entry.objects.filter(seat__name="Anna").count() == 1


def test_leaving_mid_round_or_below_two_players_is_refused(make_night):
    night = make_night(("Anna", "Bram"))
    with pytest.raises(Refused, match="two players"):
        leave_seat(night=night, seat=seats_of(night)["Anna"], by=User.objects.get(name="Bram"))
    night = make_night(("Cleo", "Dora", "Emil"))
    enter(night, "Cleo", 3)
    with pytest.raises(Refused, match="is being entered"):
        leave_seat(night=night, seat=seats_of(night)["Dora"], by=User.objects.get(name="Cleo"))


def test_an_ended_night_takes_no_more_rounds(make_night):
    night = make_night(("Anna", "Bram"))
    play_round(night, {"Anna": 3, "Bram": -3})
    enter(night, "Anna", 2)
    end_night(night=night, by=User.objects.get(name="Anna"))
    night.refresh_from_db()
    assert night.is_over
    assert night.rounds.count() == 1  # the unfinished round was dropped
    with pytest.raises(Refused, match="night is over"):
        enter(night, "Bram", 1, number=2)


def test_a_player_who_left_can_come_back_to_the_same_seat(make_night):
    night = make_night(("Anna", "Bram", "Chris"))
    chris = seats_of(night)["Chris"]
    play_round(night, {"Anna": 1, "Bram": 1, "Chris": -2})
    anna = User.objects.get(name="Anna")
    leave_seat(night=night, seat=chris, by=anna)
    play_round(night, {"Anna": 2, "Bram": -2})
    back = add_seat(night=night, by=anna, user=chris.user, position=2)
    assert back.pk == chris.pk and back.last_round is None and back.first_round == 3
    assert [s.name for s in night.seats.order_by("position")] == ["Anna", "Chris", "Bram"]
    play_round(night, {"Anna": 3, "Chris": -1, "Bram": -2})
    assert Entry.objects.filter(seat=chris).count() == 2
    with pytest.raises(Refused, match="already has a seat"):
        add_seat(night=night, by=anna, user=chris.user, position=1)
    with pytest.raises(Refused, match="add a letter"):
        add_seat(night=night, by=anna, guest_name="chris", position=1)  # a guest of that name


def test_a_guest_who_left_comes_back_as_the_same_guest_not_as_a_member(make_night, make_user):
    night = make_night(("Anna", "Bram"), guests=("Dana",))
    anna = User.objects.get(name="Anna")
    dana_guest = seats_of(night)["Dana"]
    play_round(night, {"Anna": 1, "Bram": 1, "Dana": -2})
    leave_seat(night=night, seat=dana_guest, by=anna)
    from scorekeeper.services.groups import join_group

    dana = make_user("Dana")
    join_group(group=night.group, user=dana)
    with pytest.raises(Refused, match="add a letter"):
        add_seat(night=night, by=anna, user=dana, position=3)
    assert add_seat(night=night, by=anna, guest_name="dana", position=3).pk == dana_guest.pk


def test_only_players_at_the_table_change_the_night(make_night, make_user):
    night = make_night(("Anna", "Bram"))
    from scorekeeper.services.groups import join_group

    watcher = make_user("Wanda")
    join_group(group=night.group, user=watcher)
    with pytest.raises(Refused, match="Only the players at this table"):
        end_night(night=night, by=watcher)
    with pytest.raises(Refused, match="Only the players at this table"):
        add_seat(night=night, by=watcher, user=watcher, position=3)
    night.refresh_from_db()
    assert not night.is_over


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"jokers": 2}, "not a house rule"),
        ({"fantasyland": "yes"}, "on or off"),
        ({"stay_limit": -1}, "whole number"),
        ({"stay_limit": True}, "whole number"),
    ],
)
def test_house_rules_are_checked_before_a_night_starts(make_group, rules, message):
    group = make_group(members=("Anna", "Bram"))
    anna, bram = User.objects.order_by("pk")
    with pytest.raises(Refused, match=message):
        start_night(
            group=group,
            started_by=anna,
            game_id="standard",
            rules=rules,
            point_cents=10,
            seats=[SeatRequest(user=anna), SeatRequest(user=bram)],
            first_dealer=0,
        )


def test_when_the_only_fantasyland_player_leaves_the_button_moves_on(make_night):
    night = make_night(("Anna", "Bram", "Chris"), game="progressive")
    play_round(night, {"Anna": 10, "Bram": 5, "Chris": -15}, Bram={"fantasyland_made": "qq"})
    assert open_round(night).dealer.name == "Anna"  # held for Bram's Fantasyland
    leave_seat(night=night, seat=seats_of(night)["Bram"], by=User.objects.get(name="Anna"))
    second = open_round(night)
    assert second.fantasyland == {}
    assert second.dealer.name == "Chris"  # a regular hand: the button moved past Bram's seat


def test_a_second_night_in_the_group_needs_to_be_asked_for(make_night):
    night = make_night(("Anna", "Bram"))
    anna, bram = (User.objects.get(name=n) for n in ("Anna", "Bram"))
    seats = [SeatRequest(user=anna), SeatRequest(user=bram)]
    with pytest.raises(Refused, match="already running, started by Anna"):
        start_night(
            group=night.group,
            started_by=bram,
            game_id="standard",
            rules={},
            point_cents=10,
            seats=seats,
            first_dealer=0,
        )
    second = start_night(
        group=night.group,
        started_by=bram,
        game_id="standard",
        rules={},
        point_cents=10,
        seats=seats,
        first_dealer=0,
        beside_running=True,
    )
    assert second.pk != night.pk
