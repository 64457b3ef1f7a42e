"""The seven games as data: one frozen :class:`Game` per preset.

A group's house rules are ``dataclasses.replace`` of a preset, never an
``if`` in the scoring code; :data:`HOUSE_RULES` names the fields a group may
switch and the kind of value each takes:

>>> classic = PRESETS["ultimate"].with_house_rules({"stay_full_house_middle": True})
>>> classic.stay_limit, classic.stay_full_house_middle
(3, True)
>>> HOUSE_RULES["stay_limit"].accepts(None), HOUSE_RULES["fantasyland"].accepts(1)
(True, False)
>>> [(option.id, option.cards) for option in PRESETS["progressive"].entry_options]
[('qq', 14), ('kk', 15), ('aa', 16), ('trips', 17)]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from types import MappingProxyType
from typing import Any, TypeVar

from .cards import OFCError
from .evaluate import Category, pack_key

__all__ = [
    "HOUSE_RULES",
    "ONE_SIX",
    "PRESETS",
    "ROYALTY_KEYS",
    "STANDARD_ROYALTIES",
    "SYSTEMS",
    "TABLE_RULES",
    "EntryOption",
    "Game",
    "Royalties",
    "RuleError",
    "RuleKind",
    "Scoring",
    "royalty_table",
    "scoring_system",
    "top_at_least",
]


def top_at_least(category: Category, rank: int = 2) -> int:
    """The smallest key of a top row with this category and main rank.

    >>> from scorekeeper.ofc.evaluate import hand_key
    >>> from scorekeeper.ofc.cards import parse_cards
    >>> hand_key(parse_cards("Qs Qd 2c")) >= top_at_least(Category.PAIR, 12)
    True
    """
    return pack_key(category, [rank])


QUEENS = top_at_least(Category.PAIR, 12)
KINGS = top_at_least(Category.PAIR, 13)
ACES = top_at_least(Category.PAIR, 14)
ANY_TRIPS = top_at_least(Category.TRIPS)


@dataclass(frozen=True)
class EntryOption:
    """One way into Fantasyland: what the board needs and how many cards it earns.

    A board qualifies when its top is at least ``top`` (a key, when set) and,
    when ``wheel_middle``, its middle is the 2-7 wheel 7-5-4-3-2. Of the
    options a board qualifies for, the one with the most cards applies.
    """

    id: str
    label: str
    cards: int
    top: int | None = None
    wheel_middle: bool = False


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


class RuleError(OFCError):
    """A house rule's value that cannot be played, said in plain words."""


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


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: object) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def royalty_table(changes: object, base: Royalties = STANDARD_ROYALTIES) -> Royalties:
    """``base`` with the changes of a JSON royalties object, every key and amount
    checked; raises :class:`RuleError` saying what is wrong and where.

    >>> royalty_table({"top_trips": {"AAA": 30}}).top_trips[14]
    30
    >>> royalty_table({"top_pair": {"1010": 5}})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorekeeper.ofc.games.RuleError: rule "royalties", top_pair: unknown key "1010"; the keys ...
    """
    if not isinstance(changes, dict):
        raise RuleError(
            'rule "royalties" must be an object of changes to the standard table, '
            f"got {_shown(changes)}"
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
            raise RuleError(f"{where} must be an object of amounts, got {_shown(entries)}")
        for key, value in entries.items():
            if key not in keys:
                names = list(keys)
                known = (
                    f"{names[0]} to {names[-1]}"
                    if section.startswith(("top", "low"))
                    else ", ".join(names)
                )
                raise RuleError(f'{where}: unknown key "{key}"; the keys are {known}')
            if not _whole(value) or not 0 <= value <= MAX_ROYALTY:
                raise RuleError(
                    f'{where}, "{key}": must be a whole number from 0 to {MAX_ROYALTY}, '
                    f"got {_shown(value)}"
                )
    return base.with_changes(changes)


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
    out keeps its 1-6 value. Raises :class:`RuleError`.

    >>> scoring_system({"majority": 1})
    Scoring(scoop=3, majority=1)
    >>> scoring_system({"scoop": 11})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorekeeper.ofc.games.RuleError: rule "scoring", "scoop": must be a whole number ...
    """
    if not isinstance(value, dict):
        raise RuleError(
            f'rule "scoring" must be an object {{"scoop": S, "majority": M}}, got {_shown(value)}'
        )
    bonuses = ONE_SIX.as_json()
    for name, bonus in value.items():
        if name not in bonuses:
            raise RuleError(f'rule "scoring": unknown key "{name}"; the keys are scoop, majority')
        if not _whole(bonus) or not 0 <= bonus <= MAX_BONUS:
            raise RuleError(
                f'rule "scoring", "{name}": must be a whole number from 0 to {MAX_BONUS}, '
                f"got {_shown(bonus)}"
            )
        bonuses[name] = bonus
    return Scoring(**bonuses)


# The table's own amounts and system: JSON in a night's rules, data on the game.
# Each reader checks its value and raises RuleError.
TABLE_RULES: Mapping[str, Callable[[object], object]] = MappingProxyType(
    {"royalties": royalty_table, "scoring": scoring_system}
)


@dataclass(frozen=True)
class Game:
    """A game's rules. Every house rule a group can switch is a field here."""

    id: str
    name: str
    max_players: int
    min_players: int = 2
    # Wild jokers dealt with the 52 cards (the jokers game has two).
    jokers: int = 0
    # 2-7: the middle is a low hand, and only bottom >= top is checked.
    low_middle: bool = False
    fantasyland: bool = True
    entry: tuple[EntryOption, ...] = ()
    # Cards dealt on a stay: always this many (the fixed counts are never above
    # an entry, so the count never grows within a streak); None means the
    # count the streak entered with.
    stay_cards: int | None = None
    stay_top_trips: bool = True
    stay_full_house_middle: bool = False
    stay_quads_bottom: bool = True
    stay_wheel_middle: bool = False
    # Stays in a row (None = no limit): 3 means at most 4 Fantasyland hands.
    stay_limit: int | None = None
    # Dealer button "hold": it also stays for the first regular hand after a
    # Fantasyland hand. The engine does not move buttons; the app reads this.
    hold_button: bool = False
    royalties: Royalties = field(default=STANDARD_ROYALTIES, hash=False)
    scoring: Scoring = ONE_SIX

    @property
    def entry_options(self) -> tuple[EntryOption, ...]:
        """The ways into Fantasyland a form should offer (none when it is off)."""
        return self.entry if self.fantasyland else ()

    def with_house_rules(self, rules: Mapping[str, object]) -> Game:
        """This game with the house rules in ``rules`` switched; any other entry
        is ignored. Switches are taken as they are (check them with
        :meth:`RuleKind.accepts`); the table's own ``royalties`` (changes to the
        standard table) and ``scoring`` are JSON, read by :data:`TABLE_RULES`,
        which raise :class:`RuleError` for a value that cannot be played.

        >>> game = PRESETS["pineapple"].with_house_rules({"stay_limit": 2, "colour": "red"})
        >>> game.stay_limit, game.id
        (2, 'pineapple')
        >>> game = PRESETS["standard"].with_house_rules({"scoring": {"scoop": 0, "majority": 1}})
        >>> game.scoring.name, game.royalties is STANDARD_ROYALTIES
        ('2-4', True)
        """
        # Each value goes to a field of its own type; checking a switch is the
        # caller's business (RuleKind.accepts), so here it is Any.
        changes: dict[str, Any] = {
            name: value for name, value in rules.items() if name in HOUSE_RULES
        }
        for name, read in TABLE_RULES.items():
            if name in rules:
                changes[name] = read(rules[name])
        return replace(self, **changes)


class RuleKind(Enum):
    """The kind of value a house rule takes."""

    SWITCH = "switch"  # on or off: a bool
    LIMIT = "limit"  # a whole number from 0 (a bool is not one), or None for no limit

    def accepts(self, value: object) -> bool:
        """Whether ``value`` is a value of this kind.

        >>> RuleKind.SWITCH.accepts(False), RuleKind.SWITCH.accepts(0)
        (True, False)
        >>> [RuleKind.LIMIT.accepts(value) for value in (0, 3, None, -1, True, 2.0)]
        [True, True, True, False, False, False]
        """
        if self is RuleKind.SWITCH:
            return isinstance(value, bool)
        return value is None or (
            isinstance(value, int) and not isinstance(value, bool) and value >= 0
        )


# The fields of Game a group may switch for a night, in the order forms show them.
HOUSE_RULES: Mapping[str, RuleKind] = MappingProxyType(
    {
        "fantasyland": RuleKind.SWITCH,
        "stay_full_house_middle": RuleKind.SWITCH,
        "stay_wheel_middle": RuleKind.SWITCH,
        "stay_limit": RuleKind.LIMIT,
        "hold_button": RuleKind.SWITCH,
    }
)


_QQ_PLUS = (EntryOption("qq+", "QQ or better on top", 13, top=QUEENS),)
_PROGRESSIVE = (
    EntryOption("qq", "QQ on top", 14, top=QUEENS),
    EntryOption("kk", "KK on top", 15, top=KINGS),
    EntryOption("aa", "AA on top", 16, top=ACES),
    EntryOption("trips", "Trips on top", 17, top=ANY_TRIPS),
)

_STANDARD = Game(
    id="standard",
    name="OFC Standard",
    max_players=4,
    entry=_QQ_PLUS,
    stay_cards=13,
    stay_full_house_middle=True,
)
_PINEAPPLE = Game(
    id="pineapple",
    name="Pineapple",
    max_players=3,
    entry=(EntryOption("qq+", "QQ or better on top", 14, top=QUEENS),),
    stay_cards=14,
)
_PROGRESSIVE_GAME = Game(
    id="progressive",
    name="Progressive Pineapple",
    max_players=3,
    entry=_PROGRESSIVE,
    stay_cards=14,
)
_ULTIMATE = Game(
    id="ultimate",
    name="Progressive Ultimate",
    max_players=3,
    entry=_PROGRESSIVE,
    stay_cards=None,
    stay_limit=3,
)

PRESETS: Mapping[str, Game] = MappingProxyType(
    {
        "standard": _STANDARD,
        "standard-nofl": replace(
            _STANDARD,
            id="standard-nofl",
            name="OFC Standard without Fantasyland",
            fantasyland=False,
        ),
        "pineapple": _PINEAPPLE,
        "progressive": _PROGRESSIVE_GAME,
        "ultimate": _ULTIMATE,
        "jokers": Game(
            id="jokers",
            name="Joker OFC",
            max_players=3,
            jokers=2,
            entry=_PROGRESSIVE,
            stay_cards=None,
            stay_limit=3,
        ),
        "deuce": Game(
            id="deuce",
            name="2-7 Pineapple",
            max_players=3,
            low_middle=True,
            entry=(
                EntryOption("kk+", "KK or better on top", 14, top=KINGS),
                EntryOption("wheel", "7-5-4-3-2 middle", 14, wheel_middle=True),
                EntryOption("both", "KK or better on top and 7-5-4-3-2 middle", 15, KINGS, True),
            ),
            stay_cards=14,
        ),
    }
)
