"""Each table's own checks, as typed: what people type goes through the checks of the
forms and services that take it when typed (a name, a group's name, a currency, house
rules, how someone likes to be paid, a season, cards)."""

from collections.abc import Callable, Iterable
from typing import Any

from babel.numbers import is_currency
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models
from django.utils.translation import gettext as _

from scorekeeper.copies.import_checks.refusal import shown
from scorekeeper.forms.accounts import LanguageForm, NameField
from scorekeeper.forms.groups import CurrencyForm, GroupForm
from scorekeeper.forms.pay_details import PayDetailsForm
from scorekeeper.forms.seasons import SeasonForm
from scorekeeper.models import Entry, Group, Night, PayDetails, Round, RoundEdit, Seat, User
from scorekeeper.models.boards import parse_board
from scorekeeper.models.payments import TabPayment
from scorekeeper.models.seasons import Season
from scorekeeper.ofc import PRESETS, FantasylandState, Game, OFCError, RuleError
from scorekeeper.services.errors import Refused, checked_name
from scorekeeper.services.groups import checked_house_rules as checked_night_rules
from scorekeeper.services.groups import checked_table_rules
from scorekeeper.table.names import has_hidden_characters

# Each takes the row read, its fields as in the file and the records read before it, and
# yields (the field as the file names it, what is wrong) pairs.

Found = Iterable[tuple[str, str]]


def _form_errors(form) -> Found:
    if not form.is_valid():
        for field, messages in form.errors.items():
            for message in messages:
                yield ("" if field == NON_FIELD_ERRORS else field), message


def _account(user: User, raw: dict, keys: dict) -> Found:
    try:
        NameField().clean(user.name)
    except ValidationError as error:
        for message in error.messages:
            yield "name", message
    if user.language:
        yield from _form_errors(LanguageForm(data={"language": user.language}))


def _pay_details(details: PayDetails, raw: dict, keys: dict) -> Found:
    """Through the account page's own form, which runs PayDetails.clean() too; the row
    is then kept as that form keeps it (the IBAN compact, each link with https://)."""
    fields = PayDetailsForm._meta.fields
    form = PayDetailsForm(data={name: getattr(details, name) for name in fields})
    found = list(_form_errors(form))
    if not found:
        raw["fields"].update({name: getattr(form.instance, name) for name in fields})
    yield from found


def _refused(check: Callable[[], object]) -> list[str]:
    try:
        check()
    except Refused as refusal:
        return [str(refusal)]
    return []


def _currency(value: str) -> Found:
    if not is_currency(value):
        message = CurrencyForm.base_fields["currency"].error_messages["invalid_choice"]
        yield "currency", message % {"value": shown(value)}


def _game(value: str, field: str = "game") -> Found:
    if value not in PRESETS:
        yield field, _("“%(value)s” is not one of the app's games.") % {"value": shown(value)}


# What reading house rules of a strange shape raises, besides the services' Refused.
NOT_RULES = (RuleError, TypeError, ValueError, KeyError, AttributeError)


def _rules(field: str, rules: object, check: Callable[[dict], object], game: str = "") -> Found:
    """House rules as the services check them (``check``), and as ``game`` plays them."""
    try:
        check(_a_dict(rules))
        if game in PRESETS:
            PRESETS[game].with_house_rules(_a_dict(rules))
    except Refused as refusal:
        yield field, str(refusal)
    except NOT_RULES:
        yield field, _("These house rules cannot be played.")


def _group(group: Group, raw: dict, keys: dict) -> Found:
    yield from _form_errors(GroupForm(data={"name": group.name}))
    yield from _currency(group.currency)
    yield from _game(group.default_game, "default_game")
    yield from _rules("house_rules", group.house_rules, checked_table_rules)
    yield from _rules("default_rules", group.default_rules, checked_night_rules)


def _night(night: Night, raw: dict, keys: dict) -> Found:
    yield from _currency(night.currency)
    yield from _game(night.game)
    yield from _rules("rules", night.rules, checked_night_rules, night.game)


def _seat(seat: Seat, raw: dict, keys: dict) -> Found:
    for problem in _refused(lambda: checked_name(seat.name)):
        yield "name", problem


def _tab_payment(payment: TabPayment, raw: dict, keys: dict) -> Found:
    for field in ("payer_name", "payee_name"):
        for problem in _refused(lambda field=field: checked_name(getattr(payment, field))):
            yield field, problem


def _season(season: Season, raw: dict, keys: dict) -> Found:
    """Its name and day as the seasons page takes them."""
    day = season.starts_on.isoformat() if season.starts_on else ""
    yield from _form_errors(SeasonForm(data={"name": season.name, "starts_on": day}))


def _round(round_: Round, raw: dict, keys: dict) -> Found:
    """Who plays the hand in Fantasyland: {seat key: [cards, stays]}, seats of the file;
    and its dealer, a seat at its night."""
    dealer = keys[Seat].get(round_.dealer_id)
    if dealer is not None and dealer.night_id != round_.night_id:
        yield "dealer", _("This seat is not at the night of this round.")
    try:
        fantasyland = _a_dict(round_.fantasyland)
        for seat, value in fantasyland.items():
            if int(seat) not in keys[Seat] or not all(type(n) is int for n in value):
                raise ValueError(seat)
            FantasylandState(*value)
    except (TypeError, ValueError):
        yield "fantasyland", _("Who plays this round in Fantasyland cannot be read.")


def _entry(entry: Entry, raw: dict, keys: dict) -> Found:
    """The cards as the card page keeps them (three rows of cards in its notation), a
    Fantasyland claim as its night's game has it, and a seat at the round's night."""
    round_, seat = keys[Round].get(entry.round_id), keys[Seat].get(entry.seat_id)
    if round_ is not None and seat is not None and seat.night_id != round_.night_id:
        yield "seat", _("This seat is not at the night of this round.")
    game = _game_of(keys, round_)
    ways_in = {option.id for option in game.entry_options} if game is not None else None
    if entry.fantasyland_made and ways_in is not None and entry.fantasyland_made not in ways_in:
        yield (
            "fantasyland_made",
            _("“%(value)s” is not a way into Fantasyland in this night's game.")
            % {"value": shown(entry.fantasyland_made)},
        )
    if entry.board is None:
        return
    try:
        readable = parse_board(_a_dict(entry.board)) == entry.board
    except (OFCError, TypeError, ValueError, AttributeError):
        readable = False
    if not readable:
        yield "board", _("The cards of this board cannot be read.")


def _game_of(keys: dict, round_: Round | None) -> Game | None:
    """The game the night of ``round_`` plays, or None when it cannot be told."""
    night = keys[Night].get(round_.night_id) if round_ is not None else None
    try:
        return PRESETS[night.game].with_house_rules(night.rules) if night is not None else None
    except NOT_RULES:
        return None  # said of the night's own record


def _round_edit(edit: RoundEdit, raw: dict, keys: dict) -> Found:
    """A correction's changes: [[seat name, old points, new points], ...]."""
    changes = edit.changes
    if not isinstance(changes, list) or not all(
        isinstance(change, list)
        and len(change) == 3
        and isinstance(change[0], str)
        and not has_hidden_characters(change[0])
        and all(type(points) is int for points in change[1:])
        for change in changes
    ):
        yield "changes", _("The changes of this correction cannot be read.")


ROW_CHECKS: dict[type[models.Model], tuple[Callable[[Any, dict, dict], Found], ...]] = {
    User: (_account,),
    PayDetails: (_pay_details,),
    Group: (_group,),
    Night: (_night,),
    Seat: (_seat,),
    TabPayment: (_tab_payment,),
    Round: (_round,),
    Entry: (_entry,),
    RoundEdit: (_round_edit,),
    Season: (_season,),
}


def _a_dict(value: object) -> dict:
    if not isinstance(value, dict):
        raise TypeError("not a mapping")
    return value
