"""Backing up a played site and restoring it into an empty database: every page and
export of the copy reads as the original's, down to the round in progress."""

import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client
from django.urls import reverse

from scorekeeper.copies.backup import restore_backup, write_backup
from scorekeeper.models import Entry, Group, Night, Payment, Round, User
from scorekeeper.models.payments import TabPayment
from scorekeeper.services.groups import create_group
from tests.helpers import (
    body_text,
    enter,
    log_in,
    make_night,
    paid,
    play_two_nights,
)
from tests.management.data.make_backup_0011 import (
    a_fantasyland_hand_in_progress,
    correct_the_second_night,
    pay_half_of_what_is_owed,
)

pytestmark = pytest.mark.database


def played_site():
    """Two finished nights with cards (play_two_nights), a correction, a payment of a
    night, a payment of what was still owed across nights, and a third night in
    progress: a Fantasyland hand being played and one total in."""
    group, first, second = play_two_nights(make_night)
    anna = User.objects.get(name="Anna")
    correct_the_second_night(second, anna)
    paid(first, "Chris", "Bram", 70)
    pay_half_of_what_is_owed(group, anna)
    tonight = a_fantasyland_hand_in_progress(group)
    assert tonight.rounds.get(number=2).fantasyland  # Bram plays this hand in Fantasyland
    return group, [first, second, tonight]


def without_tokens(html: str) -> str:
    # The CSRF token differs on every page load; nothing else may.
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    return re.sub(r'"X-CSRFToken": *"[^"]+"', "", html)


def everything_read(group: Group, nights: list[Night]) -> dict[str, str]:
    client = log_in(Client(), "Anna")
    urls = [
        reverse("group_detail", args=[group.pk]),
        reverse("group_table", args=[group.pk]),
        reverse("players", args=[group.pk]),
        reverse("group_export", args=[group.pk, "json"]),
        reverse("group_export", args=[group.pk, "csv"]),
        reverse("group_owed", args=[group.pk]),
    ]
    for night in nights:
        urls += [
            reverse("night_detail", args=[night.pk]),
            reverse("night_rounds", args=[night.pk]),
            reverse("night_settle", args=[night.pk]),
            reverse("night_export", args=[night.pk, "json"]),
        ]
    return pages_read(client, urls)


def pages_read(client: Client, urls: list[str]) -> dict[str, str]:
    """Each of ``urls`` as ``client`` reads it (every one a 200), its tokens left out."""
    pages = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        pages[url] = without_tokens(body_text(response))
    return pages


def backed_up_and_restored(tmp_path: Path) -> Path:
    """The site backed up to a file, the database emptied, and the file restored."""
    path = tmp_path / "site.json"
    call_command("backup", str(path), stdout=open(tmp_path / "out", "w"))  # noqa: SIM115
    empty_the_database()
    assert not User.objects.exists()
    call_command("restore", str(path), stdout=open(tmp_path / "out", "w"))  # noqa: SIM115
    return path


def assert_reads_the_same(after: dict[str, str], before: dict[str, str]) -> None:
    assert after.keys() == before.keys()
    for url, page in before.items():
        assert after[url] == page, url


def empty_the_database():
    from django.apps import apps

    for model in reversed(list(apps.get_app_config("scorekeeper").get_models())):
        model.objects.all().delete()


def test_a_restored_backup_reads_exactly_as_the_original(db, tmp_path):
    group, nights = played_site()
    before = everything_read(group, nights)
    keys = sorted(Entry.objects.values_list("pk", "round_id", "seat_id", "points", "board"))

    path = backed_up_and_restored(tmp_path)

    assert oct(path.stat().st_mode)[-3:] == "600"  # password hashes are in it
    assert sorted(Entry.objects.values_list("pk", "round_id", "seat_id", "points", "board")) == keys
    assert TabPayment.objects.count() == 1 and Payment.objects.count() == 1
    assert_reads_the_same(everything_read(group, nights), before)
    # The night in progress goes on where it was, and new rows get new keys.
    tonight = nights[-1]
    assert enter(tonight, "Bram", 9, fantasyland_stayed=True).entry.pk > max(k[0] for k in keys)
    enter(tonight, "Chris", -5)
    assert Round.objects.get(night=tonight, number=2).is_recorded
    assert create_group(name="Another", created_by=None).pk > group.pk


def test_a_restore_leaves_postgresql_knowing_how_many_rows_the_tables_hold(db, tmp_path):
    """Not the empty tables autovacuum last saw: with those the planner nested the group
    page's joins for minutes (manage.py restore's take_stock)."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's planner: the PostgreSQL pass of make test runs it")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # the tables empty, as a new database's are
    played_site()
    backed_up_and_restored(tmp_path)
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [Night._meta.db_table])
        assert cursor.fetchone()[0] == Night.objects.count() == 3


def test_restore_refuses_a_database_that_is_not_empty(db, tmp_path):
    played_site()
    path = tmp_path / "site.json"
    write_backup(path)
    with pytest.raises(CommandError, match="already has accounts or groups"):
        call_command("restore", str(path))


def test_restore_refuses_a_file_that_is_not_a_backup(db, tmp_path):
    path = tmp_path / "other.json"
    path.write_text(json.dumps([{"model": "scorekeeper.user", "pk": 1, "fields": {}}]))
    with pytest.raises(CommandError, match="is not an OFC Board backup"):
        call_command("restore", str(path))
    assert not User.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_backup_taken_while_phones_post_is_one_moment_of_the_night(tmp_path):
    from tests.services.test_concurrency import run_at_once

    night = make_night(("Anna", "Bram"))
    paths = [tmp_path / f"backup-{i}.json" for i in range(4)]

    def phones():
        for _ in range(15):
            enter(night, "Anna", 3)
            enter(night, "Bram", -3)

    def backups():
        for path in paths:
            write_backup(path)

    assert run_at_once([phones, backups]) == []
    for path in paths:
        objects = json.loads(path.read_text())["objects"]
        rounds = {o["pk"]: o["fields"] for o in objects if o["model"] == "scorekeeper.round"}
        entries = [o["fields"] for o in objects if o["model"] == "scorekeeper.entry"]
        # Every round that went through has both totals; exactly one round is open.
        for pk, fields in rounds.items():
            points = [e["points"] for e in entries if e["round"] == pk]
            if fields["recorded_at"]:
                assert sorted(points) == [-3, 3]
        assert sum(1 for fields in rounds.values() if not fields["recorded_at"]) == 1
    # And the last one restores into an empty database as it was.
    counts = {m: m.objects.count() for m in (Round, Entry)}
    write_backup(paths[0])
    empty_the_database()
    restore_backup(paths[0])
    assert {m: m.objects.count() for m in (Round, Entry)} == counts
