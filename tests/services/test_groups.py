"""Groups through their services: invitation tokens, and leaving with the history kept."""

import re

import pytest

from scorekeeper.models import Membership, User
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import leave_group, sign_up_and_join
from scorekeeper.table.codes import read_code


def test_every_group_gets_its_own_join_code_without_look_alike_characters(make_group):
    codes = {make_group(name=f"G{i}", members=()).invite_token for i in range(20)}
    assert len(codes) == 20
    for code in codes:
        assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{8}", code)  # no I, L, O or U
        assert read_code(code.lower()) == code


def test_leaving_keeps_the_membership_row_for_history(make_group):
    group = make_group(members=("Anna", "Bram"))
    leave_group(group=group, user=User.objects.get(name="Bram"))
    assert Membership.objects.filter(group=group).count() == 2


@pytest.mark.parametrize("typed", ["Bram", " bram ", "Ｂｒａｍ", "BＲAM"])
def test_a_members_name_however_typed_is_sent_the_way_back_in(make_group, typed):
    # Full width is how a phone's Chinese or Japanese keyboard types Latin letters:
    # the door compares names in the one form every door keeps them in (tidy_name).
    group = make_group(members=("Anna", "Bram"))
    accounts = User.objects.count()
    with pytest.raises(Refused, match="Bram is already in this group"):
        sign_up_and_join(group=group, name=typed)
    assert User.objects.count() == accounts
