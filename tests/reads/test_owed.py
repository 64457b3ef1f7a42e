"""What is still owed across nights: money per person, netted, in the fewest payments."""

import pytest

from scorekeeper.models import User
from scorekeeper.reads.owed import folded_settlement, owed_across_nights
from scorekeeper.services.groups import leave_group
from tests.helpers import finish, make_night, paid, play, rounds_of


def _payments(owed):
    return [(p.payer.name, p.payee.name, p.cents, p.currency) for p in owed.payments]


def test_a_finished_nights_unpaid_payments_stay_owed(db):
    night = finish(play(make_night(), {"Anna": 10, "Bram": -4, "Chris": -6}))

    owed = owed_across_nights(night.group)

    assert _payments(owed) == [("Chris", "Anna", 60, "EUR"), ("Bram", "Anna", 40, "EUR")]


def test_a_running_night_owes_nothing_yet(db):
    night = play(make_night(), {"Anna": 10, "Bram": -4, "Chris": -6})

    assert owed_across_nights(night.group).payments == []


def test_a_payment_marked_on_the_night_is_no_longer_owed(db):
    night = finish(play(make_night(), {"Anna": 10, "Bram": -4, "Chris": -6}))
    paid(night, "Chris", "Anna", 60)

    assert _payments(owed_across_nights(night.group)) == [("Bram", "Anna", 40, "EUR")]


def test_two_nights_net_per_person_in_the_fewest_payments(db):
    first = finish(play(make_night(), {"Anna": 10, "Bram": -4, "Chris": -6}))
    group = first.group
    # The second night turns Bram's debt to Anna around: 5 at 10 ct is 50 ct.
    second = make_night(group=group)
    finish(play(second, {"Anna": -5, "Bram": 5, "Chris": 0}))

    owed = owed_across_nights(group)

    # Anna: +100 - 50 = +50; Bram: -40 + 50 = +10; Chris: -60.
    assert _payments(owed) == [("Chris", "Anna", 50, "EUR"), ("Chris", "Bram", 10, "EUR")]


def test_mixed_stakes_add_up_as_money_never_as_points(db):
    first = finish(play(make_night(point_cents=50), {"Anna": 10, "Bram": -10, "Chris": 0}))
    # Ten points back at 10 ct a point is €1, not the €5 Bram lost.
    second = make_night(group=first.group, point_cents=10)
    finish(play(second, {"Anna": -10, "Bram": 10, "Chris": 0}))

    assert _payments(owed_across_nights(first.group)) == [("Bram", "Anna", 400, "EUR")]


def test_a_player_who_left_the_group_still_owes(db):
    night = finish(play(make_night(), {"Anna": 10, "Bram": -4, "Chris": -6}))
    leave_group(group=night.group, user=User.objects.get(name="Chris"))

    owed = owed_across_nights(night.group)

    chris = owed.people["user:" + str(User.objects.get(name="Chris").pk)]
    assert chris.left
    assert _payments(owed)[0] == ("Chris", "Anna", 60, "EUR")


def test_a_guest_is_the_same_person_across_nights_by_name(db):
    first = finish(
        play(make_night(("Anna", "Bram"), guests=("Eve",)), {"Anna": 3, "Bram": 0, "Eve": -3})
    )
    second = make_night(("Anna", "Bram"), guests=("eve",), group=first.group)
    finish(play(second, {"Anna": -1, "Bram": 0, "eve": 1}))

    assert _payments(owed_across_nights(first.group)) == [("Eve", "Anna", 20, "EUR")]


def test_the_folded_settlement_shows_earlier_nights_as_their_own_line(db):
    first = finish(play(make_night(), {"Anna": 10, "Bram": -4, "Chris": -6}))
    tonight = play(make_night(group=first.group), {"Anna": -2, "Bram": 2, "Chris": 0})

    folded = folded_settlement(tonight)

    assert sorted((line.person.name, line.cents) for line in folded.earlier) == [
        ("Anna", 100),
        ("Bram", -40),
        ("Chris", -60),
    ]
    # Anna +100 - 20, Bram -40 + 20, Chris -60.
    assert _payments(folded) == [("Chris", "Anna", 60, "EUR"), ("Bram", "Anna", 20, "EUR")]


def test_the_folded_settlement_leaves_out_later_nights_and_other_currencies(db):
    first = make_night()
    finish(play(first, {"Anna": 10, "Bram": -10, "Chris": 0}))
    later = make_night(group=first.group)
    finish(play(later, {"Anna": -3, "Bram": 3, "Chris": 0}))

    folded = folded_settlement(first)

    assert folded.earlier == []
    assert _payments(folded) == [("Bram", "Anna", 100, "EUR")]


@pytest.mark.database
def test_the_owed_read_takes_the_same_queries_for_two_nights_as_for_six(
    db, django_assert_num_queries
):
    group = finish(play(make_night(), *rounds_of(2))).group
    finish(play(make_night(group=group), *rounds_of(2)))
    with django_assert_num_queries(4):
        owed_across_nights(group)
    for _ in range(4):
        finish(play(make_night(group=group), *rounds_of(8)))
    with django_assert_num_queries(4):
        owed = owed_across_nights(group)
    # Each night leaves Anna +15, Bram -3, Chris -12 at 10 ct a point.
    assert _payments(owed) == [("Chris", "Anna", 720, "EUR"), ("Bram", "Anna", 180, "EUR")]
