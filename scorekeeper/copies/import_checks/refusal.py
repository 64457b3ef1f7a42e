"""A file's refusal in words, row by row, and the one transaction a checked file is
written in."""

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DatabaseError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper.table.names import has_hidden_characters


class BackupError(Exception):
    """A backup or a group's copy that cannot be brought in here; the message says why
    in words. Defined here, below the backups that raise it too, since every file is
    checked here first."""


@contextmanager
def written_whole() -> Iterator[None]:
    """The rows of a checked file written in one transaction: a clash only the database
    can see (two records it holds apart, such as two totals of one seat in one round)
    takes back every row and is refused in words like any other problem."""
    try:
        with transaction.atomic():
            yield
    except DatabaseError as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        raise BackupError(
            _(
                "Nothing was brought in and nothing was changed: records of the file "
                "clash with each other or with what is here (%(problem)s)."
            )
            % {"problem": first_line or type(error).__name__}
        ) from None


# A refusal says this many problems at most, then how many more there are.
MOST_SAID = 10


class Problems:
    """What is wrong with a file, in the reader's language, row by row."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def row(self, number: int, row: str, problem: str, field: str = "") -> None:
        if field:
            self.said.append(
                _("Record %(number)d (%(row)s), %(field)s: %(problem)s")
                % {"number": number, "row": row, "field": field, "problem": problem}
            )
        else:
            self.said.append(
                _("Record %(number)d (%(row)s): %(problem)s")
                % {"number": number, "row": row, "problem": problem}
            )

    def file(self, problem: str) -> None:
        self.said.append(problem)

    def refusal(self) -> str:
        lines = [
            _(
                "Nothing was brought in and nothing was changed: the file holds what "
                "the app would not take as typed."
            ),
            *self.said[:MOST_SAID],
        ]
        more = len(self.said) - MOST_SAID
        if more > 0:
            lines.append(
                ngettext("…and %(count)d more problem.", "…and %(count)d more problems.", more)
                % {"count": more}
            )
        return "\n".join(lines)


def shown(value: object, longest: int = 60) -> str:
    """``value`` as a refusal may print it: cut short, and any character that hides
    what it is (a right-to-left override, an escape) written as its code instead.

    >>> shown("Anna\u202eseirV\n")
    'Anna<U+202E>seirV<U+000A>'
    """
    text = str(value)
    text = text if len(text) <= longest else text[: longest - 1] + "…"
    return "".join(
        ch
        if ch == " " or (ch.isprintable() and not has_hidden_characters(ch))
        else f"<U+{ord(ch):04X}>"
        for ch in text
    )
