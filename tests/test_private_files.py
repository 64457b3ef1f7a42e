"""Files only the server's user can read: the SQLite database, its -wal and -shm, and
every backup, from the moment each is made (sessions and password hashes are in them)."""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from scorekeeper.copies import backup

ROOT = Path(__file__).resolve().parent.parent

# A process started as `make run` starts one (DEBUG off, table mode), with the usual
# umask 022 it inherits from a shell, makes a new database and writes to it; the modes
# are read while its connection is open, so the WAL and its index are there.
MAKES_A_DATABASE = """
import os, stat, sys
os.umask(0o022)
import django
django.setup()
from django.db import connection
with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE t (x integer)")
    cursor.execute("INSERT INTO t VALUES (1)")
    path = sys.argv[1]
    print(" ".join(oct(stat.S_IMODE(os.stat(path + end).st_mode)) for end in ("", "-wal", "-shm")))
"""


def test_a_new_database_and_its_wal_are_readable_by_the_server_user_only(tmp_path):
    path = tmp_path / "db.sqlite3"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "ofcboard.settings",
        "DATABASE_URL": f"sqlite:///{path}",
        "DEBUG": "0",
        "OFCBOARD_TABLE": "1",
        "SECRET_KEY": "only-for-this-test",
    }
    made = subprocess.run(
        [sys.executable, "-c", MAKES_A_DATABASE, str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    assert made.stdout.split() == ["0o600", "0o600", "0o600"]


def test_a_backup_is_private_while_it_is_being_written(db, tmp_path, monkeypatch):
    modes_while_writing = []
    write = json.dump

    def watched_dump(document, file, **options):
        partial = Path(file.name) if isinstance(file.name, str) else None
        modes_while_writing.append(stat.S_IMODE(os.fstat(file.fileno()).st_mode))
        if partial is not None:
            modes_while_writing.append(stat.S_IMODE(partial.stat().st_mode))
        write(document, file, **options)

    monkeypatch.setattr(backup.json, "dump", watched_dump)
    # Narrowing the mode after the file was made is too late (a watcher may have opened
    # it in between): it must be made private, so a chmod here changes nothing.
    monkeypatch.setattr(Path, "chmod", lambda *args, **kwargs: None)
    monkeypatch.setattr(os, "chmod", lambda *args, **kwargs: None)
    previous = os.umask(0o022)  # a shell's usual umask: the file's own mode must do it
    try:
        backup.write_backup(tmp_path / "site.json")
    finally:
        os.umask(previous)
    assert modes_while_writing and set(modes_while_writing) == {0o600}
    assert stat.S_IMODE((tmp_path / "site.json").stat().st_mode) == 0o600
    assert not (tmp_path / "site.json.partial").exists()


def test_a_backup_never_writes_into_a_partial_file_someone_else_made(db, tmp_path):
    partial = tmp_path / "site.json.partial"
    partial.write_text("left here by someone")
    partial.chmod(0o644)
    seen_by_them = partial.open()  # they keep it open, hoping to read what comes
    backup.write_backup(tmp_path / "site.json")
    assert seen_by_them.read() == "left here by someone"
    seen_by_them.close()
    assert json.loads((tmp_path / "site.json").read_text())["format"] == "ofcboard-backup"


def test_a_partial_backup_is_never_followed_through_a_link(db, tmp_path):
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("theirs")
    (tmp_path / "site.json.partial").symlink_to(elsewhere)
    backup.write_backup(tmp_path / "site.json")
    assert elsewhere.read_text() == "theirs"
