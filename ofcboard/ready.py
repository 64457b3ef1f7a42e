"""Saying "Ready" once the server takes connections, not when it is told to start.

`make run` prints the table's way in (manage.py welcome) before the server starts,
and the server takes a few seconds to load Django in its process: a phone that opens
the address at once in between finds nothing. So the last line the person at the
laptop waits for comes only when a connection to the port goes through.

The server's main process never loads Django's apps (each server process does), so
the words are read from the project's own catalogue (locale/) with Python's gettext,
in the language of the settings (LANGUAGE_CODE), as Django would say them.
"""

import argparse
import gettext
import importlib
import os
import socket
import subprocess
import sys
import threading
import time
from types import ModuleType
from typing import TextIO

from django.utils.translation import to_locale


def gettext_noop(message: str) -> str:
    """Marks ``message`` for makemessages as Django's own does, which reads the
    settings first: here they may be read only in the thread, once the server listens."""
    return message


READY = gettext_noop("Ready. Ctrl-C stops the server.")
# A server listening on every address is reached through this machine's own.
EVERY_ADDRESS = {"", "0.0.0.0", "::"}
POLL_SECONDS = 0.1
GIVE_UP_SECONDS = 60.0


def settings_module() -> ModuleType:
    """The settings module read as a module: django.conf.settings would be configured
    for good in the server's main process, which has no DJANGO_SETTINGS_MODULE."""
    return importlib.import_module(os.environ.get("DJANGO_SETTINGS_MODULE") or "ofcboard.settings")


def in_language(words: str, language: str) -> str:
    """``words`` (a message of the project's catalogue) in ``language`` ("nl",
    "zh-hans"); as they are when the catalogue has none for them."""
    catalogue = gettext.translation(
        "django",
        localedir=str(settings_module().LOCALE_PATHS[0]),
        languages=[to_locale(language)],
        fallback=True,
    )
    return catalogue.gettext(words)


def in_settings_language(words: str) -> str:
    """``words`` in the language of the settings (LANGUAGE_CODE)."""
    return in_language(words, settings_module().LANGUAGE_CODE)


def listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def say_when_listening(
    port: int,
    words: str | None = None,
    *,
    host: str = "127.0.0.1",
    out: TextIO | None = None,
    give_up_after: float = GIVE_UP_SECONDS,
) -> threading.Thread:
    """Print ``words`` (by default READY in the settings' language) to ``out`` (by
    default standard output) once a connection to ``host``:``port`` goes through,
    from a daemon thread that looks every POLL_SECONDS; after ``give_up_after``
    seconds without one it stops and says nothing (the server says why it failed).
    Returns the thread, started."""
    address = "127.0.0.1" if host in EVERY_ADDRESS else host

    def wait_and_say() -> None:
        stop_at = time.monotonic() + give_up_after
        while not listening(address, port):
            if time.monotonic() >= stop_at:
                return
            time.sleep(POLL_SECONDS)
        said = words
        if said is None:
            try:
                said = in_settings_language(READY)
            except Exception:  # a catalogue that cannot be read must not hide "Ready"
                said = READY
        stream = out or sys.stdout
        stream.write(said + "\n")
        stream.flush()

    thread = threading.Thread(target=wait_and_say, name="say-when-listening", daemon=True)
    thread.start()
    return thread


def watch_apart(port: int, host: str) -> subprocess.Popen:
    """:func:`say_when_listening` in a process of its own, printing to this one's
    standard output. The server's main process must have no thread of ours when it
    forks its workers: a thread caught inside an import at that instant (the first
    connection imports the address codec) leaves the module's lock held for ever in
    every worker, whose first Redis connection then waits on it (seen: every login
    with a Redis cache hung)."""
    return subprocess.Popen(
        [sys.executable, "-m", "ofcboard.ready", "--port", str(port), "--host", host],
        stdin=subprocess.DEVNULL,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="Say when the server takes connections.")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    say_when_listening(args.port, host=args.host).join()


if __name__ == "__main__":
    main()
