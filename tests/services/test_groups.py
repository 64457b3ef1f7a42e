"""Groups through their services: invitation tokens, and leaving with the history kept."""

import re

from scorekeeper.models import Membership, User
from scorekeeper.services.groups import leave_group


def test_tokens_carry_at_least_128_bits(make_group):
    tokens = {make_group(name=f"G{i}", members=()).invite_token for i in range(20)}
    assert len(tokens) == 20
    for token in tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]+", token)
        assert len(token) * 6 >= 128  # url-safe base64: 6 bits a character


def test_leaving_keeps_the_membership_row_for_history(make_group):
    group = make_group(members=("Anna", "Bram"))
    leave_group(group=group, user=User.objects.get(name="Bram"))
    assert Membership.objects.filter(group=group).count() == 2
