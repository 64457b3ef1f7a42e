"""The next night like the last, with those ticked "here": who sits where, who deals
first, and the refusals in words that start nothing."""

import pytest

from scorekeeper.models import Night, User
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import leave_group
from scorekeeper.services.same_table import last_table, start_same_table
from scorekeeper.services.seats import leave_seat
from tests.helpers import finish, make_group, play_round


def last_time(make_night, *, dealer: int = 0) -> Night:
    """Anna, Bram, Chris and the guest Gus, two rounds from ``dealer``; Dora is in the
    group and did not play; Bram left early."""
    group = make_group(members=("Anna", "Bram", "Chris", "Dora"))
    night = make_night(("Anna", "Bram", "Chris"), group=group, guests=("Gus",), dealer=dealer)
    play_round(night, {"Anna": 2, "Bram": -1, "Chris": -1, "Gus": 0})
    bram = night.seats.get(name="Bram")
    leave_seat(night=night, seat=bram, by=bram.user)
    play_round(night, {"Anna": 2, "Chris": -1, "Gus": -1})
    return finish(night)


def keys(night: Night, *names: str) -> set[str]:
    table = last_table(night.group)
    return {chair.key for chair in table.players + table.others if chair.name in names}


def start(night: Night, *names: str):
    return start_same_table(
        group=night.group, started_by=User.objects.get(name="Anna"), here=keys(night, *names)
    )


def seated(night: Night) -> list[str]:
    return [seat.name for seat in night.seats.order_by("position")]


def test_the_table_offered_is_last_times_in_seat_order_with_the_early_leaver_flagged(
    make_night,
):
    table = last_table(last_time(make_night).group)
    assert [(chair.name, chair.left_early) for chair in table.players] == [
        ("Anna", False),
        ("Bram", True),
        ("Chris", False),
        ("Gus", False),
    ]
    assert [chair.name for chair in table.others] == ["Dora"]


def test_those_unticked_are_left_out_and_named(make_night):
    last = last_time(make_night)
    same = start(last, "Anna", "Chris", "Gus")
    assert seated(same.night) == ["Anna", "Chris", "Gus"]
    assert same.left_out == ["Bram"]


def test_the_button_starts_one_seat_on_among_those_sitting_down_again(make_night):
    # Round 2 was dealt by Chris (seat 3; Bram had left): Gus, seat 4, deals first.
    last = last_time(make_night, dealer=1)
    assert last.rounds.order_by("-number")[0].dealer.name == "Chris"
    table = last_table(last.group)
    assert table.dealer([chair.key for chair in table.players]).name == "Gus"
    same = start(last, "Anna", "Bram", "Chris", "Gus")
    assert same.night.rounds.get().dealer.name == "Gus"


def test_without_the_next_seat_the_button_goes_on_to_the_next_one_here(make_night):
    last = last_time(make_night, dealer=1)  # the button would go to Gus
    same = start(last, "Anna", "Chris", "Dora")
    # Nobody sits after Chris among last time's players: round to Anna, not Dora.
    assert seated(same.night) == ["Anna", "Chris", "Dora"]
    assert same.night.rounds.get().dealer.name == "Anna"


def test_guests_sit_again_and_a_member_who_did_not_play_is_added_last(make_night):
    last = last_time(make_night)
    same = start(last, "Anna", "Chris", "Gus", "Dora")
    assert seated(same.night) == ["Anna", "Chris", "Gus", "Dora"]
    gus = same.night.seats.get(name="Gus")
    assert gus.is_guest
    assert (same.night.game, same.night.point_cents) == (last.game, last.point_cents)


def test_a_member_who_left_the_group_is_not_offered_and_is_named(make_night):
    last = last_time(make_night)
    leave_group(group=last.group, user=User.objects.get(name="Chris"))
    assert "Chris" not in [chair.name for chair in last_table(last.group).players]
    same = start(last, "Anna", "Bram")
    assert same.missing == ["Chris"] and seated(same.night) == ["Anna", "Bram"]


@pytest.mark.parametrize(
    "names, refusal",
    [
        (("Anna",), "Tick at least two players to start the night."),
        ((), "Tick at least two players to start the night."),
        (
            ("Anna", "Bram", "Chris", "Gus", "Dora"),
            "OFC Standard seats at most 4 players: untick someone.",
        ),
    ],
)
def test_too_few_or_too_many_are_refused_in_words_and_nothing_starts(make_night, names, refusal):
    last = last_time(make_night)
    with pytest.raises(Refused) as refused:
        start(last, *names)
    assert str(refused.value) == refusal
    assert Night.objects.count() == 1


def test_someone_no_longer_offered_is_refused(make_night):
    last = last_time(make_night)
    here = keys(last, "Anna", "Dora")
    leave_group(group=last.group, user=User.objects.get(name="Dora"))
    with pytest.raises(Refused, match="no longer in the group"):
        start_same_table(group=last.group, started_by=User.objects.get(name="Anna"), here=here)
    assert Night.objects.count() == 1
