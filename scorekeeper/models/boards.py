"""A board and its points as the tables keep them: a total's range, a board's cards in
canonical text, and the shape of the result the engine gave it (``Entry.card_result``).
Plain values, no table of their own."""

from typing import TypedDict

from django.utils.translation import gettext

from scorekeeper.ofc import ROWS, FantasylandState, PlayerBoard, parse_cards

# No hand comes to more than this many points either way; the database checks it too.
MAX_POINTS = 999

# {"top": ["Qh", "Qc", "3d"], "middle": [...], "bottom": [...]}, canonical card text.
Board = dict[str, list[str]]


def points_in_range(points: int) -> bool:
    return -MAX_POINTS <= points <= MAX_POINTS


def points_out_of_range() -> str:
    """What a total outside ``MAX_POINTS`` is told, in form and service alike: one
    message, its minus the real one, as totals are written everywhere."""
    return gettext("A total must be between −%(most)d and %(most)d.") % {"most": MAX_POINTS}


def player_board(
    name: str, board: Board, fantasyland: FantasylandState | None = None
) -> PlayerBoard:
    """A board of canonical cards as the engine's :class:`PlayerBoard`."""
    return PlayerBoard.parse(name, board["top"], board["middle"], board["bottom"], fantasyland)


def parse_board(rows: "dict[str, str | list[str]]") -> Board:
    """Card text per row (any accepted notation) -> a board of canonical cards.

    >>> parse_board({"top": "qh QC 10d", "middle": [], "bottom": "ah"})
    {'top': ['Qh', 'Qc', 'Td'], 'middle': [], 'bottom': ['Ah']}

    Raises :class:`scorekeeper.ofc.OFCError` for text that is not a card.
    """
    return {row.value: [str(card) for card in parse_cards(rows.get(row.value, ""))] for row in ROWS}


class RowKey(TypedDict):
    """One row of a scored board: what the words for its hand are said from."""

    row: str  # "top", "middle" or "bottom"
    key: int  # the engine's hand key
    low: bool  # a 2-7 middle, where the lower key is the better hand


class PairPoints(TypedDict):
    """A board's pair result against another board of its round, from its own side."""

    # The other board's seat by name: unique at a night and never changed, where a
    # seat's place moves when someone sits down and its key is new in a copied group.
    against: str
    points: int


class CardResult(TypedDict):
    """A board of a recorded round as the engine scored it (``Entry.card_result``)."""

    fouled: bool
    royalties: int
    fantasyland: bool  # the cards earned Fantasyland for the next hand (made or stayed)
    rows: list[RowKey]  # top, middle, bottom
    pairs: list[PairPoints]  # none when the board was scored alone
