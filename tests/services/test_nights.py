"""Nights through their services: who is seated, the house rules, a second night, the end."""

import pytest

from scorekeeper.models import User
from scorekeeper.services.call_off import call_off_night
from scorekeeper.services.errors import Refused
from scorekeeper.services.nights import SeatRequest, end_night
from scorekeeper.services.seats import add_seat
from tests.helpers import enter, play_round, start_seated


def test_seat_limits_follow_the_game(make_group):
    group = make_group(members=("Anna", "Bram", "Chris", "Dan"))
    users = list(User.objects.order_by("pk"))
    seats = [SeatRequest(user=u) for u in users]
    with pytest.raises(Refused, match="takes 2 to 3 players, got 4"):
        start_seated(group, users[0], seats, game_id="pineapple")
    night = start_seated(group, users[0], seats, first_dealer=2)
    assert night.rounds.get().dealer.name == "Chris"
    group.refresh_from_db()
    assert group.default_game == "standard"


def test_a_guest_named_like_a_member_is_refused(make_group):
    group = make_group(members=("Anna", "Bram"))
    anna = User.objects.get(name="Anna")
    with pytest.raises(Refused, match="seated twice"):
        start_seated(group, anna, [SeatRequest(user=anna), SeatRequest(guest_name="anna")])


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


def test_only_players_at_the_table_change_the_night(make_night, make_user):
    night = make_night(("Anna", "Bram"))
    from scorekeeper.services.groups import join_group

    watcher = make_user("Wanda")
    join_group(group=night.group, user=watcher)
    with pytest.raises(Refused, match="Only the players at this table"):
        end_night(night=night, by=watcher)
    with pytest.raises(Refused, match="Only the players at this table"):
        add_seat(night=night, by=watcher, user=watcher, position=3)
    with pytest.raises(Refused, match="Only the players at this table"):
        call_off_night(night=night, by=watcher)
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
        start_seated(group, anna, [SeatRequest(user=anna), SeatRequest(user=bram)], rules=rules)


def test_a_second_night_in_the_group_needs_to_be_asked_for(make_night):
    night = make_night(("Anna", "Bram"))
    anna, bram = (User.objects.get(name=n) for n in ("Anna", "Bram"))
    seats = [SeatRequest(user=anna), SeatRequest(user=bram)]
    with pytest.raises(Refused, match="already running, started by Anna"):
        start_seated(night.group, bram, seats)
    second = start_seated(night.group, bram, seats, beside_running=True)
    assert second.pk != night.pk
