"""A guest cannot take the name of a member of the group, seated or not, nor of
someone who was a member: the group page would say "Kees → Kees €0.30" and split
the money of two people between one name. Look-alikes count as the name."""

import pytest

from scorekeeper.models import Night, Seat, User
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import leave_group
from scorekeeper.services.nights import SeatRequest
from scorekeeper.services.seats import add_seat
from tests.helpers import start_seated

KEES = "Kees is a member of this group"
KEES_WAS = "Kees was a member of this group"
LOOKS_LIKE = 'looks just like "Kees"'

# The name as typed, and what the refusal says: the same name in other capitals,
# spacing or width is the member's name; another spelling that reads the same is
# a look-alike.
SPELLINGS = [
    ("Kees", "same"),
    ("KEES", "same"),
    ("kees", "same"),
    ("  Kees   ", "same"),
    ("Ｋｅｅｓ", "same"),  # full-width
    ("Ke es", "look-alike"),
    ("K\u0435es", "look-alike"),  # a Cyrillic е
    ("Kee\u0455", "look-alike"),  # a Cyrillic ѕ
]


def start(group, *guests: str) -> Night:
    anna, bram = User.objects.get(name="Anna"), User.objects.get(name="Bram")
    seats = [SeatRequest(user=anna), SeatRequest(user=bram)]
    return start_seated(group, anna, seats + [SeatRequest(guest_name=g) for g in guests])


def expected(kind: str, same: str) -> str:
    return same if kind == "same" else LOOKS_LIKE


@pytest.mark.parametrize(("typed", "kind"), SPELLINGS)
def test_a_guest_named_as_a_member_not_at_the_table_is_refused_at_the_start(
    make_group, typed, kind
):
    group = make_group(members=("Anna", "Bram", "Kees"))

    with pytest.raises(Refused, match=expected(kind, KEES)):
        start(group, typed)

    assert not Night.objects.exists() and not Seat.objects.exists()


@pytest.mark.parametrize(("typed", "kind"), SPELLINGS)
def test_a_late_guest_named_as_a_member_not_at_the_table_is_refused(make_group, typed, kind):
    night = start(make_group(members=("Anna", "Bram", "Kees")))  # Kees is not playing
    before = list(night.seats.values_list("name", "position"))
    version = Night.objects.get(pk=night.pk).version

    with pytest.raises(Refused, match=expected(kind, KEES)):
        add_seat(night=night, by=User.objects.get(name="Anna"), guest_name=typed, position=9)

    assert list(night.seats.values_list("name", "position")) == before
    assert Night.objects.get(pk=night.pk).version == version


@pytest.mark.parametrize(("typed", "kind"), SPELLINGS)
def test_a_guest_named_as_someone_who_left_the_group_is_refused(make_group, typed, kind):
    # Their past nights keep their name in the history and in what is owed, and they
    # may join again: a guest of that name would read as them.
    group = make_group(members=("Anna", "Bram", "Kees"))
    leave_group(group=group, user=User.objects.get(name="Kees"))

    with pytest.raises(Refused, match=expected(kind, KEES_WAS)):
        start(group, typed)
    assert not Night.objects.exists()

    night = start(group)
    with pytest.raises(Refused, match=expected(kind, KEES_WAS)):
        add_seat(night=night, by=User.objects.get(name="Anna"), guest_name=typed, position=9)
    assert night.seats.count() == 2


def test_the_refusal_says_what_to_do_for_a_member_and_for_someone_who_left(make_group):
    group = make_group(members=("Anna", "Bram", "Kees"))
    with pytest.raises(Refused) as member:
        start(group, "kees")
    leave_group(group=group, user=User.objects.get(name="Kees"))
    with pytest.raises(Refused) as former:
        start(group, "kees")

    assert str(member.value) == (
        "Kees is a member of this group: pick them from the members, "
        "or add a letter to tell the guest apart."
    )
    assert str(former.value) == (
        "Kees was a member of this group. If it is them, they can join again through "
        "the invitation link; if not, add a letter to tell the guest apart."
    )


def test_a_guest_named_like_nobody_in_the_group_still_sits_down(make_group):
    make_group("Elsewhere", members=("Kees",))  # the same name in another group is fine
    group = make_group(members=("Anna", "Bram", "Karel"))
    leave_group(group=group, user=User.objects.get(name="Karel"))

    night = start(group, "Kees")
    late = add_seat(night=night, by=User.objects.get(name="Anna"), guest_name="Karel B", position=9)

    assert [seat.name for seat in night.seats.order_by("position")] == [
        "Anna",
        "Bram",
        "Kees",
        "Karel B",
    ]
    assert late.user is None


def test_a_member_seated_and_a_guest_of_that_name_keep_their_own_refusals(make_group):
    group = make_group(members=("Anna", "Bram"))
    with pytest.raises(Refused, match="seated twice"):
        start(group, "bram")
    night = start(group)
    with pytest.raises(Refused, match="There is already a BRAM tonight"):
        add_seat(night=night, by=User.objects.get(name="Anna"), guest_name="BRAM", position=9)
