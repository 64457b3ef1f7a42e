"""``python manage.py score [FILE]``: score finished hands, JSON in and out.

FILE is a path, or ``-`` (or nothing) for standard input. The format is the
contract in :mod:`scorekeeper.ofc.contract`; this command only reads the input
and writes what the contract says, using no database.

Input and output are UTF-8 whatever the locale (a byte order mark is
skipped), so a name like "Zoë" survives a ``LANG=C`` shell.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser, OutputWrapper

from scorekeeper.ofc.contract import one_line, run


class Command(BaseCommand):
    help = "Score finished OFC hands given as JSON (a FILE, or standard input)."
    # Scoring needs no database and no project checks; keep the output pure JSON.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", default="-", help="a JSON file, or - for stdin")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        try:
            text = _read(file)
        except (OSError, UnicodeDecodeError) as error:
            if isinstance(error, UnicodeDecodeError):
                reason = f"not UTF-8 text (byte {error.start + 1})"
            else:
                reason = getattr(error, "strerror", None) or str(error)
            self._fail(f"cannot read {file}: {reason}")
        outcome = run(text)
        if outcome.status:
            self._fail(outcome.stderr, outcome.status)
        _write(self.stdout, outcome.stdout)

    def _fail(self, message: str, status: int = 2) -> None:
        # Not CommandError: that would print "CommandError: ..." and a
        # traceback hint; the contract wants exactly one plain line.
        _write(self.stderr, one_line(message), errors="backslashreplace")
        raise SystemExit(status)


def _read(file: str) -> str:
    """The input as text, decoded as UTF-8 from the bytes when there are bytes."""
    if file == "-":
        raw = getattr(sys.stdin, "buffer", None)
        data: bytes | str = raw.read() if raw is not None else sys.stdin.read()
    else:
        with open(file, "rb") as handle:
            data = handle.read()
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    return text.removeprefix("\ufeff")


def _write(stream: OutputWrapper, text: str, errors: str = "strict") -> None:
    """One line of text and its newline, as UTF-8 bytes when the stream has them."""
    raw = getattr(stream, "buffer", None)
    if raw is None:
        stream.write(text, style_func=lambda line: line)
        return
    stream.flush()
    raw.write((text + "\n").encode("utf-8", errors))
    raw.flush()
