"""The static files collected as `make run` collects them, once for as long as what
they are collected from stays the same.

collectstatic with the production storage hashes and compresses every file (about
5 s), which each test run did again for the same files: a third of the time of a run
of one test file. The folder is named by a fingerprint of the app's static files, the
storage and the versions of the packages whose files are collected too, so a change to
any of them collects into a new folder, and a run finds an unchanged one collected
already. Two runs starting together (make test's two passes) collect once: the second
waits for the first.
"""

import fcntl
import hashlib
import shutil
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The packages whose own static files are collected beside the app's.
COLLECTED_PACKAGES = ("django", "whitenoise", "django-htmx")
# Written last: a folder without it was left half-collected.
DONE = ".collected"
# Folders of earlier fingerprints are removed once this old.
KEPT_SECONDS = 24 * 60 * 60


def collected_from(storages: dict) -> str:
    """The fingerprint of what collectstatic reads: the app's static files (names and
    bytes), the storages and the packages' versions."""
    digest = hashlib.sha256(repr(sorted(storages.items())).encode())
    for package in COLLECTED_PACKAGES:
        digest.update(f"{package}={metadata.version(package)}".encode())
    static = ROOT / "static"
    for path in sorted(static.rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(static)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def collect_once(folder: Path, collect: Callable[[], None]) -> None:
    """``collect()`` into ``folder`` unless an earlier run did it whole; one run at a
    time. Folders of other fingerprints last touched long ago go."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f"{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / DONE).exists():
            collect()
            (folder / DONE).touch()
    _forget_old(folder)


def _forget_old(kept: Path) -> None:
    prefix = kept.name.rsplit("-", 1)[0] + "-"
    for other in kept.parent.glob(prefix + "*"):
        if other == kept or other.suffix == ".lock":
            continue
        if time.time() - other.stat().st_mtime > KEPT_SECONDS:
            shutil.rmtree(other, ignore_errors=True)
            other.with_name(other.name + ".lock").unlink(missing_ok=True)
