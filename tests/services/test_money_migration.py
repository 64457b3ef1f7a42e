"""Migration 0012 fills the stored money of nights played before it, with the
figures the pages worked out before it (issue 22)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scorekeeper.models import Seat, User
from scorekeeper.reads.owed import owed_across_nights
from scorekeeper.reads.results import night_results
from scorekeeper.services.payments import mark_paid, pay_owed
from tests.helpers import finish, play, play_two_nights
from tests.services.test_money_properties import _recomputed

BEFORE = ("scorekeeper", "0011_tab_payment_key_per_group")


def _migrate(target: list[tuple[str, str]]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


def anna() -> User:
    return User.objects.get(name="Anna")


@pytest.mark.django_db(transaction=True)
def test_the_migration_stores_what_the_played_nights_come_to(make_night):
    group, _, _ = play_two_nights(make_night)
    capped = make_night(("Anna", "Bram"), group=group, loss_cap_cents=100)
    finish(play(capped, {"Anna": 30, "Bram": -30}))
    line = night_results(capped).payments[0]
    mark_paid(night=capped, payer=line.payer, payee=line.payee, cents=line.cents, marked_by=anna())
    owed = owed_across_nights(group)
    payment = owed.payments[0]
    pay_owed(
        group=group,
        payer=payment.payer.key,
        payee=payment.payee.key,
        cents=payment.cents // 2,
        currency=payment.currency,
        fingerprint=owed.fingerprint,
        marked_by=anna(),
    )
    expected = _recomputed()
    owed = [(p.payer.key, p.payee.key, p.cents) for p in owed_across_nights(group).payments]
    assert any(unpaid != cents for _points, cents, unpaid in expected.values())

    latest = MigrationExecutor(connection).loader.graph.leaf_nodes("scorekeeper")
    _migrate([BEFORE])  # the columns go, as on a site that has not migrated yet
    _migrate(latest)

    stored = {seat.pk: (seat.points, seat.cents, seat.unpaid_cents) for seat in Seat.objects.all()}
    assert stored == expected
    assert [(p.payer.key, p.payee.key, p.cents) for p in owed_across_nights(group).payments] == owed
