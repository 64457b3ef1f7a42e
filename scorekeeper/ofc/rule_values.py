"""A house rule's value as JSON gives it, checked: the error for a value that
cannot be played and the checks every reader of a rule shares.

>>> whole_number(3), whole_number(True), whole_number(2.0)
(True, False, False)
>>> checked_amount('rule "scoring", "scoop"', 11, 10)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
scorekeeper.ofc.rule_values.RuleError: rule "scoring", "scoop": must be a whole number ..., got 11
"""

from __future__ import annotations

import json
from typing import TypeGuard

from .cards import OFCError

__all__ = ["RuleError", "checked_amount", "shown", "whole_number"]


class RuleError(OFCError):
    """A house rule's value that cannot be played, said in plain words."""


def whole_number(value: object) -> TypeGuard[int]:
    """Whether ``value`` is an int; a bool is not one, though Python calls it an int."""
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value: object) -> str:
    """``value`` as the JSON it came from, for an error message."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def checked_amount(where: str, value: object, most: int) -> int:
    """``value`` when it is a whole number from 0 to ``most``; otherwise raises
    :class:`RuleError` saying ``where`` it is."""
    if not whole_number(value) or not 0 <= value <= most:
        raise RuleError(f"{where}: must be a whole number from 0 to {most}, got {shown(value)}")
    return value
