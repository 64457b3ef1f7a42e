"""Past nights imported from a spreadsheet are ordinary finished nights: their seats'
stored figures are what a rebuild makes of their rows, settled or owed as chosen,
and a night that does not add up leaves the group as it was."""

import dataclasses

import pytest

from scorekeeper.models import Night, Payment, Seat
from scorekeeper.services.errors import Refused
from scorekeeper.services.imports import game_names, import_nights
from scorekeeper.services.rebuild import rebuild_stored_figures
from scorekeeper.table.spreadsheet.reading import read_sheet

SHEET = b"""date;name;points;stake
7-3-2024;Anna;+12;0.25
7-3-2024;BRAM;-5;0.25
7-3-2024;Gus;-7;0.25
14-3-2024;bram;1500;0.10
14-3-2024;Anna;-1500;0.10
"""


def nights_of(data: bytes = SHEET):
    sheet = read_sheet(data, currency="EUR", point_cents=10, games=game_names())
    assert not sheet.problems
    return list(sheet.nights)


@pytest.fixture
def group(make_group):
    return make_group(members=("Anna", "Bram"))


def test_nights_come_in_finished_with_members_matched_and_guests_kept(group):
    anna = group.memberships.get(user__name="Anna").user
    made = import_nights(group=group, nights=nights_of(), by=anna, settled=False)

    assert [night.is_over for night in made] == [True, True]
    first = Seat.objects.filter(night=made[0]).order_by("position")
    assert [(s.name, s.user_id is not None, s.points, s.cents) for s in first] == [
        ("Anna", True, 12, 300),
        ("Bram", True, -5, -125),
        ("Gus", False, -7, -175),
    ]
    # 1,500 points is more than a hand holds: two rounds, each adding up to zero.
    second = made[1]
    assert second.rounds.count() == 2
    assert dict(second.seats.values_list("name", "points")) == {"Bram": 1500, "Anna": -1500}
    # Nothing was paid: the money is owed.
    assert dict(second.seats.values_list("name", "unpaid_cents")) == {"Bram": 15000, "Anna": -15000}


def test_the_stored_figures_are_what_a_rebuild_makes_of_the_rows(group):
    anna = group.memberships.get(user__name="Anna").user
    made = import_nights(group=group, nights=nights_of(), by=anna, settled=True)
    assert rebuild_stored_figures([night.pk for night in made]).seats_changed == 0


def test_settled_at_the_time_marks_each_settlement_paid(group):
    anna = group.memberships.get(user__name="Anna").user
    made = import_nights(group=group, nights=nights_of(), by=anna, settled=True)
    assert Payment.objects.filter(night__in=made).count() == 3
    assert set(Seat.objects.filter(night__in=made).values_list("unpaid_cents", flat=True)) == {0}


def test_a_night_that_does_not_add_up_refuses_the_whole_import(group):
    anna = group.memberships.get(user__name="Anna").user
    good, other = nights_of()
    broken = dataclasses.replace(other, rounds=((1500, -1499),))
    with pytest.raises(Refused):
        import_nights(group=group, nights=[good, broken], by=anna, settled=False)
    assert not Night.objects.filter(group=group).exists()


def test_only_a_member_imports(group, make_user):
    with pytest.raises(Refused):
        import_nights(group=group, nights=nights_of(), by=make_user("Olga"), settled=False)
    assert not Night.objects.filter(group=group).exists()
