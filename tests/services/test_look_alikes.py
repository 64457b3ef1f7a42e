"""Names the others at the table could not tell apart are refused wherever a name
is given: a guest at the start of a night, a guest joining late, an account joining
another group."""

import pytest

from scorekeeper.models import Group, Night, Seat, User
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import join_by_link
from scorekeeper.services.nights import SeatRequest
from scorekeeper.services.seats import add_seat
from tests.helpers import start_seated

CYRILLIC_ANNA = "\u0410nna"


def test_a_guest_named_like_a_member_is_refused_at_the_start(make_group):
    group = make_group(members=("Anna", "Bram"))
    anna, bram = User.objects.get(name="Anna"), User.objects.get(name="Bram")
    for seats, message in (
        # Like a member of the group, seated or not.
        ([SeatRequest(user=bram), SeatRequest(guest_name=CYRILLIC_ANNA)], "looks just like"),
        # A full-width name is the name it reads as.
        (
            [
                SeatRequest(user=anna),
                SeatRequest(guest_name="Ｇｕｓ"),
                SeatRequest(guest_name="Gus"),
            ],
            "Gus is seated twice",
        ),
    ):
        with pytest.raises(Refused, match=message):
            start_seated(group, bram, seats)
    assert not Night.objects.exists()


def test_a_late_guest_named_like_someone_at_the_table_is_refused(make_night):
    night = make_night(("Anna", "Bram"), guests=("Gus",))
    anna = User.objects.get(name="Anna")
    for name in (CYRILLIC_ANNA, "Gu\u0455"):  # a Cyrillic ѕ in "Gus"
        with pytest.raises(Refused, match="looks just like"):
            add_seat(night=night, by=anna, guest_name=name, position=9)
    add_seat(night=night, by=anna, guest_name="Dora", position=9)
    assert Seat.objects.filter(night=night).count() == 4


def test_an_account_named_like_a_member_cannot_join_another_group_by_its_link(make_group):
    home = make_group("Elsewhere", members=(CYRILLIC_ANNA,))
    group = make_group(members=("Anna", "Bram"))
    group.invite_uses_left = 3
    group.save()
    look_alike = User.objects.get(name=CYRILLIC_ANNA)
    with pytest.raises(Refused, match="looks just like the name of someone in this group"):
        join_by_link(group=group, token=group.invite_token, user=look_alike)
    assert not group.has_member(look_alike) and home.has_member(look_alike)
    assert Group.objects.get(pk=group.pk).invite_uses_left == 3  # the use is not counted
    # Someone the others can tell apart joins as before.
    chris = make_group("Third", members=("Chris",)).memberships.get().user
    join_by_link(group=group, token=group.invite_token, user=chris)
    assert group.has_member(chris)


def test_a_guest_whose_capital_looks_like_a_members_is_refused(make_night):
    night = make_night(("Anna", "Bram"))
    anna = User.objects.get(name="Anna")
    with pytest.raises(Refused, match="looks just like"):
        add_seat(night=night, by=anna, guest_name="\u0412ram", position=9)  # a Cyrillic В
    assert Seat.objects.filter(night=night).count() == 2
