"""The night page's read: whose total a phone offers to enter is exactly whose total
the service will take from that person."""

import pytest
from django.db import transaction

from scorekeeper.models import User
from scorekeeper.reads.night_state import night_state
from scorekeeper.reads.nights import night_page
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import join_group
from scorekeeper.services.rounds import record_entry
from tests.helpers import enter, make_night, make_user


class _Undo(Exception):
    """Raised to roll a trial save back."""


def _service_takes(night, seat, user) -> bool:
    """Whether ``user`` saving a total for ``seat`` now goes through (then undone)."""
    try:
        with transaction.atomic():
            record_entry(
                night=night,
                round_number=night.open_round().number,
                seat=seat,
                points=0,
                entered_by=user,
            )
            raise _Undo
    except _Undo:
        return True
    except Refused:
        return False


@pytest.mark.django_db
def test_the_page_offers_a_seat_exactly_when_the_service_would_take_its_total():
    night = make_night(("Anna", "Bram", "Chris"), guests=("Gus",))
    dana = make_user("Dana")  # in the group, not at the table
    join_group(group=night.group, user=dana)
    enter(night, "Bram", 4)  # Bram's own total: only Bram may change it
    enter(night, "Gus", -2, by="Anna")  # a guest's: anyone at the table may
    state = night_state(night)
    checked = 0
    for user in User.objects.all():
        offered = state.enterable_by(user)
        for line in state.lines:
            if line.seat.user_id == user.pk:
                continue
            assert (line.seat.pk in offered) == _service_takes(night, line.seat, user), (
                user.name,
                line.seat.name,
            )
            checked += 1
    assert checked == 4 * 4 - 3  # four people, four seats, three of them their own
    names = {line.seat.pk: line.seat.name for line in state.lines}
    anna = User.objects.get(name="Anna")
    assert {names[pk] for pk in state.enterable_by(anna)} == {"Chris", "Gus"}
    assert state.enterable_by(dana) == set()


@pytest.mark.django_db
def test_the_form_is_for_another_seat_only_when_asked():
    night = make_night(("Anna", "Bram", "Chris"), guests=("Gus",))
    anna = User.objects.get(name="Anna")
    gus = night.seats.get(name="Gus")
    assert night_page(night, anna).target.seat.name == "Anna"
    page = night_page(night, anna, for_seat=gus.pk)
    assert page.target.seat == gus
    assert page.entry_initial == {"round": 1, "seat": gus.pk}
