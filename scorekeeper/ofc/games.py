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

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from types import MappingProxyType
from typing import Any

from .evaluate import Category, pack_key
from .royalties import STANDARD_ROYALTIES, Royalties, royalty_table
from .rule_values import whole_number
from .scoring_systems import ONE_SIX, Scoring, scoring_system

__all__ = [
    "HOUSE_RULES",
    "PRESETS",
    "TABLE_RULES",
    "EntryOption",
    "Game",
    "RuleKind",
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
        return value is None or (whole_number(value) and value >= 0)


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

# Each game is told as ofc-rules.md tells it: what it changes of the one it comes from.
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
_PROGRESSIVE_GAME = replace(
    _PINEAPPLE, id="progressive", name="Progressive Pineapple", entry=_PROGRESSIVE
)
_ULTIMATE = replace(
    _PROGRESSIVE_GAME, id="ultimate", name="Progressive Ultimate", stay_cards=None, stay_limit=3
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
        "jokers": replace(_ULTIMATE, id="jokers", name="Joker OFC", jokers=2),
        "deuce": replace(
            _PINEAPPLE,
            id="deuce",
            name="2-7 Pineapple",
            low_middle=True,
            entry=(
                EntryOption("kk+", "KK or better on top", 14, top=KINGS),
                EntryOption("wheel", "7-5-4-3-2 middle", 14, wheel_middle=True),
                EntryOption("both", "KK or better on top and 7-5-4-3-2 middle", 15, KINGS, True),
            ),
        ),
    }
)
