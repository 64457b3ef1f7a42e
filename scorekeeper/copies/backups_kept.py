"""Backups kept by themselves, so a laptop that dies does not take the group's history
with it: one after every night that ends, and one an hour while a night is open and
the server (ofcboard/serve.py) runs, into settings.OFCBOARD_BACKUP_DIR; the newest
settings.OFCBOARD_BACKUPS_KEPT are kept. Each is a whole-site backup
(scorekeeper/copies/backup.py: written beside and renamed, mode 0600 from its first byte),
restored with ``manage.py restore FILE`` into an empty database.

A backup is written off the request's thread and never fails or holds up the request
that asked for it: a backup that fails is logged, and the next one tries again.
"""

import fcntl
import logging
import os
import queue
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.db import connection

from scorekeeper.copies.backup import write_backup
from scorekeeper.models import Night

log = logging.getLogger(__name__)

NAME_START = "ofcboard-"
HOURLY = 3600.0

_writing = threading.Lock()
_asked: queue.Queue[None] = queue.Queue()
_worker: threading.Thread | None = None
_worker_started = threading.Lock()


def backup_folder() -> Path | None:
    """Where the backups are kept; None when they are switched off (an empty setting)."""
    where = settings.OFCBOARD_BACKUP_DIR
    return Path(where) if where else None


def kept_backups() -> list[Path]:
    """The backups in the folder, oldest first (their names are their UTC times)."""
    where = backup_folder()
    return sorted(where.glob(f"{NAME_START}*.json")) if where and where.is_dir() else []


def keep_backup() -> Path | None:
    """Write a backup of the whole site into the folder now and remove all but the
    newest OFCBOARD_BACKUPS_KEPT; its path, or None when switched off or when it failed
    (logged, never raised)."""
    where = backup_folder()
    if where is None:
        return None
    with _writing:  # one at a time, so the newest is always whole and pruning sees it
        try:
            where.mkdir(mode=0o700, parents=True, exist_ok=True)
            path = where / f"{NAME_START}{datetime.now(UTC):%Y-%m-%d-%H%M%S-%f}.json"
            write_backup(path)
            for old in kept_backups()[: -max(1, settings.OFCBOARD_BACKUPS_KEPT)]:
                old.unlink(missing_ok=True)
            # One cut short (the server stopped while writing it) is never renamed;
            # an hour on, it is nobody's backup in progress.
            for cut_short in where.glob(f"{NAME_START}*.json.partial"):
                if cut_short.stat().st_mtime < time.time() - 3600:
                    cut_short.unlink(missing_ok=True)
        except Exception:
            log.exception("The automatic backup into %s failed; the next one tries again.", where)
            return None
        return path


def keep_backup_after_a_night(sender: object, **kwargs: object) -> None:
    """The receiver of :data:`scorekeeper.services.nights.night_ended`."""
    keep_backup_soon()


def keep_backup_soon() -> None:
    """Ask for a backup, written on a thread of its own (one for the process), and
    return at once: asked when a night ends (its end committed)."""
    global _worker
    if backup_folder() is None:
        return
    with _worker_started:
        if _worker is None or not _worker.is_alive():
            _worker = threading.Thread(target=_write_when_asked, name="backups", daemon=True)
            _worker.start()
    _asked.put(None)


def _write_when_asked() -> None:
    while True:
        _asked.get()
        try:
            keep_backup()
        finally:
            connection.close()  # this thread's own; a new one for the next backup
            _asked.task_done()


def wait_for_backups() -> None:
    """Until every backup asked for so far is written (the tests wait on it)."""
    _asked.join()


def start_hourly(every: float = HOURLY) -> tuple[threading.Thread, threading.Event]:
    """A thread that keeps a backup every ``every`` seconds while a night is open, and
    the event that stops it. Started by the server only (ofcboard/serve.py), never by
    manage.py commands or the tests; of several server processes on one machine, the
    one holding the folder's lock writes them."""
    stop = threading.Event()
    thread = threading.Thread(
        target=_hourly, args=(every, stop), name="hourly-backups", daemon=True
    )
    thread.start()
    return thread, stop


def _hourly(every: float, stop: threading.Event) -> None:
    mine = False
    while not stop.wait(every):
        try:
            where = backup_folder()
            if where is None:
                continue
            mine = mine or _the_machines_hourly_writer(where)
            if mine and Night.objects.running().exists():
                keep_backup()
        except Exception:
            log.exception("The hourly backup could not be taken; it tries again in an hour.")
        finally:
            connection.close()


_held_locks: list[int] = []


def _the_machines_hourly_writer(where: Path) -> bool:
    """Whether this process writes the hourly backups: the first to take the folder's
    lock keeps it for its life (the lock goes with the process)."""
    where.mkdir(mode=0o700, parents=True, exist_ok=True)
    descriptor = os.open(where / ".hourly.lock", os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        return False
    _held_locks.append(descriptor)
    return True
