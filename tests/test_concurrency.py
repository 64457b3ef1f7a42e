"""Phones saving at the same instant, against the real database: every entry counts
once, every round goes through once, the button moves once a round."""

import contextlib
import threading

import pytest
from django.db import connection

from scorekeeper.models import Entry, Night
from scorekeeper.services.errors import Refused
from scorekeeper.services.rounds import record_entry

ROUNDS = 25
TOTALS = {"Anna": 5, "Bram": -8, "Chris": 3}


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
    seats = {seat.name: seat for seat in night.seats.select_related("user")}

    for number in range(1, ROUNDS + 1):

        def save(name, number=number):
            seat = seats[name]
            # A double tap that arrives after the round went through is refused.
            with contextlib.suppress(Refused):
                record_entry(
                    night=night,
                    round_number=number,
                    seat=seat,
                    points=TOTALS[name],
                    entered_by=seat.user,
                )

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
    night = make_night(("Anna", "Bram", "Chris", "Dora"))
    seats = {seat.name: seat for seat in night.seats.select_related("user")}
    record_entry(
        night=night, round_number=1, seat=seats["Anna"], points=4, entered_by=seats["Anna"].user
    )
    record_entry(
        night=night, round_number=1, seat=seats["Bram"], points=-1, entered_by=seats["Bram"].user
    )

    for _ in range(10):
        errors = run_at_once(
            [
                lambda: record_entry(
                    night=night,
                    round_number=1,
                    seat=seats["Chris"],
                    points=-2,
                    entered_by=seats["Chris"].user,
                ),
                lambda: record_entry(
                    night=night,
                    round_number=1,
                    seat=seats["Dora"],
                    points=-1,
                    entered_by=seats["Dora"].user,
                ),
            ]
            * 2
        )
        assert all(isinstance(error, Refused) for error in errors)

    assert night.rounds.count() == 2
    assert night.rounds.get(number=1).is_recorded
    assert night.rounds.get(number=2).dealer.name == "Bram"
