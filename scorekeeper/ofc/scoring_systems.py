"""Scoring systems: 1-6, 2-4, 1-1-1 and a table's own, read from JSON and checked
(ofc-rules.md, "Scoring systems").

>>> SYSTEMS["2-4"]
Scoring(scoop=0, majority=1)
>>> scoring_system({"scoop": 0, "majority": 0}).name
'1-1-1'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .rule_values import RuleError, checked_amount, shown

__all__ = ["MAX_BONUS", "ONE_SIX", "SYSTEMS", "Scoring", "scoring_system"]


@dataclass(frozen=True)
class Scoring:
    """A scoring system: each row won +1 and lost -1, ``scoop`` more for winning
    all three outright, ``majority`` more for winning more rows than the opponent."""

    scoop: int = 3
    majority: int = 0

    @property
    def name(self) -> str:
        """ "1-6", "2-4" or "1-1-1", or "" for a table's own system.

        >>> Scoring(0, 1).name, Scoring(5, 2).name
        ('2-4', '')
        """
        return next((name for name, system in SYSTEMS.items() if system == self), "")

    def scoop_for(self, won: int, lost: int) -> int:
        """The scoop bonus for ``won`` and ``lost`` rows of three, from the winner's
        side: three rows won outright (a tied row spoils it)."""
        return self.scoop * ((won == 3) - (lost == 3))

    def majority_for(self, won: int, lost: int) -> int:
        """The majority bonus: more rows won than lost (a tied row counts for neither)."""
        return self.majority * ((won > lost) - (won < lost))

    def for_rows(self, won: int, lost: int) -> int:
        """What ``won`` and ``lost`` rows come to before royalties: each row won +1,
        each lost -1, and the bonuses. A foul loses three rows outright.

        >>> [(system.for_rows(2, 1), system.for_rows(3, 0)) for system in SYSTEMS.values()]
        [(1, 6), (2, 4), (1, 3)]
        """
        return won - lost + self.scoop_for(won, lost) + self.majority_for(won, lost)

    def as_json(self) -> dict[str, int]:
        return {"scoop": self.scoop, "majority": self.majority}


ONE_SIX = Scoring(scoop=3, majority=0)
# The systems tables know by name (ofc-rules.md, "Scoring systems"), the default first.
SYSTEMS: Mapping[str, Scoring] = MappingProxyType(
    {"1-6": ONE_SIX, "2-4": Scoring(scoop=0, majority=1), "1-1-1": Scoring(scoop=0, majority=0)}
)
MAX_BONUS = 10


def scoring_system(value: object) -> Scoring:
    """The scoring system of a JSON ``{"scoop": S, "majority": M}``; a bonus left
    out keeps its 1-6 value. Raises :class:`~scorekeeper.ofc.rule_values.RuleError`.

    >>> scoring_system({"majority": 1})
    Scoring(scoop=3, majority=1)
    >>> scoring_system({"scoop": 11})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorekeeper.ofc.rule_values.RuleError: rule "scoring", "scoop": must be a whole number ...
    """
    if not isinstance(value, dict):
        raise RuleError(
            f'rule "scoring" must be an object {{"scoop": S, "majority": M}}, got {shown(value)}'
        )
    bonuses = ONE_SIX.as_json()
    for name, bonus in value.items():
        if name not in bonuses:
            raise RuleError(f'rule "scoring": unknown key "{name}"; the keys are scoop, majority')
        bonuses[name] = checked_amount(f'rule "scoring", "{name}"', bonus, MAX_BONUS)
    return Scoring(**bonuses)
