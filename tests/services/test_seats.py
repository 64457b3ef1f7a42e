"""Seats through their services: a late arrival, someone leaving, and coming back."""

import pytest

from scorekeeper.models import Entry, User
from scorekeeper.services.errors import Refused
from scorekeeper.services.seats import add_seat, leave_seat
from tests.helpers import enter, open_round, play_round, seats_of


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


def test_a_player_who_left_can_come_back_to_the_same_seat(make_night):
    night = make_night(("Anna", "Bram", "Chris"))
    chris = seats_of(night)["Chris"]
    play_round(night, {"Anna": 1, "Bram": 1, "Chris": -2})
    anna = User.objects.get(name="Anna")
    leave_seat(night=night, seat=chris, by=anna)
    play_round(night, {"Anna": 2, "Bram": -2})
    back = add_seat(night=night, by=anna, user=chris.user, position=2)
    # Round 3 is on the table already: Chris is dealt in from round 4 (issue 32).
    assert back.pk == chris.pk and back.last_round is None and back.first_round == 4
    assert [s.name for s in night.seats.order_by("position")] == ["Anna", "Chris", "Bram"]
    play_round(night, {"Anna": 1, "Bram": -1})
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


def test_when_the_only_fantasyland_player_leaves_the_button_moves_on(make_night):
    night = make_night(("Anna", "Bram", "Chris"), game="progressive")
    play_round(night, {"Anna": 10, "Bram": 5, "Chris": -15}, Bram={"fantasyland_made": "qq"})
    assert open_round(night).dealer.name == "Anna"  # held for Bram's Fantasyland
    leave_seat(night=night, seat=seats_of(night)["Bram"], by=User.objects.get(name="Anna"))
    second = open_round(night)
    assert second.fantasyland == {}
    assert second.dealer.name == "Chris"  # a regular hand: the button moved past Bram's seat
