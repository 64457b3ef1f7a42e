"""A file of bytes read as CSV records: its lines counted, its text decoded, its
delimiter told, and each record with the line it starts on, within the limits
(:mod:`.limits`); :func:`read_sheet` turns them into a :class:`~.sheet.Sheet`."""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Iterable, Iterator, Mapping

from scorekeeper.table.spreadsheet.limits import (
    HEADER_CHARS,
    MAX_BYTES,
    MAX_LINE_CHARS,
    MAX_LINES,
    READ_SECONDS,
)
from scorekeeper.table.spreadsheet.nights import read_records
from scorekeeper.table.spreadsheet.sheet import Kind, Problem, Sheet


def count_lines(chunks: Iterable[bytes], limit: int = MAX_LINES) -> int:
    """The lines of a file read a chunk at a time, stopping once there are ``limit``
    (a last line without its line break counts).

    >>> count_lines([b"date,name\\n1-2-", b"2024,Anna\\n"]), count_lines([b"a\\nb"])
    (2, 2)
    >>> count_lines([b"x\\n" * 50, b"x\\n" * 50], limit=60)
    60
    """
    lines = 0
    last = b"\n"
    for chunk in chunks:
        if not chunk:
            continue
        lines += chunk.count(b"\n")
        last = chunk[-1:]
        if lines >= limit:
            return limit
    return min(limit, lines + (last != b"\n"))


def decode(data: bytes) -> str | None:
    """The file's text: UTF-8 (with or without Excel's byte order mark), or Windows'
    own code page as older spreadsheets save it; None for bytes that are neither.

    >>> decode("Zoë".encode()), decode("Zoë".encode("cp1252")), decode(b"\\x81\\x8d")
    ('Zoë', 'Zoë', None)
    """
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return None


def delimiter(header: str) -> str:
    """The delimiter of a file whose first line is ``header``: a comma, a semicolon
    or a tab, whichever its first :data:`HEADER_CHARS` characters hold most of (a
    comma when none). Counted, never sniffed: csv.Sniffer's expressions take time
    growing with the square of a line such as ``a,"a,"a,"...``, holding every thread.

    >>> delimiter("date;name;points"), delimiter("date\\tname\\tmoney"), delimiter("date,name")
    (';', '\\t', ',')
    """
    head = header[:HEADER_CHARS]
    return max(",;\t", key=head.count)


class Unreadable(Exception):
    """The file cannot be read as CSV from ``line`` on (a :class:`Problem` says why)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.kind.value)
        self.problem = problem


def _long_line(text: str) -> int:
    """The number of the first line longer than :data:`MAX_LINE_CHARS`, or 0."""
    start = 0
    for number, end in enumerate(_line_ends(text), 1):
        if end - start > MAX_LINE_CHARS:
            return number
        start = end + 1
    return 0


def _line_ends(text: str) -> Iterator[int]:
    at = text.find("\n")
    while at != -1:
        yield at
        at = text.find("\n", at + 1)
    yield len(text)


def _records(text: str, deadline: float) -> Iterator[tuple[int, list[str]]]:
    """Each record of the CSV text with the line it starts on (a quoted cell may hold
    a line break), blank lines left out. Raises :class:`Unreadable` for what the CSV
    reader cannot read, a cell longer than a line may be, or past ``deadline``."""
    lines = io.StringIO(text, newline="")
    header = lines.readline()
    lines.seek(0)
    reader = csv.reader(lines, delimiter=delimiter(header.rstrip("\r\n")))
    start = 1
    while True:
        try:
            record = next(reader)
        except StopIteration:
            return
        except csv.Error:
            raise Unreadable(Problem(start, Kind.NOT_CSV)) from None
        if any(len(cell) > MAX_LINE_CHARS for cell in record):
            raise Unreadable(Problem(start, Kind.NOT_CSV))
        if time.monotonic() > deadline:
            raise Unreadable(Problem(0, Kind.TOO_SLOW))
        if any(cell.strip() for cell in record):
            yield start, record
        start = reader.line_num + 1


def read_sheet(
    data: bytes,
    *,
    currency: str,
    point_cents: int,
    games: Mapping[str, str],
) -> Sheet:
    """The nights of a CSV file's ``data``, checked line by line. ``currency`` and
    ``point_cents`` are the group's, for rows that give none; ``games`` maps a game's
    id and name (lower case) to its id.

    >>> sheet = read_sheet(
    ...     b"Date;Name;Points\\n7-3-2024;Anna;+5\\n7-3-2024;bram ;-5\\n14-3-2024;Bram;2\\n",
    ...     currency="EUR", point_cents=10, games={})
    >>> [(n.day.isoformat(), n.players, n.points) for n in sheet.nights]
    [('2024-03-07', ('Anna', 'bram'), (5, -5))]
    >>> [(problem.line, problem.kind.value, problem.number) for problem in sheet.problems]
    [(4, 'not_zero', 2)]
    """
    if len(data) >= MAX_BYTES:
        return Sheet(problems=(Problem(0, Kind.TOO_BIG, number=MAX_BYTES),))
    lines = count_lines([data])
    if lines >= MAX_LINES:
        return Sheet(problems=(Problem(0, Kind.TOO_MANY_LINES, number=MAX_LINES),), lines=lines)
    text = decode(data)
    if text is None:
        return Sheet(problems=(Problem(0, Kind.NOT_TEXT),), lines=lines)
    long_line = _long_line(text)
    if long_line:
        problem = Problem(long_line, Kind.LINE_TOO_LONG, number=MAX_LINE_CHARS)
        return Sheet(problems=(problem,), lines=lines)
    try:
        return read_records(
            _records(text, time.monotonic() + READ_SECONDS),
            lines,
            currency=currency,
            point_cents=point_cents,
            games=games,
        )
    except Unreadable as unreadable:
        return Sheet(problems=(unreadable.problem,), lines=lines)
