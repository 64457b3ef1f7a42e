"""Paying what is still owed across nights: whole, in part, once, against the oldest nights."""

import pytest

from scorekeeper.models import Group, User
from scorekeeper.models.payments import TabPart, TabPayment
from scorekeeper.reads.owed import folded_settlement, owed_across_nights
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import join_group
from scorekeeper.services.payments import pay_owed, set_settle_everything, undo_owed_payment
from scorekeeper.table.people import person_key
from tests.helpers import finish, make_group, make_night, make_user, paid, play


def _two_nights():
    """Night one: Chris owes Anna 60 ct, Bram owes Anna 40 ct. Night two: Chris owes Bram
    30 ct. Netted: Anna is owed 100, Bram owes 10, Chris owes 90."""
    first = finish(play(make_night(), {"Anna": 10, "Bram": -4, "Chris": -6}))
    second = make_night(group=first.group)
    finish(play(second, {"Anna": 0, "Bram": 3, "Chris": -3}))
    return first, second


def _key(name: str) -> str:
    return person_key(seats_of_user(name))


def seats_of_user(name: str):
    return User.objects.get(name=name).seats.first()


def _pay(group, payer, payee, cents, *, owed=None, night=None):
    owed = owed or owed_across_nights(group)
    return pay_owed(
        group=group,
        payer=_key(payer),
        payee=_key(payee),
        cents=cents,
        currency="EUR",
        fingerprint=owed.fingerprint,
        marked_by=User.objects.get(name="Anna"),
        night=night,
    )


def _owed(group):
    return [(p.payer.name, p.payee.name, p.cents) for p in owed_across_nights(group).payments]


def test_paying_what_is_owed_clears_it_against_the_oldest_night_first(db):
    first, second = _two_nights()
    group = first.group
    assert _owed(group) == [("Chris", "Anna", 90), ("Bram", "Anna", 10)]

    tab = _pay(group, "Chris", "Anna", 70)

    assert _owed(group) == [("Chris", "Anna", 20), ("Bram", "Anna", 10)]
    parts = {(part.seat.night_id, part.seat.name, part.cents) for part in tab.parts.all()}
    # Chris's 70 ct square his first night (60) and then 10 of his second.
    assert parts == {(first.pk, "Chris", 60), (second.pk, "Chris", 10), (first.pk, "Anna", -70)}


def test_a_partial_payment_leaves_the_rest_owed(db):
    first, _ = _two_nights()

    _pay(first.group, "Chris", "Anna", 25)

    assert _owed(first.group) == [("Chris", "Anna", 65), ("Bram", "Anna", 10)]
    assert TabPayment.objects.get().cents == 25


def test_the_same_button_pressed_twice_records_the_payment_once(db):
    first, _ = _two_nights()
    owed = owed_across_nights(first.group)

    once = _pay(first.group, "Chris", "Anna", 90, owed=owed)
    twice = _pay(first.group, "Chris", "Anna", 90, owed=owed)

    assert once.pk == twice.pk
    assert TabPayment.objects.count() == 1
    assert _owed(first.group) == [("Bram", "Anna", 10)]


@pytest.mark.parametrize("guests", [(), ("Kees",)], ids=["members", "a guest of one name"])
def test_the_same_people_paying_the_same_in_two_groups_are_two_payments(db, guests):
    players = ("Anna", "Bram")
    totals = {"Anna": 5, "Bram": -5, **dict.fromkeys(guests, 0)}
    paid = []
    for name in ("Friday", "Holiday"):
        night = make_night(players, guests=guests, group=make_group(name, members=players))
        finish(play(night, totals))
        paid.append(_pay(night.group, "Bram", "Anna", 50))

    assert paid[0].key == paid[1].key  # the same people owing the same: equal keys
    assert paid[0].pk != paid[1].pk
    assert {tab.group.name for tab in TabPayment.objects.all()} == {"Friday", "Holiday"}
    assert _owed(paid[0].group) == _owed(paid[1].group) == []


def test_a_button_from_an_older_list_is_refused_and_changes_nothing(db):
    first, _ = _two_nights()
    old = owed_across_nights(first.group)
    _pay(first.group, "Chris", "Anna", 90, owed=old)

    with pytest.raises(Refused, match="has changed"):
        _pay(first.group, "Bram", "Anna", 10, owed=old)
    assert TabPayment.objects.count() == 1


@pytest.mark.parametrize(
    ("payer", "payee", "cents", "says"),
    [
        ("Anna", "Chris", 90, "not owed"),  # the wrong way round
        ("Chris", "Bram", 10, "not owed"),  # netted away
        ("Chris", "Anna", 91, "at most what is owed"),
        ("Chris", "Anna", 0, "more than zero"),
    ],
)
def test_a_payment_that_is_not_owed_is_refused_in_plain_words(db, payer, payee, cents, says):
    first, _ = _two_nights()

    with pytest.raises(Refused, match=says):
        _pay(first.group, payer, payee, cents)
    assert TabPayment.objects.count() == 0 and TabPart.objects.count() == 0


def test_someone_who_left_the_group_can_still_be_paid_off(db):
    from scorekeeper.services.groups import leave_group

    first, _ = _two_nights()
    leave_group(group=first.group, user=User.objects.get(name="Chris"))

    _pay(first.group, "Chris", "Anna", 90)

    assert _owed(first.group) == [("Bram", "Anna", 10)]


def test_settling_everything_on_a_night_pays_its_folded_payments(db):
    first, second = _two_nights()
    folded = folded_settlement(second)
    assert [(p.payer.name, p.payee.name, p.cents) for p in folded.payments] == [
        ("Chris", "Anna", 90),
        ("Bram", "Anna", 10),
    ]
    assert sorted((line.person.name, line.cents) for line in folded.earlier) == [
        ("Anna", 100),
        ("Bram", -40),
        ("Chris", -60),
    ]

    _pay(first.group, "Bram", "Anna", 10, owed=folded.owed, night=second)

    assert _owed(first.group) == [("Chris", "Anna", 90)]


def test_a_running_nights_folded_payments_cannot_be_marked(db):
    first, _ = _two_nights()
    tonight = play(make_night(group=first.group), {"Anna": 1, "Bram": -1, "Chris": 0})

    with pytest.raises(Refused, match="once the night is over"):
        _pay(first.group, "Chris", "Anna", 60, owed=folded_settlement(tonight).owed, night=tonight)


def test_a_nights_own_marks_still_work_beside_the_tab(db):
    first, _ = _two_nights()
    paid(first, "Chris", "Anna", 60)

    assert _owed(first.group) == [("Chris", "Anna", 30), ("Bram", "Anna", 10)]


def test_only_a_member_changes_whether_the_group_settles_everything(db):
    night = make_night()
    outsider = User.objects.create_user(name="Zed", password="x")

    set_settle_everything(group=night.group, on=True, by=User.objects.get(name="Anna"))
    assert Group.objects.get().settle_everything
    with pytest.raises(Refused):
        set_settle_everything(group=night.group, on=False, by=outsider)
    assert Group.objects.get().settle_everything


@pytest.mark.parametrize("who", ["Chris", "Anna", "Bram"], ids=["payer", "payee", "entered it"])
def test_a_payment_across_nights_can_be_taken_back_by_either_side_or_whoever_entered_it(db, who):
    first, _ = _two_nights()
    group = first.group
    tab = pay_owed(
        group=group,
        payer=_key("Chris"),
        payee=_key("Anna"),
        cents=70,
        currency="EUR",
        fingerprint=owed_across_nights(group).fingerprint,
        marked_by=User.objects.get(name="Bram"),
    )

    undo_owed_payment(group=group, payment=tab, by=User.objects.get(name=who))

    assert not TabPayment.objects.exists() and not TabPart.objects.exists()
    assert _owed(group) == [("Chris", "Anna", 90), ("Bram", "Anna", 10)]


def test_someone_else_cannot_take_a_payment_back_and_it_stays(db):
    first, _ = _two_nights()
    group = first.group
    join_group(group=group, user=make_user("Dora"))
    tab = _pay(group, "Chris", "Anna", 70)  # entered by Anna, the payee

    with pytest.raises(Refused, match="Only Chris, Anna or whoever marked it"):
        undo_owed_payment(group=group, payment=tab, by=User.objects.get(name="Dora"))

    assert TabPayment.objects.get() == tab
    assert _owed(group) == [("Chris", "Anna", 20), ("Bram", "Anna", 10)]


def test_a_payment_taken_back_twice_is_refused_the_second_time(db):
    first, _ = _two_nights()
    tab = _pay(first.group, "Chris", "Anna", 70)
    anna = User.objects.get(name="Anna")
    undo_owed_payment(group=first.group, payment=tab, by=anna)

    with pytest.raises(Refused, match="taken back already"):
        undo_owed_payment(group=first.group, payment=tab, by=anna)
