"""A member at the door of a running night deals themselves in from the next hand
(issue 32): never into the hand on the table, which is already dealt, and never past
the game's seats."""

import pytest

from scorekeeper.models import User
from scorekeeper.reads.night_state import night_state
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import join_group
from scorekeeper.services.seats import add_seat, deal_me_in
from tests.helpers import enter, make_user, play_round


def test_a_seat_added_before_anyone_entered_waits_for_the_next_hand(make_night):
    night = make_night(("Anna", "Bram", "Chris"))
    play_round(night, {"Anna": 3, "Bram": -1, "Chris": -2})
    # Round 2 is dealt and being played: nobody has entered a total yet.
    seat = add_seat(night=night, by=User.objects.get(name="Anna"), guest_name="Gus", position=4)
    assert seat.first_round == 3
    state = night_state(night)
    assert state.round.number == 2
    assert [line.seat.name for line in state.missing] == ["Anna", "Bram", "Chris"]
    play_round(night, {"Anna": 1, "Bram": 1, "Chris": -2})  # goes through without Gus
    assert night.rounds.get(number=2).is_recorded
    assert "Gus" in [line.seat.name for line in night_state(night).missing]


def test_deal_me_in_seats_the_member_from_the_next_hand(make_night):
    night = make_night(("Anna", "Bram", "Chris"))
    dan = make_user("Dan")
    join_group(group=night.group, user=dan)
    enter(night, "Anna", 2)
    seat = deal_me_in(night=night, user=dan)
    assert (seat.name, seat.first_round, seat.user) == ("Dan", 2, dan)
    assert [line.seat.name for line in night_state(night).missing] == ["Bram", "Chris"]


def test_deal_me_in_at_a_full_table_is_refused_in_words(make_night):
    # Pineapple seats three (scorekeeper/ofc/games.py), OFC Standard four.
    night = make_night(("Anna", "Bram", "Chris"), game="pineapple")
    join_group(group=night.group, user=make_user("Dora"))
    with pytest.raises(Refused, match="Pineapple takes at most 3 players"):
        deal_me_in(night=night, user=User.objects.get(name="Dora"))
    assert not night.seats.filter(name="Dora").exists()
