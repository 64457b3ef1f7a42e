"""Phones saving at the same instant, against the real database: every entry counts
once, every round goes through once, the button moves once a round; a fix and a
payment across nights never both go through, and no two writes deadlock."""

import contextlib
import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection

from scorekeeper.models import Entry, Night, RoundEdit
from scorekeeper.models.payments import TabPayment
from scorekeeper.reads.owed import owed_across_nights
from scorekeeper.services import payments, round_fixes
from scorekeeper.services import seats as seats_service
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import join_group
from scorekeeper.services.money import store_money
from scorekeeper.services.payments import mark_paid, pay_owed
from scorekeeper.services.round_fixes import edit_round
from scorekeeper.services.seats import add_seat
from scorekeeper.table.people import person_key
from tests.helpers import enter, finish, make_user, play

pytestmark = pytest.mark.database

ROUNDS = 25
TOTALS = {"Anna": 5, "Bram": -8, "Chris": 3}
PASSES = 10
LAST_TWO_RACE = {"Anna": 4, "Bram": -1, "Chris": -2, "Dora": -1}


def run_at_once(jobs) -> list[BaseException]:
    """Start every job on its own thread at the same moment; return what they raised."""
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def worker(job):
        try:
            barrier.wait()
            job()
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=worker, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


@pytest.mark.django_db(transaction=True)
def test_simultaneous_entries_and_double_taps_count_once(make_night):
    night = make_night(tuple(TOTALS))

    for number in range(1, ROUNDS + 1):

        def save(name, number=number):
            # A double tap that arrives after the round went through is refused.
            with contextlib.suppress(Refused):
                enter(night, name, TOTALS[name], number=number)

        # Every phone saves, and every phone double-taps: six posts at one instant.
        errors = run_at_once([lambda n=name: save(n) for name in TOTALS for _ in range(2)])
        assert errors == []

    night = Night.objects.get(pk=night.pk)
    recorded = list(night.rounds.filter(recorded_at__isnull=False).order_by("number"))
    assert [r.number for r in recorded] == list(range(1, ROUNDS + 1))
    assert Entry.objects.filter(round__night=night).count() == ROUNDS * len(TOTALS)
    assert night.rounds.filter(recorded_at__isnull=True).count() == 1
    # The button went once round the table per round: A, B, C, A, ...
    names = list(TOTALS)
    dealers = [r.dealer.name for r in night.rounds.order_by("number")]
    assert dealers == [names[i % 3] for i in range(ROUNDS + 1)]


@pytest.mark.django_db(transaction=True)
def test_the_last_two_entries_arriving_together_close_the_round_once(make_night):
    night = make_night(tuple(LAST_TWO_RACE))

    def save(name: str, number: int) -> None:
        enter(night, name, LAST_TWO_RACE[name], number=number)

    for number in range(1, PASSES + 1):
        # Anna and Bram are in; Chris and Dora save at one instant, each tapping twice.
        save("Anna", number)
        save("Bram", number)
        errors = run_at_once(
            [lambda n=name, r=number: save(n, r) for name in ("Chris", "Dora")] * 2
        )
        assert all(isinstance(error, Refused) for error in errors)

    recorded = night.rounds.filter(recorded_at__isnull=False)
    assert night.rounds.count() == PASSES + 1
    assert [r.number for r in recorded.order_by("number")] == list(range(1, PASSES + 1))
    assert Entry.objects.filter(round__night=night).count() == PASSES * len(LAST_TWO_RACE)
    names = list(LAST_TWO_RACE)
    dealers = [r.dealer.name for r in night.rounds.order_by("number")]
    assert dealers == [names[i % 4] for i in range(PASSES + 1)]


def _settled_night(make_night, group=None) -> Night:
    night = make_night(group=group) if group else make_night()
    return finish(play(night, {"Anna": 10, "Bram": -4, "Chris": -6}))


def _fix_and_payment(night: Night) -> tuple[Callable[[], object], Callable[[], object]]:
    seats = {seat.name: seat for seat in night.seats.all()}
    fingerprint = owed_across_nights(night.group).fingerprint
    anna = seats["Anna"].user
    totals = {seats["Anna"].pk: 9, seats["Bram"].pk: -3, seats["Chris"].pk: -6}

    def fix():
        edit_round(night=night, number=1, points=totals, edited_by=anna)

    def pay():
        pay_owed(
            group=night.group,
            payer=person_key(seats["Chris"]),
            payee=person_key(seats["Anna"]),
            cents=60,
            currency=night.currency,
            fingerprint=fingerprint,
            marked_by=anna,
        )

    return fix, pay


def while_paused(monkeypatch, module, name: str, first, second) -> list[BaseException]:
    """Run ``first`` on a thread until it has called ``module.name``, hold it there
    (its transaction open, its locks held) while ``second`` starts on another, then let
    both finish: what each raised. A race made certain instead of likely."""
    reached = threading.Event()
    original = getattr(module, name)

    def paused(*args, **kwargs):
        result = original(*args, **kwargs)
        if threading.current_thread().name == "first":
            reached.set()
            time.sleep(0.5)
        return result

    monkeypatch.setattr(module, name, paused)
    errors: list[BaseException] = []

    def run(job):
        try:
            job()
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    one = threading.Thread(target=run, args=(first,), name="first")
    one.start()
    assert reached.wait(timeout=30)
    two = threading.Thread(target=run, args=(second,), name="second")
    two.start()
    for thread in (one, two):
        thread.join(timeout=60)
    return errors


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("fix_first", [True, False], ids=["fix first", "payment first"])
def test_a_fix_and_a_payment_across_nights_at_one_instant_one_goes_through(
    make_night, monkeypatch, fix_first
):
    # The fix changes what Bram owes Anna, so a payment made first refuses the fix
    # (money paid) and a fix made first refuses the payment (the amounts changed).
    night = _settled_night(make_night)
    fix, pay = _fix_and_payment(night)
    if fix_first:  # held once it checked that no money was paid
        errors = while_paused(monkeypatch, round_fixes, "_refuse_under_paid_money", fix, pay)
    else:  # held once it checked what is owed
        errors = while_paused(monkeypatch, payments, "owed_in", pay, fix)
    assert len(errors) == 1 and isinstance(errors[0], Refused), errors
    fixed = RoundEdit.objects.filter(round__night=night).exists()
    paid = TabPayment.objects.filter(group=night.group).exists()
    assert fixed != paid
    # The seats' stored money is what the rows say, whichever went through.
    stored = {seat.pk: seat.unpaid_cents for seat in night.seats.all()}
    store_money([night.pk])
    assert stored == {seat.pk: seat.unpaid_cents for seat in night.seats.all()}


@pytest.mark.django_db(transaction=True)
def test_seating_a_member_and_a_mark_from_a_stale_page_never_deadlock(make_night, monkeypatch):
    # add_seat held with the night locked; a mark sent from an old settlement page of
    # the same night takes the group, then the night: the same order, so it waits.
    night = make_night()
    anna = night.seats.get(name="Anna").user
    seats = {seat.name: seat for seat in night.seats.all()}
    dora = make_user("Dora")
    join_group(group=night.group, user=dora)

    def seat_dora():
        add_seat(night=night, by=anna, user=dora, position=4)

    def mark():
        mark_paid(night=night, payer=seats["Bram"], payee=seats["Anna"], cents=1, marked_by=anna)

    errors = while_paused(monkeypatch, seats_service, "at_table", seat_dora, mark)
    assert [str(error) for error in errors] == ["Payments can be marked once the night is over."]
    assert night.seats.filter(user=dora).exists()
