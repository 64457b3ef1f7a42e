"""Two names are the same name by one key (table/names.name_key: NFKC, spaces
collapsed, case folded) wherever the services compare them, so "STRASSE" is
"Straße" and "émile" is "Émile" as "ANNA" is "Anna"."""

import pytest

from scorekeeper.models import User
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import sign_up_and_join
from scorekeeper.services.nights import SeatRequest, start_night
from scorekeeper.services.seats import add_seat


def test_a_night_does_not_seat_one_name_twice_in_other_capitals(make_group):
    group = make_group(members=("Anna", "Bram"))
    anna = User.objects.get(name="Anna")
    with pytest.raises(Refused, match="is seated twice"):
        start_night(
            group=group,
            started_by=anna,
            game_id="standard",
            rules={},
            point_cents=10,
            seats=[
                SeatRequest(user=anna),
                SeatRequest(guest_name="Straße"),
                SeatRequest(guest_name="STRASSE"),
            ],
            first_dealer=0,
        )


def test_a_guest_seated_tonight_is_known_in_other_capitals_beyond_ascii(make_night):
    # The database's case-insensitive match knows only ASCII capitals on SQLite:
    # "émile" was a second seat beside "Émile".
    night = make_night(("Anna", "Bram"), guests=("Émile",))
    anna = User.objects.get(name="Anna")
    with pytest.raises(Refused, match="Émile already has a seat tonight"):
        add_seat(night=night, by=anna, guest_name="émile", position=9)
    assert night.seats.count() == 3


def test_joining_with_a_members_name_in_other_capitals_is_the_way_back_in(make_group):
    group = make_group(members=("Anna", "Émile"))
    with pytest.raises(Refused, match="Émile is already in this group"):
        sign_up_and_join(group=group, name="émile")
    assert not User.objects.filter(name="émile").exists()
