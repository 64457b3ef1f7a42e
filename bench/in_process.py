"""Django set up in a benchmark's own process (bench/poll.py, renders.py, sessions.py):
the settings `make run` serves with (bench/settings.py), DEBUG off, on a throwaway
SQLite file unless DATABASE_URL names a database."""

import os
import tempfile

import django


def set_up_django() -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.settings"
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3")
    os.environ.update(DEBUG="0", OFCBOARD_TABLE="1")
    django.setup()
