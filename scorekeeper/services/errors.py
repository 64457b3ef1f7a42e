"""What a service says when it turns a write down."""

from scorekeeper.models.titles import TitleRefused, TitleRule
from scorekeeper.table.names import clean_name
from scorekeeper.terms import name_problem


class Refused(ValueError):
    """A write that the rules do not allow; the message is for the person at the table."""


class LookAlike(Refused):
    """A name the others could not tell from one already there."""


def checked_name(raw: str) -> str:
    """:func:`clean_name`, its complaint raised as :class:`Refused` like any other."""
    try:
        return clean_name(raw)
    except ValueError as error:
        raise Refused(name_problem(error)) from None


def checked_title(rule: TitleRule, raw: str) -> str:
    """A group's or a season's name as kept, checked by ``rule`` (the form's own), its
    complaint raised as :class:`Refused`."""
    try:
        return rule.checked(raw)
    except TitleRefused as refused:
        raise Refused(str(refused)) from None
