"""Calling off a night started by mistake: gone from everything, and only while no
round went through."""

import pytest
from django.apps import apps

from scorekeeper.models import Change, Entry, Group, Night, Round, Seat, SeatDraw, User
from scorekeeper.reads.owed import owed_across_nights
from scorekeeper.services.call_off import call_off_night
from scorekeeper.services.errors import Refused
from scorekeeper.services.nights import SeatRequest
from scorekeeper.services.rounds import record_entry
from scorekeeper.services.seat_draws import start_drawn_night
from tests.helpers import enter, finish, make_night, play, start_seated
from tests.services.test_concurrency import run_at_once

SCOREKEEPER = apps.get_app_config("scorekeeper")


def row_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in SCOREKEEPER.get_models()}


def anna() -> User:
    return User.objects.get(name="Anna")


def test_a_night_without_rounds_goes_with_its_seats_open_round_and_typed_totals(make_night):
    kept = finish(play(make_night(), {"Anna": 3, "Bram": -1, "Chris": -2}))
    before = row_counts()
    changes_before = Change.objects.order_by("pk").values_list("pk", flat=True).last()
    kept_rows = (
        list(Night.objects.values()),
        list(Seat.objects.values()),
        list(Round.objects.values()),
        list(Entry.objects.values()),
    )
    mistake = make_night(group=kept.group)
    enter(mistake, "Anna", 4)  # a total typed into round 1, which never went through
    assert row_counts() != before

    call_off_night(night=mistake, by=anna())

    assert not Night.objects.filter(pk=mistake.pk).exists()
    # Nothing of it is left, in any table, but the group's record of changes: that it
    # was started and called off (issue 33).
    assert {**row_counts(), "Change": 0} == {**before, "Change": 0}
    assert list(Change.objects.filter(pk__gt=changes_before).values_list("kind", "night")) == [
        (Change.Kind.NIGHT_CALLED_OFF, None),
        (Change.Kind.NIGHT_STARTED, None),
    ]
    assert kept_rows == (
        list(Night.objects.values()),
        list(Seat.objects.values()),
        list(Round.objects.values()),
        list(Entry.objects.values()),
    )  # and nothing else changed


def test_a_drawn_night_goes_with_its_seat_draw(make_group):
    group = make_group(members=("Anna", "Bram"))
    users = list(User.objects.order_by("pk"))
    seats = [SeatRequest(user=user) for user in users]
    night = start_seated(group, users[0], seats, door=start_drawn_night)
    assert SeatDraw.objects.filter(night=night).exists()
    call_off_night(night=night, by=users[0])
    assert not SeatDraw.objects.exists() and not Night.objects.exists()


def test_once_a_round_went_through_it_is_refused_in_words_and_nothing_changes(make_night):
    night = play(make_night(), {"Anna": 3, "Bram": -1, "Chris": -2})
    before = (row_counts(), list(Night.objects.values()))
    with pytest.raises(Refused, match=r"^This night has rounds recorded: end it instead\.$"):
        call_off_night(night=night, by=anna())
    assert (row_counts(), list(Night.objects.values())) == before


def test_the_group_pages_fingerprint_changes_and_never_repeats_for_other_nights(make_night):
    first = finish(play(make_night(), {"Anna": 3, "Bram": -1, "Chris": -2}))
    group = Group.objects.get(pk=first.group_id)
    before = group.nights_version()
    mistake = make_night(group=group)
    with_mistake = group.nights_version()

    call_off_night(night=mistake, by=anna())
    after = group.nights_version()
    assert after != with_mistake  # a phone showing the mistake polls and loses it
    assert after == before  # the same nights as before it started, the same fingerprint

    # Another night started in its place has the count and versions the mistake had,
    # but it is another night: the fingerprint says so.
    make_night(group=group)
    assert group.nights_version() not in {with_mistake, before}


def test_an_entry_saved_on_a_night_called_off_meanwhile_is_refused_in_words(make_night):
    night = make_night()
    # Bram's phone posted his total: the view read the night and checked his seat...
    page_loaded, seat = Night.objects.get(pk=night.pk), night.seats.get(name="Bram")
    # ...and Anna's call-off went through before his save reached the night's door.
    call_off_night(night=night, by=anna())
    with pytest.raises(Refused, match=r"^This night was called off, so nothing was saved\.$"):
        record_entry(night=page_loaded, round_number=1, seat=seat, points=2, entered_by=seat.user)
    assert not Night.objects.exists() and not Entry.objects.exists()


def _save_and_call_off(night: Night) -> list:
    """Bram's total and Anna's call-off of ``night``, sent at the same instant."""
    seat = night.seats.get(name="Bram")

    def entry() -> None:
        record_entry(night=night, round_number=1, seat=seat, points=2, entered_by=seat.user)

    def call_off() -> None:
        call_off_night(night=night, by=anna())

    return run_at_once([entry, call_off])


@pytest.mark.database
@pytest.mark.django_db(transaction=True)
def test_a_call_off_and_an_entry_at_the_same_instant_never_fail_with_an_error(make_group):
    group = make_group(members=("Anna", "Bram"))
    for _ in range(5):
        errors = _save_and_call_off(make_night(("Anna", "Bram"), group=group))
        # The call-off always goes through (a typed total does not record a round);
        # the entry either went first and went with the night, or is refused in words.
        assert [str(error) for error in errors] in (
            [],
            ["This night was called off, so nothing was saved."],
        )
        assert all(isinstance(error, Refused) for error in errors), errors
        assert not Night.objects.exists() and not Entry.objects.exists()


def test_what_is_owed_knows_nothing_of_it(make_night):
    kept = finish(play(make_night(), {"Anna": 3, "Bram": -1, "Chris": -2}))
    owed_before = owed_across_nights(kept.group).fingerprint
    mistake = make_night(group=kept.group)
    call_off_night(night=mistake, by=anna())
    assert owed_across_nights(kept.group).fingerprint == owed_before
