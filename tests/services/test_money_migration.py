"""Migration 0012 fills the stored money of nights played before it, with the
figures the pages worked out before it (issue 22)."""

import pytest

from scorekeeper.models import Seat
from scorekeeper.reads.owed import owed_across_nights
from tests.helpers import finish, migrate_app, play
from tests.management.test_backup import played_site
from tests.services.test_money_properties import _recomputed

pytestmark = pytest.mark.database

BEFORE = ("scorekeeper", "0011_tab_payment_key_per_group")


@pytest.mark.django_db(transaction=True)
def test_the_migration_stores_what_the_played_nights_come_to(make_night):
    # Nights with cards, a fix, a night's mark, a part payment across nights, a night
    # still running; and, in a group of its own, a night under a loss cap.
    group, _nights = played_site()
    capped = make_night(("Anna", "Bram"), loss_cap_cents=100)
    finish(play(capped, {"Anna": 30, "Bram": -30}))
    expected = _recomputed()
    owed = [(p.payer.key, p.payee.key, p.cents) for p in owed_across_nights(group).payments]
    assert any(unpaid != cents for _points, cents, unpaid in expected.values())

    migrate_app(BEFORE)  # the columns go, as on a site that has not migrated yet
    migrate_app()

    stored = {seat.pk: (seat.points, seat.cents, seat.unpaid_cents) for seat in Seat.objects.all()}
    assert stored == expected
    assert [(p.payer.key, p.payee.key, p.cents) for p in owed_across_nights(group).payments] == owed
