"""The OFC rules engine: pure Python, no Django.

Cards and notation (:mod:`.cards`), hand evaluation (:mod:`.evaluate`), a
house rule's value checked (:mod:`.rule_values`), royalty tables
(:mod:`.royalties`), scoring systems (:mod:`.scoring_systems`), the seven
games as data (:mod:`.games`), jokers (:mod:`.jokers`), Fantasyland
(:mod:`.fantasyland`), a player's board scored on its own (:mod:`.board`), why
boards cannot be scored together (:mod:`.problems`), the table scored and
settled pair by pair (:mod:`.scoring`), and the JSON contract of
``manage.py score`` (:mod:`.contract`). Each module imports only the ones
before it in this list.

>>> board = PlayerBoard.parse
>>> result = score_table(
...     PRESETS["standard"],
...     [
...         board("A", "2c 3d 4h", "5c 5d 8h 9s Ts", "Ah Kh 9h 7h 2h"),
...         board("B", "Kc Kd 6s", "As Ad 4c 7s Jc", "8c 8d 3s 3c Qs"),
...     ],
... )
>>> [player.points for player in result.players]
[-5, 5]
"""

from .board import ROWS, PlayerBoard, PlayerResult, Row, RowResult, entry_option
from .cards import DECK, JOKER, Card, OFCError, format_cards, parse_card, parse_cards
from .evaluate import Category, describe, hand_key, hand_name
from .fantasyland import FantasylandState, may_stay, next_fantasyland
from .games import HOUSE_RULES, PRESETS, TABLE_RULES, EntryOption, Game, RuleKind
from .problems import JokersNotDealt, Place, Problem, RepeatedCard, TableError, TooManyJokers
from .royalties import STANDARD_ROYALTIES, Royalties
from .rule_values import RuleError
from .scoring import PairResult, TableResult, score_board, score_table, table_problems
from .scoring_systems import Scoring

__all__ = [
    "DECK",
    "HOUSE_RULES",
    "JOKER",
    "PRESETS",
    "ROWS",
    "STANDARD_ROYALTIES",
    "TABLE_RULES",
    "Card",
    "Category",
    "EntryOption",
    "FantasylandState",
    "Game",
    "JokersNotDealt",
    "OFCError",
    "PairResult",
    "Place",
    "PlayerBoard",
    "PlayerResult",
    "Problem",
    "RepeatedCard",
    "Row",
    "RowResult",
    "Royalties",
    "RuleError",
    "RuleKind",
    "Scoring",
    "TableError",
    "TableResult",
    "TooManyJokers",
    "describe",
    "entry_option",
    "format_cards",
    "hand_key",
    "hand_name",
    "may_stay",
    "next_fantasyland",
    "parse_card",
    "parse_cards",
    "score_board",
    "score_table",
    "table_problems",
]
