"""The card-entry form, and the picker it draws: rows of slots over a deck of cards.

The picker works without JavaScript: every card is a submit button. A tap on a
deck card posts ``add`` (it goes to the chosen row), a tap on a placed card
posts ``remove``; the page comes back with the rows' text updated and nothing
saved. ``picker.js`` does the same in the page, without the round trips.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeeper.forms.fields import PointsInput, SaveKeyField
from scorekeeper.forms.suits import as_engine_notation
from scorekeeper.models import Board, parse_board
from scorekeeper.ofc import DECK, ROWS, Game, OFCError, parse_card
from scorekeeper.terms import SUIT_WORDS, card_name

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
# The cards' CSS classes; what a screen reader says is terms.card_name.
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
ROW_NAMES = [row.value for row in ROWS]
SIZES = {row.value: row.size for row in ROWS}


@dataclass(frozen=True)
class Face:
    """A card as the picker shows it: ``Th`` is "10" of hearts, in the hearts colour."""

    code: str
    rank: str
    symbol: str
    suit: str  # "hearts", or "joker"
    # A joker shown as the card it became: the same card can then be on the
    # table twice, so the page marks it.
    wild: bool = False

    @property
    def label(self) -> str:
        """The card in words ("ace of spades"), as a screen reader should say it."""
        if self.wild:
            return gettext("joker as %(card)s") % {"card": card_name(self.code)}
        return card_name(self.code)


def face(code: str, *, wild: bool = False) -> Face:
    if code == "JK":
        return Face("JK", "JK", "★", "joker")
    rank = "10" if code[0] == "T" else code[0]
    return Face(code, rank, SUIT_SYMBOLS[code[1]], SUIT_NAMES[code[1]], wild)


class BoardForm(forms.Form):
    round = forms.IntegerField(widget=forms.HiddenInput)
    seat = forms.IntegerField(widget=forms.HiddenInput)
    # Drawn by hand in the picker's "type the cards" box, beside the tapped cards.
    top = forms.CharField(required=False, max_length=40, label=_("Top"))
    middle = forms.CharField(required=False, max_length=60, label=_("Middle"))
    bottom = forms.CharField(required=False, max_length=60, label=_("Bottom"))
    points = PointsInput(
        required=False,
        label=_("Your total"),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    key = SaveKeyField()

    def _clean_row(self, name: str) -> list[str]:
        try:
            return parse_board({name: as_engine_notation(self.cleaned_data.get(name, ""))})[name]
        except OFCError as error:
            raise forms.ValidationError(_not_cards(self.cleaned_data.get(name, ""))) from error

    def clean_top(self) -> list[str]:
        return self._clean_row("top")

    def clean_middle(self) -> list[str]:
        return self._clean_row("middle")

    def clean_bottom(self) -> list[str]:
        return self._clean_row("bottom")

    def board(self) -> Board:
        return {row: self.cleaned_data[row] for row in ROW_NAMES}


def _not_cards(text: str) -> str:
    """Which word of a row's text is not a card, and how to write one."""
    for token in str(text or "").replace(",", " ").split():
        try:
            parse_card(as_engine_notation(token))
        except OFCError:
            return gettext('"%(text)s" is not a card. Write cards like Qh Qc 3d.') % {"text": token}
    return gettext("Write cards like Qh Qc 3d.")


def board_initial(board: Board | None) -> dict[str, str]:
    """The form's row texts for a stored board."""
    return {row: " ".join(board[row]) for row in ROW_NAMES} if board else {}


def _tokens(text: str) -> list[str]:
    """The cards of a row's text that read as cards, canonical; the rest is dropped."""
    codes = []
    for token in as_engine_notation(text).split():
        try:
            codes.append(str(parse_card(token)))
        except OFCError:
            continue
    return codes


def apply_pick(data: Mapping[str, str]) -> dict[str, str | None]:
    """A picker tap without JavaScript: the form's values after ``add`` or ``remove``.

    A card added goes to the chosen row, or the next row with room; a card removed
    leaves its row. Nothing is saved.
    """
    rows = {row: _tokens(data.get(row, "")) for row in ROW_NAMES}
    chosen = data.get("row") if data.get("row") in SIZES else None
    added, removed = data.get("add", ""), data.get("remove", "")
    if removed:
        row, _space, code = removed.partition(" ")
        if row in rows and code in rows[row]:
            rows[row].remove(code)
            chosen = chosen or row
    elif added:
        code = _tokens(added)[:1]
        placed = [card for cards in rows.values() for card in cards]
        if code and (code[0] == "JK" or code[0] not in placed):
            order = ROW_NAMES if chosen is None else [chosen, *ROW_NAMES]
            room = next((row for row in order if len(rows[row]) < SIZES[row]), None)
            if room is not None:
                rows[room].append(code[0])
                chosen = room
    if chosen and len(rows[chosen]) >= SIZES[chosen]:
        chosen = next((row for row in ROW_NAMES if len(rows[row]) < SIZES[row]), chosen)
    values = {key: data.get(key, "") for key in ("round", "seat", "points")}
    return {**values, **{row: " ".join(cards) for row, cards in rows.items()}, "row": chosen}


@dataclass(frozen=True)
class PickerRow:
    name: str
    size: int
    cards: list[Face]
    text_field: forms.BoundField

    @property
    def empty(self) -> range:
        return range(max(0, self.size - len(self.cards)))

    @property
    def left(self) -> str:
        """How full the row is, in words ("1 of 3 left"): picker.js says it the same way."""
        return fill_left(self.size - len(self.cards), self.size)


def fill_left(left: int, size: int) -> str:
    return gettext("{left} of {size} left").format(left=max(0, left), size=size)


@dataclass(frozen=True)
class DeckCard:
    face: Face
    used_by: str  # "Bram bottom" when another seat holds it, else ""
    placed: str  # the row of this board that holds it, else ""


def picker(
    form: BoardForm, game: Game, used: dict[str, str], jokers_used: int, chosen: str | None
) -> dict:
    """What the template draws: the rows with their cards, and the deck."""
    values = {row: form[row].value() or "" for row in ROW_NAMES}
    rows = [
        PickerRow(row, SIZES[row], [face(code) for code in _tokens(values[row])], form[row])
        for row in ROW_NAMES
    ]
    placed = {card.code: row.name for row in rows for card in row.cards}
    suits = []
    for suit in "shdc":
        cards = [card for card in DECK if card.suit == suit]
        suits.append(
            (
                SUIT_NAMES[suit],
                SUIT_WORDS[suit],
                [
                    DeckCard(face(str(card)), used.get(str(card), ""), placed.get(str(card), ""))
                    for card in cards
                ],
            )
        )
    joker_rows = [row.name for row in rows for card in row.cards if card.code == "JK"]
    # The jokers other boards hold come first, then this board's.
    jokers = [
        DeckCard(
            face("JK"),
            gettext("another board") if i < jokers_used else "",
            joker_rows[i - jokers_used] if 0 <= i - jokers_used < len(joker_rows) else "",
        )
        for i in range(game.jokers)
    ]
    return {"rows": rows, "suits": suits, "jokers": jokers, "chosen": chosen}
