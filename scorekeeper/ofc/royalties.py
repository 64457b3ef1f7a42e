"""Royalty tables: the standard one, and a table's own read from JSON and checked.

>>> STANDARD_ROYALTIES.top_pair[12], STANDARD_ROYALTIES.bottom["flush"]
(7, 4)
>>> royalty_table({"top_pair": {"QQ": 10}}).top_pair[12]
10
>>> sorted(ROYALTY_KEYS["low_middle"])
['10', '7', '8', '9']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, TypeVar

from .rule_values import RuleError, checked_amount, shown

__all__ = [
    "MAX_ROYALTY",
    "ROYALTY_KEYS",
    "STANDARD_ROYALTIES",
    "Royalties",
    "royalty_table",
]

K = TypeVar("K")
V = TypeVar("V")


def _frozen(mapping: Mapping[K, V]) -> Mapping[K, V]:
    return MappingProxyType(dict(mapping))


RANK_CHARS = "23456789TJQKA"


def rank_text(rank: int) -> str:
    """``14`` -> ``"A"``: a rank as the royalty table's keys write it."""
    return RANK_CHARS[rank - 2]


# Every hand a five-card row may be paid for (the standard table pays some of them 0).
FIVE_CARD_HANDS = (
    "pair",
    "two pair",
    "trips",
    "straight",
    "flush",
    "full house",
    "quads",
    "straight flush",
    "royal flush",
)

# A table's sections and, per section, its keys as JSON writes them -> the key the
# table looks up: "AA" -> 14 on top, "flush" -> "flush", "7" -> 7 for the 2-7 middle.
ROYALTY_KEYS: Mapping[str, Mapping[str, int | str]] = MappingProxyType(
    {
        "top_pair": _frozen({rank_text(rank) * 2: rank for rank in range(2, 15)}),
        "top_trips": _frozen({rank_text(rank) * 3: rank for rank in range(2, 15)}),
        "middle": _frozen({hand: hand for hand in FIVE_CARD_HANDS}),
        "bottom": _frozen({hand: hand for hand in FIVE_CARD_HANDS}),
        "low_middle": _frozen({str(high): high for high in range(7, 11)}),
    }
)
MAX_ROYALTY = 999


@dataclass(frozen=True)
class Royalties:
    """A royalty table. Top by rank (pairs and trips), middle and bottom by hand
    name, and the 2-7 middle by its highest card."""

    top_pair: Mapping[int, int] = field(hash=False)
    top_trips: Mapping[int, int] = field(hash=False)
    middle: Mapping[str, int] = field(hash=False)
    bottom: Mapping[str, int] = field(hash=False)
    low_middle: Mapping[int, int] = field(hash=False)

    def amount(self, section: str, key: str) -> int:
        """What the table pays for one entry, by its JSON names (0 when unpaid).

        >>> STANDARD_ROYALTIES.amount("top_pair", "AA"), STANDARD_ROYALTIES.amount("middle", "pair")
        (9, 0)
        """
        amounts: Mapping[int | str, int] = getattr(self, section)
        return amounts.get(ROYALTY_KEYS[section][key], 0)

    def with_changes(self, changes: Mapping[str, Mapping[str, int]]) -> Royalties:
        """This table with some entries changed, given as the JSON names them
        (checked: see :func:`royalty_table`).

        >>> table = STANDARD_ROYALTIES.with_changes({"top_pair": {"AA": 12, "22": 1}})
        >>> table.top_pair[14], table.top_pair[2], table.top_pair[13]
        (12, 1, 8)
        """
        sections: dict[str, Mapping[Any, int]] = {}
        for section, entries in changes.items():
            keys = ROYALTY_KEYS[section]
            current: dict[Any, int] = dict(getattr(self, section))
            current.update({keys[key]: value for key, value in entries.items()})
            sections[section] = _frozen(current)
        return replace(self, **sections)

    def changes_from(self, base: Royalties) -> dict[str, dict[str, int]]:
        """The entries where this table differs from ``base``, as JSON names them:
        what ``base.with_changes`` takes to make this table again.

        >>> own = STANDARD_ROYALTIES.with_changes({"top_pair": {"AA": 12}})
        >>> own.changes_from(STANDARD_ROYALTIES)
        {'top_pair': {'AA': 12}}
        """
        changes: dict[str, dict[str, int]] = {}
        for section, keys in ROYALTY_KEYS.items():
            differ = {
                key: self.amount(section, key)
                for key in keys
                if self.amount(section, key) != base.amount(section, key)
            }
            if differ:
                changes[section] = differ
        return changes

    def as_json(self) -> dict[str, dict[str, int]]:
        """Every entry of the table by its JSON names, 0s included."""
        return {
            section: {key: self.amount(section, key) for key in keys}
            for section, keys in ROYALTY_KEYS.items()
        }


STANDARD_ROYALTIES = Royalties(
    top_pair=_frozen({rank: rank - 5 for rank in range(6, 15)}),  # 66 = 1 ... AA = 9
    top_trips=_frozen({rank: rank + 8 for rank in range(2, 15)}),  # 222 = 10 ... AAA = 22
    middle=_frozen(
        {
            "trips": 2,
            "straight": 4,
            "flush": 8,
            "full house": 12,
            "quads": 20,
            "straight flush": 30,
            "royal flush": 50,
        }
    ),
    bottom=_frozen(
        {
            "straight": 2,
            "flush": 4,
            "full house": 6,
            "quads": 10,
            "straight flush": 15,
            "royal flush": 25,
        }
    ),
    low_middle=_frozen({7: 4, 8: 2, 9: 1, 10: 0}),
)


def royalty_table(changes: object, base: Royalties = STANDARD_ROYALTIES) -> Royalties:
    """``base`` with the changes of a JSON royalties object, every key and amount
    checked; raises :class:`~scorekeeper.ofc.rule_values.RuleError` saying what
    is wrong and where.

    >>> royalty_table({"top_trips": {"AAA": 30}}).top_trips[14]
    30
    >>> royalty_table({"top_pair": {"1010": 5}})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorekeeper.ofc.rule_values.RuleError: rule "royalties", top_pair: unknown key "1010"; ...
    """
    if not isinstance(changes, dict):
        raise RuleError(
            'rule "royalties" must be an object of changes to the standard table, '
            f"got {shown(changes)}"
        )
    for section, entries in changes.items():
        keys = ROYALTY_KEYS.get(section)
        if keys is None:
            raise RuleError(
                f'rule "royalties": unknown section "{section}"; '
                f"the sections are {', '.join(ROYALTY_KEYS)}"
            )
        where = f'rule "royalties", {section}'
        if not isinstance(entries, dict):
            raise RuleError(f"{where} must be an object of amounts, got {shown(entries)}")
        for key, value in entries.items():
            if key not in keys:
                names = list(keys)
                known = (
                    f"{names[0]} to {names[-1]}"
                    if section.startswith(("top", "low"))
                    else ", ".join(names)
                )
                raise RuleError(f'{where}: unknown key "{key}"; the keys are {known}')
            checked_amount(f'{where}, "{key}"', value, MAX_ROYALTY)
    return base.with_changes(changes)
