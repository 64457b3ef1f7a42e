"""A file brought in, a whole site (``manage.py restore``) or one group as a new group
(``restore --as-new-group``), is checked row by row as if each row were typed, before
anything of it is written: the whole file is taken, or nothing.

- Only the tables the file's kind is written with (``tables``: what ``backup`` or
  ``backup --group`` writes), never another app's (a django-axes lockout, a session,
  a permission) nor one of this app that the kind does not carry.
- Every row can be read as a row of its table, with its key, and points only at rows
  before it in the file (the order both kinds are written in).
- Every field as its column takes it (length, number range, not blank: the model's
  own field checks) and as the database's check constraints take it.
- What people type goes through the checks of the forms and services that take it
  when typed: a name as the sign-up form's (and a guest's as the seat service's), a
  group's name as its form's, its currency and house rules as the services', a
  night's game and rules as the night's start does, how someone likes to be paid
  through the account page's own form (and kept as that form keeps it: the IBAN
  compact and in capitals, a link with its https://), cards as the card page reads them.

Each problem is said in words, with its row (counted from 1 in the file's list of
rows) and field as the file names it: "Record 12 (pay details of Anna), iban: The
check digits of this IBAN do not match its number ...".
"""

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from babel.numbers import is_currency
from django.core import serializers
from django.core.exceptions import NON_FIELD_ERRORS, FieldDoesNotExist, ValidationError
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, models, transaction
from django.db.models import CheckConstraint
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper.forms.accounts import LanguageForm, NameField
from scorekeeper.forms.groups import CurrencyForm, GroupForm
from scorekeeper.forms.pay_details import PayDetailsForm
from scorekeeper.forms.seasons import SeasonForm
from scorekeeper.models import Entry, Group, Night, PayDetails, Round, RoundEdit, Seat, User
from scorekeeper.models.nights import parse_board
from scorekeeper.models.payments import TabPayment
from scorekeeper.models.seasons import Season
from scorekeeper.ofc import PRESETS, FantasylandState, Game, OFCError, RuleError
from scorekeeper.services.errors import Refused, checked_name
from scorekeeper.services.groups import checked_house_rules as checked_night_rules
from scorekeeper.services.groups import checked_table_rules
from scorekeeper.table.names import has_hidden_characters, name_key


class BackupError(Exception):
    """A backup or a group's copy that cannot be brought in here; the message says why
    in words. Defined here, below the backups that raise it too, since every file is
    checked here first."""


@contextmanager
def written_whole() -> Iterator[None]:
    """The rows of a checked file written in one transaction: a clash only the database
    can see (two records it holds apart, such as two totals of one seat in one round)
    takes back every row and is refused in words like any other problem."""
    try:
        with transaction.atomic():
            yield
    except DatabaseError as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        raise BackupError(
            _(
                "Nothing was brought in and nothing was changed: records of the file "
                "clash with each other or with what is here (%(problem)s)."
            )
            % {"problem": first_line or type(error).__name__}
        ) from None


# A refusal says this many problems at most, then how many more there are.
MOST_SAID = 10


class _Problems:
    """What is wrong with a file, in the reader's language, row by row."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def row(self, number: int, row: str, problem: str, field: str = "") -> None:
        if field:
            self.said.append(
                _("Record %(number)d (%(row)s), %(field)s: %(problem)s")
                % {"number": number, "row": row, "field": field, "problem": problem}
            )
        else:
            self.said.append(
                _("Record %(number)d (%(row)s): %(problem)s")
                % {"number": number, "row": row, "problem": problem}
            )

    def file(self, problem: str) -> None:
        self.said.append(problem)

    def refusal(self) -> str:
        lines = [
            _(
                "Nothing was brought in and nothing was changed: the file holds what "
                "the app would not take as typed."
            ),
            *self.said[:MOST_SAID],
        ]
        more = len(self.said) - MOST_SAID
        if more > 0:
            lines.append(
                ngettext("…and %(count)d more problem.", "…and %(count)d more problems.", more)
                % {"count": more}
            )
        return "\n".join(lines)


def check_file(document: dict, tables: Iterable[type[models.Model]]) -> None:
    """Refuse ``document`` (a file read by ``backup.read_document``), raising
    ``BackupError`` in words, unless every row is of one of ``tables`` and would be
    taken as typed. Rows of how someone likes to be paid are put as the account page
    keeps them (``document`` changes in place); nothing is written to the database."""
    _check(document, tables, _check_rows)


def check_tables(document: dict, tables: Iterable[type[models.Model]]) -> None:
    """The first half of :func:`check_file`, for a file whose rows are not yet at this
    version's schema (a backup made by an older version, before its upgrade puts them
    in this database's tables): refused unless every row is a record of one of
    ``tables``. Its fields are :func:`check_file`'s, once the rows are upgraded."""
    _check(document, tables, _check_tables)


def _check(document: dict, tables: Iterable[type[models.Model]], check: Callable) -> None:
    problems = _Problems()
    objects = document.get("objects")
    if not isinstance(objects, list):
        problems.file(_("The file has no list of records."))
    else:
        check(objects, {model._meta.label_lower: model for model in tables}, problems)
    if problems.said:
        raise BackupError(problems.refusal())


def _check_tables(
    objects: list, allowed: dict[str, type[models.Model]], problems: _Problems
) -> None:
    for number, raw in enumerate(objects, 1):
        _table_of(number, raw, allowed, problems)


def _table_of(
    number: int, raw: object, allowed: dict[str, type[models.Model]], problems: _Problems
) -> type[models.Model] | None:
    """The table of the record ``raw`` when it is one of ``allowed``; else None, said."""
    if not (isinstance(raw, dict) and isinstance(raw.get("fields"), dict)):
        problems.file(_("Record %(number)d is not a record of a table.") % {"number": number})
        return None
    label = str(raw.get("model", "")).lower()
    model = allowed.get(label)
    if model is None:
        problems.file(
            _("Record %(number)d belongs to %(table)s, a table this file cannot bring in.")
            % {"number": number, "table": shown(label)}
        )
    return model


def _check_rows(objects: list, allowed: dict[str, type[models.Model]], problems: _Problems) -> None:
    # Every account's name by key, to say whose a row is ("pay details of Anna").
    names = {
        str(row.get("pk")): row["fields"].get("name")
        for row in objects
        if isinstance(row, dict)
        and str(row.get("model", "")).lower() == "scorekeeper.user"
        and isinstance(row.get("fields"), dict)
    }
    keys: dict[type[models.Model], dict[Any, int]] = {model: {} for model in allowed.values()}
    # The records read so far by table and key, for a record's checks against those it
    # points at (an entry's claim against its night's game).
    read: dict[type[models.Model], dict[Any, models.Model]] = {
        model: {} for model in allowed.values()
    }
    account_names: dict[str, int] = {}
    for number, raw in enumerate(objects, 1):
        model = _table_of(number, raw, allowed, problems)
        if model is None:
            continue
        row = _described(model, raw, names)
        try:
            instance = next(serializers.deserialize("python", [raw])).object
        except (
            DeserializationError,
            FieldDoesNotExist,
            LookupError,
            TypeError,
            ValueError,
            AttributeError,
        ) as error:
            problems.row(
                number, row, _("It cannot be read: %(problem)s") % {"problem": shown(str(error))}
            )
            continue
        _check_keys(number, row, instance, keys, problems)
        read[model].setdefault(instance.pk, instance)
        wrong = _check_fields(number, row, instance, problems)
        for check in ROW_CHECKS.get(model, ()):
            for field, problem in check(instance, raw, read):
                if field not in wrong:  # said once, by the column's own check
                    problems.row(number, row, problem, field)
        if isinstance(instance, User):
            folded = name_key(instance.name)
            if folded in account_names:
                problems.row(
                    number,
                    row,
                    _("Record %(other)d is an account of the same name.")
                    % {"other": account_names[folded]},
                )
            account_names.setdefault(folded, number)


def _check_keys(
    number: int,
    row: str,
    instance: models.Model,
    keys: dict[type[models.Model], dict[Any, int]],
    problems: _Problems,
) -> None:
    """The row has a key of its own in its table, and each row it points at is one
    before it in the file (both kinds of file are written in that order)."""
    model = type(instance)
    for field in model._meta.concrete_fields:
        if not field.is_relation:
            continue
        pointed = getattr(instance, field.attname)
        if pointed is not None and pointed not in keys.get(field.related_model, {}):
            problems.row(
                number,
                row,
                _("It names a record that does not come before it in the file."),
                field.name,
            )
    if instance.pk is None:
        problems.row(number, row, _("It has no key."))
    elif instance.pk in keys[model]:
        problems.row(
            number,
            row,
            _("Record %(other)d has the same key.") % {"other": keys[model][instance.pk]},
        )
    else:
        keys[model][instance.pk] = number


def _check_fields(number: int, row: str, instance: models.Model, problems: _Problems) -> set[str]:
    """Each field as its column takes it, and the table's check constraints (its
    references are checked by _check_keys: this database does not hold those rows);
    the fields found wrong."""
    model = type(instance)
    relations = {field.name for field in model._meta.concrete_fields if field.is_relation}
    try:
        instance.clean_fields(exclude=relations)
    except ValidationError as error:
        for field, messages in error.message_dict.items():
            for message in messages:
                problems.row(number, row, message, "" if field == NON_FIELD_ERRORS else field)
        return set(error.message_dict)  # the constraints read those fields
    for constraint in model._meta.constraints:
        if isinstance(constraint, CheckConstraint):
            try:
                constraint.validate(model, instance)
            except ValidationError as error:
                for message in error.messages:
                    problems.row(number, row, message)
    return set()


# --- each table's own checks, as typed -------------------------------------------------
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


def _described(model: type[models.Model], raw: dict, names: dict) -> str:
    """Whose or which row it is, in words: "account Anna", "pay details of Anna"."""
    fields = raw["fields"]
    if model is User:
        return _("account %(name)s") % {"name": shown(fields.get("name"))}
    if model is PayDetails:
        return _("pay details of %(name)s") % {
            "name": shown(names.get(str(fields.get("user")), fields.get("user")))
        }
    if model is Group:
        return _("group %(name)s") % {"name": shown(fields.get("name"))}
    if model is Seat:
        return _("seat %(name)s") % {"name": shown(fields.get("name"))}
    if model is Season:
        return _("season %(name)s") % {"name": shown(fields.get("name"))}
    return _("%(table)s with key %(key)s") % {
        "table": model._meta.model_name,
        "key": shown(raw.get("pk")),
    }


def shown(value: object, longest: int = 60) -> str:
    """``value`` as a refusal may print it: cut short, and any character that hides
    what it is (a right-to-left override, an escape) written as its code instead.

    >>> shown("Anna\u202eseirV\n")
    'Anna<U+202E>seirV<U+000A>'
    """
    text = str(value)
    text = text if len(text) <= longest else text[: longest - 1] + "…"
    return "".join(
        ch
        if ch == " " or (ch.isprintable() and not has_hidden_characters(ch))
        else f"<U+{ord(ch):04X}>"
        for ch in text
    )
