"""``python manage.py score [FILE]``: score finished hands, JSON in and out.

FILE is a path, or ``-`` (or nothing) for standard input. The format is the
contract in :mod:`scorekeeper.ofc.contract`; this command only reads the input
and writes what the contract says, using no database.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.ofc.contract import run


class Command(BaseCommand):
    help = "Score finished OFC hands given as JSON (a FILE, or standard input)."
    # Scoring needs no database and no project checks; keep the output pure JSON.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", default="-", help="a JSON file, or - for stdin")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        try:
            if file == "-":
                text = sys.stdin.read()
            else:
                with open(file, encoding="utf-8") as handle:
                    text = handle.read()
        except (OSError, UnicodeDecodeError) as error:
            self._fail(f"cannot read {file}: {getattr(error, 'strerror', None) or error}")
        outcome = run(text)
        if outcome.status:
            self._fail(outcome.stderr, outcome.status)
        self.stdout.write(outcome.stdout)

    def _fail(self, message: str, status: int = 2) -> None:
        # Not CommandError: that would print "CommandError: ..." and a
        # traceback hint; the contract wants exactly one plain line.
        self.stderr.write(message, style_func=lambda text: text)
        raise SystemExit(status)
