"""Migration 0016 turns the English note a round's undo was stored with into a kind
("undo"), and back again when it is reversed."""

import pytest
from django.core.management import call_command

from scorekeeper.models import RoundEdit, User
from scorekeeper.services.round_fixes import undo_last_round
from tests.helpers import enter, migrate_app, play

pytestmark = pytest.mark.database

BEFORE = ("scorekeeper", "0015_pay_details_iban_compact")


@pytest.mark.django_db(transaction=True)
def test_undo_notes_become_kinds_and_back(make_night):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 2, "Bram": -2})
    undo_last_round(night=night, by=User.objects.get(name="Bram"))
    enter(night, "Anna", 5)
    enter(night, "Bram", -5)
    kinds = list(RoundEdit.objects.order_by("pk").values_list("pk", "kind"))
    assert [kind for _, kind in kinds] == ["undo", "fix", "fix"]

    old = migrate_app(BEFORE).get_model("scorekeeper", "RoundEdit")  # not migrated yet
    notes = list(old.objects.order_by("pk").values_list("note", flat=True))
    assert notes == ["reopened with undo", "", ""]

    call_command("migrate", verbosity=0)
    assert list(RoundEdit.objects.order_by("pk").values_list("pk", "kind")) == kinds
