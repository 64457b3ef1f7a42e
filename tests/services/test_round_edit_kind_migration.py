"""Migration 0016 turns the English note a round's undo was stored with into a kind
("undo"), and back again when it is reversed."""

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scorekeeper.models import RoundEdit, User
from scorekeeper.services.rounds import undo_last_round
from tests.helpers import enter, play

pytestmark = pytest.mark.database

BEFORE = ("scorekeeper", "0015_pay_details_iban_compact")


def _migrate(target: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor


@pytest.mark.django_db(transaction=True)
def test_undo_notes_become_kinds_and_back(make_night):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 2, "Bram": -2})
    undo_last_round(night=night, by=User.objects.get(name="Bram"))
    enter(night, "Anna", 5)
    enter(night, "Bram", -5)
    kinds = list(RoundEdit.objects.order_by("pk").values_list("pk", "kind"))
    assert [kind for _, kind in kinds] == ["undo", "fix", "fix"]

    executor = _migrate([BEFORE])  # as a site that has not migrated yet keeps them
    old = executor.loader.project_state([BEFORE]).apps.get_model("scorekeeper", "RoundEdit")
    notes = list(old.objects.order_by("pk").values_list("note", flat=True))
    assert notes == ["reopened with undo", "", ""]

    call_command("migrate", verbosity=0)
    assert list(RoundEdit.objects.order_by("pk").values_list("pk", "kind")) == kinds
