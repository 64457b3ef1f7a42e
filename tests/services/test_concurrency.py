"""Phones saving at the same instant, against the real database: every entry counts
once, every round goes through once, the button moves once a round."""

import contextlib
import threading

import pytest
from django.db import connection

from scorekeeper.models import Entry, Night
from scorekeeper.services.errors import Refused
from tests.helpers import enter

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
