#!/usr/bin/env python
"""Django's command-line utility for OFC Board."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ofcboard.settings")
    # DEBUG stays off unless asked for (DEBUG=1, as `make dev` asks), here as in the
    # server: a runserver started by hand shows no debug pages to the table's phones.
    # A command run by hand with no settings of its own (creategroup, score, backup)
    # runs as `make run` runs its commands, in table mode, with the key kept in
    # .secret_key; DEBUG=0 or a SECRET_KEY in the environment means a production
    # server's settings, which need their own key.
    if not any(name in os.environ for name in ("DEBUG", "SECRET_KEY", "OFCBOARD_TABLE")):
        os.environ["OFCBOARD_TABLE"] = "1"
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
