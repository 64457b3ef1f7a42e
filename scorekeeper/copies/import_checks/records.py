"""Every record of a file checked as a record of its table: a table the file's kind
carries, a key of its own, rows it points at before it, each field as its column takes
it and the table's check constraints; then the table's own checks (:mod:`.as_typed`)."""

from collections.abc import Callable, Iterable
from typing import Any

from django.core import serializers
from django.core.exceptions import NON_FIELD_ERRORS, FieldDoesNotExist, ValidationError
from django.core.serializers.base import DeserializationError
from django.db import models
from django.db.models import CheckConstraint
from django.utils.translation import gettext as _

from scorekeeper.copies.import_checks.as_typed import ROW_CHECKS
from scorekeeper.copies.import_checks.refusal import BackupError, Problems, shown
from scorekeeper.models import Group, PayDetails, Seat, User
from scorekeeper.models.seasons import Season
from scorekeeper.table.names import name_key


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
    problems = Problems()
    objects = document.get("objects")
    if not isinstance(objects, list):
        problems.file(_("The file has no list of records."))
    else:
        check(objects, {model._meta.label_lower: model for model in tables}, problems)
    if problems.said:
        raise BackupError(problems.refusal())


def _check_tables(
    objects: list, allowed: dict[str, type[models.Model]], problems: Problems
) -> None:
    for number, raw in enumerate(objects, 1):
        _table_of(number, raw, allowed, problems)


def _table_of(
    number: int, raw: object, allowed: dict[str, type[models.Model]], problems: Problems
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


def _check_rows(objects: list, allowed: dict[str, type[models.Model]], problems: Problems) -> None:
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
    problems: Problems,
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


def _check_fields(number: int, row: str, instance: models.Model, problems: Problems) -> set[str]:
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
