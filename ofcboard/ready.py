"""Saying "Ready" once the server takes connections, not when it is told to start.

`make run` prints the table's way in (manage.py welcome) before the server starts,
and the server takes a few seconds to load Django in its process: a phone that opens
the address at once in between finds nothing. So the last line the person at the
laptop waits for comes only once a server process has loaded the app.

It is said by that server process itself (:func:`say_ready_once`), at the end of
loading: granian's main process binds the port before it starts its server
processes, so from then on a phone that connects is answered. With several
processes, the first to finish says it and the others do not: each tries to create
the same file, and only one can (:func:`prepare`). Nothing asks the port from granian's
main process, which forks the server processes: a thread caught inside an import at
that instant leaves the import's lock held for ever in every server process (seen,
with a thread that asked the port until it answered: every login with a Redis cache
hung). The one thread of ours there, behind the front, waits for nginx to exit
(ofcboard/serve.py keep_the_front) and imports nothing while it waits.

The server's main process never loads Django's apps (each server process does), so
its words are read from the project's own catalogue (locale/) with Python's gettext,
in the language of the settings (LANGUAGE_CODE), as Django would say them.
"""

import gettext
import importlib
import os
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import TextIO

from django.utils.translation import to_locale


def gettext_noop(message: str) -> str:
    """Marks ``message`` for makemessages as Django's own does, which reads the
    settings first: the server's main process must not configure them."""
    return message


READY = gettext_noop("Ready. Ctrl-C stops the server.")
# Where the server processes find the file whose maker says "Ready" (see prepare).
MARK = "OFCBOARD_READY_MARK"


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


def prepare() -> Path:
    """In the server's main process, before it starts the server processes: a folder
    of this run's own, named in the environment they inherit, where the first of them
    to load leaves its mark. The caller removes the folder when the server stops."""
    folder = Path(tempfile.mkdtemp(prefix="ofcboard-ready-"))
    os.environ[MARK] = str(folder / "said")
    return folder


def say_ready_once(out: TextIO | None = None) -> bool:
    """In a server process that has loaded the app: say READY, unless another process
    of this run said it already (or the server was started without :func:`prepare`).
    Whether this one said it."""
    mark = os.environ.get(MARK)
    if not mark:
        return False
    try:
        os.close(os.open(mark, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    except OSError:  # the folder is gone: the server is stopping
        return False
    try:
        said = in_settings_language(READY)
    except Exception:  # a catalogue that cannot be read must not hide "Ready"
        said = READY
    stream = out or sys.stdout
    stream.write(said + "\n")
    stream.flush()
    return True
