#!/usr/bin/env python
"""Django's command-line utility for OFC Board."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ofcboard.settings")
    # manage.py is the development and table-side tool (runserver, score, creategroup);
    # production servers start through wsgi.py/asgi.py, where DEBUG stays off.
    os.environ.setdefault("DEBUG", "1")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
