"""The money's moments (issue 32): a mark that may be a payment across nights again is
asked about first, and a player who leaves early pays (or is paid) before they go."""

import pytest

from scorekeeper.models import Payment, Seat, User
from scorekeeper.models.settlements import payment_lines
from scorekeeper.reads.owed import owed_across_nights
from scorekeeper.services.errors import Refused
from scorekeeper.services.payments import mark_paid, pay_owed, unmark_paid
from scorekeeper.services.round_fixes import edit_round
from scorekeeper.services.seats import leave_seat
from scorekeeper.table.people import person_key
from tests.helpers import finish, make_night, play, play_round, seats_of


def _owes(name: str) -> int:
    """What ``name`` still owes across finished nights, as stored."""
    return -sum(
        seat.unpaid_cents for seat in Seat.objects.filter(name=name, night__ended_at__isnull=False)
    )


def _bo_paid_ada_across_nights():
    """Night 1: Bo owes Ada €1.00. Night 2: Bo owes Ada €0.60. Then Bo pays Ada €0.60
    on the group page: oldest first, it goes to night 1."""
    first = finish(play(make_night(("Ada", "Bo")), {"Ada": 10, "Bo": -10}))
    second = finish(play(make_night(("Ada", "Bo"), group=first.group), {"Ada": 6, "Bo": -6}))
    owed = owed_across_nights(first.group)
    ada = User.objects.get(name="Ada")
    seats = seats_of(second)
    pay_owed(
        group=first.group,
        payer=person_key(seats["Bo"]),
        payee=person_key(seats["Ada"]),
        cents=60,
        currency="EUR",
        fingerprint=owed.fingerprint,
        marked_by=ada,
    )
    return first, second, ada


def test_a_mark_that_may_be_a_payment_across_nights_again_is_asked_about_and_writes_nothing(db):
    _, second, ada = _bo_paid_ada_across_nights()
    assert _owes("Bo") == 100
    seats = seats_of(second)
    [line] = payment_lines(second)
    assert (line.payer.name, line.payee.name, line.cents, line.across) == ("Bo", "Ada", 60, 0)

    with pytest.raises(
        Refused, match=r"Is this the €0\.60 Bo paid Ada on .*\? It went to the night of"
    ):
        mark_paid(night=second, payer=seats["Bo"], payee=seats["Ada"], cents=60, marked_by=ada)

    assert not Payment.objects.exists()
    assert _owes("Bo") == 100  # not €0.40: the €0.60 is not counted twice


def test_told_it_is_another_payment_the_mark_is_recorded_once(db):
    _, second, ada = _bo_paid_ada_across_nights()
    seats = seats_of(second)
    kwargs = dict(night=second, payer=seats["Bo"], payee=seats["Ada"], cents=60, marked_by=ada)

    once = mark_paid(**kwargs, another_payment=True)
    twice = mark_paid(**kwargs)  # a second tap on a line marked already changes nothing

    assert once.pk == twice.pk and Payment.objects.count() == 1
    assert _owes("Bo") == 40


def test_the_question_names_the_night_the_payment_went_to(db):
    first, second, _ = _bo_paid_ada_across_nights()
    [line] = payment_lines(second)
    [across] = line.elsewhere
    assert across.nights == (first,) and across.payment.cents == 60


# Leaving with your money: Bram leaves after round 2 with -€5.00.
def bram_leaves():
    night = make_night(("Anna", "Bram", "Cora", "Dan"))
    play(
        night,
        {"Anna": 40, "Bram": -30, "Cora": 10, "Dan": -20},
        {"Anna": 10, "Bram": -20, "Cora": 0, "Dan": 10},
    )
    anna = User.objects.get(name="Anna")
    leave_seat(night=night, seat=seats_of(night)["Bram"], by=anna)
    return night, anna


def _lines(night):
    return [
        (line.payer.name, line.payee.name, line.cents, line.is_paid)
        for line in payment_lines(night)
    ]


def test_who_leaves_is_squared_against_the_standings_at_their_leaving_in_the_fewest_payments(db):
    night, _ = bram_leaves()
    lines = payment_lines(night)
    # Standings at round 2: Anna +€5.00, Cora +€1.00, Dan -€1.00, Bram -€5.00.
    assert [(line.payer.name, line.payee.name, line.cents) for line in lines if line.leaver] == [
        ("Bram", "Anna", 500)
    ]
    assert all(line.leaver.name == "Bram" for line in lines if line.leaver)
    # The rest "if we stopped now", with Bram's payment counted.
    assert [
        (line.payer.name, line.payee.name, line.cents) for line in lines if not line.leaver
    ] == [("Dan", "Cora", 100)]


def test_only_the_leavers_payment_can_be_marked_while_the_night_runs(db):
    night, anna = bram_leaves()
    seats = seats_of(night)
    with pytest.raises(Refused, match="once the night is over"):
        mark_paid(night=night, payer=seats["Dan"], payee=seats["Cora"], cents=100, marked_by=anna)
    with pytest.raises(Refused, match="once the night is over"):
        mark_paid(night=night, payer=seats["Bram"], payee=seats["Anna"], cents=400, marked_by=anna)
    assert not Payment.objects.exists()


def test_bram_pays_anna_his_five_euros_now_and_the_end_of_the_night_counts_it(db):
    night, anna = bram_leaves()
    seats = seats_of(night)
    mark_paid(night=night, payer=seats["Bram"], payee=seats["Anna"], cents=500, marked_by=anna)
    seats = seats_of(night)
    assert seats["Bram"].unpaid_cents == 0 and seats["Anna"].unpaid_cents == 0  # stored at once
    play_round(night, {"Anna": -30, "Cora": 10, "Dan": 20})
    night = finish(night)

    lines = _lines(night)
    assert lines[0] == ("Bram", "Anna", 500, True)
    # Nobody else pays Bram or is paid by him; the rest settle among themselves.
    assert [line for line in lines[1:] if "Bram" in line[:2]] == []
    # Final: Anna +€2.00, Cora +€2.00, Dan +€1.00, Bram -€5.00 (paid to Anna already).
    assert lines[1:] == [("Anna", "Cora", 200, False), ("Anna", "Dan", 100, False)]
    seats = {seat.name: seat for seat in Seat.objects.filter(night=night)}
    assert sum(seat.cents for seat in seats.values()) == 0
    assert sum(seat.unpaid_cents for seat in seats.values()) == 0
    # What is still owed is what the open lines say, Bram squared.
    assert {name: seat.unpaid_cents for name, seat in seats.items()} == {
        "Anna": -300,
        "Bram": 0,
        "Cora": 200,
        "Dan": 100,
    }
    for payer, payee, cents, _paid in lines[1:]:
        mark_paid(night=night, payer=seats[payer], payee=seats[payee], cents=cents, marked_by=anna)
    assert all(seat.unpaid_cents == 0 for seat in Seat.objects.filter(night=night))


def test_a_leavers_mark_can_be_taken_back_and_blocks_a_fix_until_it_is(db):
    night, anna = bram_leaves()
    seats = seats_of(night)
    mark = mark_paid(
        night=night, payer=seats["Bram"], payee=seats["Anna"], cents=500, marked_by=anna
    )
    with pytest.raises(Refused, match="paid already"):
        edit_round(night=night, number=1, points={s.pk: 0 for s in seats.values()}, edited_by=anna)
    unmark_paid(night=night, payment=mark, by=anna)
    assert seats_of(night)["Bram"].unpaid_cents == -500
    assert ("Bram", "Anna", 500, False) in _lines(night)


def test_unmarked_leavers_money_settles_with_the_rest_at_the_end(db):
    night, _ = bram_leaves()
    play_round(night, {"Anna": -30, "Cora": 10, "Dan": 20})
    night = finish(night)
    lines = payment_lines(night)
    assert all(line.leaver is None for line in lines)
    balances = {seat.pk: seat.cents for seat in night.seats.all()}
    for line in lines:
        balances[line.payer.pk] += line.cents
        balances[line.payee.pk] -= line.cents
    assert set(balances.values()) == {0}
