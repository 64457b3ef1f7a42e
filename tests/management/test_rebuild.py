"""The stored figures can always be made again from the rows (issue 30).

``data/backup-0011.json`` is a backup made by the version whose newest migration was
0011 (before seats stored their money and boards their result), of a group played
through that version's own services; ``data/figures-0011.json`` is what that version's
pages and exports said of it (``data/make_backup_0011.py`` made both). Restored here,
migrated here from 0011, or rebuilt after its figures were spoiled, it must read the
same.
"""

import json
import math
import sys
import types
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.copies.backup import _load_rows
from scorekeeper.models import Entry, Group, Seat, User
from scorekeeper.services.money import STORED
from scorekeeper.services.rebuild import rebuild_stored_figures
from tests.helpers import log_in, make_group, migrate_app
from tests.management.data.make_backup_0011 import figures
from tests.management.test_backup import empty_the_database
from tests.services.test_name_keys import stored_name_keys
from tests.views.test_query_counts import add_finished_nights

DATA = Path(__file__).parent / "data"
BACKUP = DATA / "backup-0011.json"
AT_0011 = ("scorekeeper", "0011_tab_payment_key_per_group")


def shown_then() -> dict:
    return json.loads((DATA / "figures-0011.json").read_text(encoding="utf-8"))


def shown_now(group: Group) -> dict:
    """What the pages and exports say of ``group`` now, read by the same function that
    read figures-0011.json from the old version."""
    return json.loads(json.dumps(figures(group)))  # tuples as lists, as in the file


def assert_reads_as_then(group: Group) -> None:
    then, now = shown_then(), shown_now(group)
    assert now.keys() == then.keys()
    for key in then:
        assert now[key] == then[key], key


def restore_0011() -> Group:
    call_command("restore", str(BACKUP), stdout=StringIO())
    return Group.objects.get()


def test_the_old_figures_are_worth_comparing_with():
    # The file holds what a played group shows: money won and lost under a loss cap,
    # a history per player, payments still owed, boards with what the engine said.
    then = shown_then()
    assert any(line[2] for lines in then["history"].values() for line in lines)
    assert then["nights"]["3"]["players"][2][4]  # Chris's loss was capped
    assert then["owed"] and all(line[2] > 0 for line in then["owed"])
    assert all(record["cards"][0] for record in then["records"].values())
    assert any(record["head_to_head"] for record in then["records"].values())
    backup = json.loads(BACKUP.read_text())
    assert backup["migration"] == AT_0011[1]
    seats = [o["fields"] for o in backup["objects"] if o["model"] == "scorekeeper.seat"]
    assert seats and not any("cents" in fields for fields in seats)  # nothing stored then


# Restoring an older backup runs migrations, which SQLite cannot inside a test's
# transaction.
restores = pytest.mark.django_db(transaction=True)


@restores
def test_a_backup_made_at_0011_restores_to_what_that_version_showed():
    group = restore_0011()
    assert_reads_as_then(group)
    # Its rows had no name keys then: the migrations since gave them theirs.
    assert len(stored_name_keys()["User"]) == 3
    # Every board of a recorded round has its result, and the pages render.
    recorded_boards = Entry.objects.filter(board__isnull=False, round__recorded_at__isnull=False)
    assert recorded_boards.count() == 7
    assert not recorded_boards.filter(card_result__isnull=True).exists()
    assert not Entry.objects.filter(round__recorded_at__isnull=True, card_result__isnull=False)
    client = log_in(Client(), "Anna")
    anna = User.objects.get(name="Anna")
    for url in (
        reverse("group_detail", args=[group.pk]),
        reverse("group_owed", args=[group.pk]),
        reverse("players", args=[group.pk]),
        reverse("player_history", args=[group.pk, anna.pk]),
    ):
        assert client.get(url).status_code == 200, url


@restores
def test_without_the_rebuild_the_restored_backup_would_have_no_card_results(monkeypatch):
    # What the rebuild adds to the migrations an old backup goes through: 0012 stores
    # the money (a frozen copy of its own), 0014 leaves the boards' results to the
    # rebuild (or to `migrate`'s hook, which a restore's migrations do not pass).
    monkeypatch.setattr("scorekeeper.copies.backup.rebuild_stored_figures", lambda: None)
    group = restore_0011()
    now, then = shown_now(group), shown_then()
    assert now["owed"] == then["owed"] and now["history"] == then["history"]
    assert not Entry.objects.filter(card_result__isnull=False).exists()
    assert all(record["cards"][0] == 0 for record in now["records"].values())


@restores
def test_a_group_copy_is_imported_with_figures_worked_out_from_its_rows(tmp_path):
    group = restore_0011()
    then = shown_now(group)
    path = tmp_path / "group.json"
    call_command("backup", str(path), "--group", str(group.pk), stdout=StringIO())
    document = json.loads(path.read_text())
    for item in document["objects"]:  # figures the file says wrong, as an old copy's
        if item["model"] == "scorekeeper.seat":
            item["fields"].update(points=0, rounds_played=0, cents=0, unpaid_cents=0)
        if item["model"] == "scorekeeper.entry":
            item["fields"]["card_result"] = None
    path.write_text(json.dumps(document))
    empty_the_database()  # the same names, and the ids of another install
    make_group("Already here", members=("Zoe",))
    call_command("restore", str(path), "--as-new-group", stdout=StringIO())
    now = shown_now(Group.objects.exclude(name="Already here").get())
    for key in ("owed", "members", "group_table"):
        assert now[key] == then[key], key
    for name, record in then["records"].items():
        for key in ("hands", "won", "stakes", "cards", "head_to_head"):
            assert now["records"][name][key] == record[key], (name, key)


def _sabotage_money(monkeypatch) -> None:
    """services/money.py and the loss cap changed past recognising: anything that
    still called them fails."""

    def changed(*args, **kwargs):
        raise AssertionError("a migration called live money code")

    broken = types.ModuleType("scorekeeper.services.money")
    broken.__getattr__ = lambda name: changed  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "scorekeeper.services.money", broken)
    monkeypatch.setattr("scorekeeper.services.rebuild.store_money", changed)
    monkeypatch.setattr("scorekeeper.table.settlement.apply_loss_cap", changed)
    monkeypatch.setattr("scorekeeper.table.settlement.night_money", changed)
    monkeypatch.setattr("scorekeeper.reads.results.apply_loss_cap", changed, raising=False)


@pytest.mark.database
@pytest.mark.django_db(transaction=True)
def test_migrating_from_0011_stores_what_that_version_showed_without_live_money_code(
    monkeypatch,
):
    try:
        _load_rows(json.loads(BACKUP.read_text())["objects"], migrate_app(AT_0011))
        with monkeypatch.context() as patched:
            _sabotage_money(patched)
            call_command("migrate", verbosity=0)
    finally:
        migrate_app()  # whatever happened, the next test gets today's tables
    assert_reads_as_then(Group.objects.get())


def spoil_everything() -> None:
    Seat.objects.update(points=0, rounds_played=0, fantasylands=3, cents=0, unpaid_cents=7)
    Entry.objects.update(card_result=None)
    Entry.objects.filter(board__isnull=True).update(card_result={"fouled": True})


def stored() -> tuple[dict, dict]:
    seats = {row[0]: row[1:] for row in Seat.objects.values_list("pk", *STORED)}
    return seats, dict(Entry.objects.values_list("pk", "card_result"))


@restores
def test_the_rebuild_command_makes_spoiled_figures_again():
    group = restore_0011()
    good = stored()
    spoil_everything()
    out = StringIO()
    call_command("rebuild", stdout=out)
    assert stored() == good
    assert_reads_as_then(group)
    assert out.getvalue().strip() == (
        "Rebuilt the stored figures of 4 nights: 12 seats (12 different) "
        "and 7 boards (22 entries different)."
    )
    out = StringIO()
    call_command("rebuild", stdout=out)  # nothing left to put right
    assert "(0 different)" in out.getvalue() and "(0 entries different)" in out.getvalue()


@restores
def test_the_rebuild_of_some_nights_leaves_the_others_alone():
    restore_0011()
    good_seats, good_results = stored()
    spoil_everything()
    call_command("rebuild", "--night", "3", "--night", "1", stdout=StringIO())
    seats, results = stored()
    for seat in Seat.objects.all():
        if seat.night_id in (1, 3):
            assert seats[seat.pk] == good_seats[seat.pk]
        else:
            assert seats[seat.pk] == (0, 0, 3, 0, 7)
    for entry in Entry.objects.select_related("round"):
        if entry.round.night_id == 1:
            assert results[entry.pk] == good_results[entry.pk]
    with pytest.raises(CommandError, match="There is no night 99"):
        call_command("rebuild", "--night", "99")


@pytest.mark.database
def test_the_rebuild_takes_a_few_queries_per_200_nights(db):
    group = make_group(members=("Anna", "Bram", "Chris"))
    add_finished_nights(group, 10)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            rebuild_stored_figures()
        return len(captured)

    few = queries()
    add_finished_nights(group, 440)
    many = queries()
    assert many <= math.ceil(450 / 200) * few, (few, many)
    good = stored()
    spoiled = Seat.objects.exclude(cents=0, unpaid_cents=0).count()
    Seat.objects.update(cents=0, unpaid_cents=0)
    assert rebuild_stored_figures().seats_changed == spoiled > 400
    assert stored() == good
