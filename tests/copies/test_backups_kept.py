"""Backups by themselves: one after every night that ends (off the request's thread),
one an hour while a night is open, the newest few kept, each private from its first
byte; the newest restores into an empty database as the site was."""

import json
import os
import stat
import time

import pytest
from django.core.management import call_command
from django.urls import reverse

from scorekeeper.copies import backups_kept
from tests.helpers import finish, log_in, make_night, play
from tests.management.test_backup import empty_the_database, everything_read, played_site

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def folder(tmp_path, settings):
    settings.OFCBOARD_BACKUP_DIR = str(tmp_path / "backups")
    return tmp_path / "backups"


def mode(path):
    return stat.S_IMODE(path.stat().st_mode)


def test_a_night_that_ends_leaves_a_backup_only_the_server_user_can_read(folder, client):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 4, "Bram": -4})
    log_in(client, "Anna")
    previous = os.umask(0o022)  # a shell's usual umask: the backup's own modes must do it
    try:
        response = client.post(reverse("night_end", args=[night.pk]))
        assert response.status_code == 302
        backups_kept.wait_for_backups()
    finally:
        os.umask(previous)
    [backup] = backups_kept.kept_backups()
    assert mode(backup) == 0o600 and mode(folder) == 0o700
    assert list(folder.glob("*.partial")) == []
    nights = [
        o for o in json.loads(backup.read_text())["objects"] if o["model"] == "scorekeeper.night"
    ]
    assert [n["fields"]["ended_at"] is not None for n in nights] == [True]


def test_only_the_newest_backups_are_kept(folder, settings):
    settings.OFCBOARD_BACKUPS_KEPT = 2
    folder.mkdir()
    cut_short = folder / "ofcboard-2026-01-01-000000-000000.json.partial"
    cut_short.write_text("{")
    os.utime(cut_short, (time.time() - 7200, time.time() - 7200))
    group = None
    for _ in range(3):  # N + 1 nights end
        night = make_night(("Anna", "Bram"), group=group)
        group = night.group
        finish(night)
        backups_kept.wait_for_backups()
    kept = backups_kept.kept_backups()
    assert len(kept) == 2
    ended = [
        sum(
            1
            for o in json.loads(path.read_text())["objects"]
            if o["model"] == "scorekeeper.night" and o["fields"]["ended_at"]
        )
        for path in kept
    ]
    assert ended == [2, 3]  # the two newest: after the second night and the third
    assert not cut_short.exists()  # a backup cut short two hours ago is cleared away


@pytest.mark.database
def test_the_newest_backup_restores_the_site_as_it_was(folder, tmp_path):
    group, nights = played_site()
    finish(nights[-1])
    backups_kept.wait_for_backups()
    before = everything_read(group, nights)
    newest = backups_kept.kept_backups()[-1]
    empty_the_database()
    call_command("restore", str(newest), stdout=open(tmp_path / "out", "w"))  # noqa: SIM115
    after = everything_read(group, nights)
    assert after == before


def test_a_backup_that_fails_is_logged_and_the_night_ends_all_the_same(folder, client, caplog):
    folder.parent.mkdir(exist_ok=True)
    folder.write_text("a file where the folder should be")
    night = make_night(("Anna", "Bram"))
    log_in(client, "Anna")
    assert client.post(reverse("night_end", args=[night.pk])).status_code == 302
    backups_kept.wait_for_backups()
    night.refresh_from_db()
    assert night.is_over
    assert "The automatic backup into" in caplog.text


def test_the_hourly_backup_is_taken_only_while_a_night_is_open(folder):
    night = make_night(("Anna", "Bram"))
    thread, stop = backups_kept.start_hourly(every=0.05)
    try:
        deadline = time.monotonic() + 10
        while not backups_kept.kept_backups():
            assert time.monotonic() < deadline, "no hourly backup was taken"
            time.sleep(0.02)
        finish(night)
        backups_kept.wait_for_backups()
        time.sleep(0.2)  # some turns of the hourly thread, with no night open
        count = len(backups_kept.kept_backups())
        time.sleep(0.3)
        assert len(backups_kept.kept_backups()) == count
    finally:
        stop.set()
        thread.join(5)
