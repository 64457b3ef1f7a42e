"""Migration 0014 adds the card result of every board, which `migrate` then stores
for the rounds recorded before it (the post_migrate hook of scorekeeper/apps.py), and
the player pages read from them what the engine said of the boards before."""

import pytest
from django.core.management import call_command

from scorekeeper.models import Entry, User
from scorekeeper.reads.records import card_record
from tests.helpers import migrate_app
from tests.management.test_backup import played_site
from tests.services.test_card_results import rescored_card_record

pytestmark = pytest.mark.database

BEFORE = ("scorekeeper", "0013_payment_details")


@pytest.mark.django_db(transaction=True)
def test_the_migration_stores_what_the_recorded_boards_say():
    # Nights with cards (a board alone in a mixed round, a fouled board, Fantasyland
    # made and stayed), a fixed round, a night still running.
    group, _nights = played_site()
    stored = dict(Entry.objects.values_list("pk", "card_result"))
    members = list(User.objects.filter(memberships__group=group))
    assert sum(result is not None for result in stored.values()) == 7

    migrate_app(BEFORE)  # the column goes, as on a site that has not migrated yet
    call_command("migrate", verbosity=0)

    assert dict(Entry.objects.values_list("pk", "card_result")) == stored
    for user in members:
        assert card_record(group, user) == rescored_card_record(group, user)
