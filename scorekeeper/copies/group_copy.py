"""One group, whole, out of one install and into another as a new group.

``write_group`` writes the group with everything of it (memberships, nights, seats,
rounds with the one in progress and its Fantasyland, entries with their cards,
corrections, payments of nights and of what was owed across them) and the accounts
those name, in the file format of :mod:`scorekeeper.copies.backup` with its own ``format``.
``import_group`` brings such a file into any database, beside what is there: every
row gets a new key and every reference follows it. Password hashes travel with the
accounts, so everyone logs in as before; an account whose name is taken here gets a
free one ("Anna B"), and the import says so. The group's own seasons come with it.

What belongs to the old install stays there: the invitation link (the copy gets a
new one), a big screen's shared link, and the keys phones sent their saves with.
"""

import secrets
from collections import defaultdict
from pathlib import Path
from typing import Any

from django.core import serializers
from django.db import connection, models, transaction

from scorekeeper.copies.backup import (
    BackupError,
    app_models,
    as_document,
    last_migration,
    read_document,
    write_document,
)
from scorekeeper.copies.import_checks.records import check_file
from scorekeeper.copies.import_checks.refusal import written_whole
from scorekeeper.models import (
    Entry,
    Group,
    Membership,
    Night,
    Phone,
    RetiredCode,
    Round,
    Seat,
    SignInCode,
    SignInNotice,
    User,
)
from scorekeeper.models.changes import Change
from scorekeeper.models.groups import new_invite_token
from scorekeeper.models.nights import RoundEdit
from scorekeeper.models.pay_details import PayDetails
from scorekeeper.models.payments import Payment, TabPart, TabPayment
from scorekeeper.models.seasons import Season
from scorekeeper.models.seat_draws import SeatDraw
from scorekeeper.services.rebuild import rebuild_stored_figures
from scorekeeper.table.names import suggest_alternative

FORMAT = "ofcboard-group"
VERSION = 1

# How each table's rows of one group are found (the accounts come from these).
OF_THE_GROUP: dict[type[models.Model], str] = {
    Group: "pk",
    Membership: "group",
    Night: "group",
    Seat: "night__group",
    Round: "night__group",
    Entry: "round__night__group",
    RoundEdit: "round__night__group",
    Payment: "night__group",
    TabPayment: "group",
    TabPart: "payment__group",
    SeatDraw: "night__group",
    Season: "group",
    # The group's record of changes is its history: it travels with it.
    Change: "group",
}

# An account's own rows, which no group owns: how someone likes to be paid stays with
# their account on this install and never travels with a group that they played in;
# nor do the phones signed in here, their sign-in codes and notices, or the codes a group took
# back here (the copy gets a code of its own).
NOT_OF_A_GROUP: set[type[models.Model]] = {
    User,
    PayDetails,
    Phone,
    SignInCode,
    SignInNotice,
    RetiredCode,
}


def _rows_of(group: Group) -> list[tuple[type[models.Model], models.QuerySet]]:
    rows = []
    for model in app_models():
        if model in NOT_OF_A_GROUP:
            continue
        if model not in OF_THE_GROUP:  # a table added later must say how it belongs
            raise BackupError(f"{model._meta.label} is not known to the group copy.")
        rows.append((model, model.objects.filter(**{OF_THE_GROUP[model]: group.pk}).order_by("pk")))
    return rows


def _accounts_named(rows: list[tuple[type[models.Model], models.QuerySet]]) -> models.QuerySet:
    """Every account a row of the group points to: members, players, who entered,
    changed, reopened, marked paid or started what."""
    ids: set[int] = set()
    for model, queryset in rows:
        for field in model._meta.concrete_fields:
            if field.is_relation and field.related_model is User:
                pointed = queryset.exclude(**{field.name: None})
                ids.update(pointed.values_list(field.attname, flat=True))
    return User.objects.filter(pk__in=ids).order_by("pk")


def write_group(path: Path, group_id: int) -> dict[str, int]:
    """Write group ``group_id`` and all of it to ``path`` (one transaction, one moment
    of it); the count of rows per table."""
    with transaction.atomic():
        group = Group.objects.filter(pk=group_id).first()
        if group is None:
            raise BackupError(f"There is no group {group_id}.")
        rows = _rows_of(group)
        counts: dict[str, int] = {}
        document = as_document(FORMAT, VERSION, [(User, _accounts_named(rows)), *rows], counts)
    write_document(path, document)
    return counts


class _Keys:
    """The new key of every row copied so far, by table and old key."""

    def __init__(self) -> None:
        self._new: dict[type[models.Model], dict[Any, Any]] = defaultdict(dict)

    def follow(self, row: models.Model) -> None:
        """Point ``row``'s references at the copies of what they pointed to."""
        for field in type(row)._meta.concrete_fields:
            if field.is_relation:
                old = getattr(row, field.attname)
                if old is not None:
                    setattr(row, field.attname, self._new[field.related_model][old])

    def remember(self, model: type[models.Model], old: Any, new: Any) -> None:
        self._new[model][old] = new

    def seat(self, old: Any) -> Any:
        return self._new[Seat][int(old)]


def import_group(path: Path) -> tuple[Group, dict[str, str], dict[str, int]]:
    """Bring the group written to ``path`` in as a new group: (the group, the accounts
    that got another name {old: new}, the count of rows per table)."""
    document = read_document(path, FORMAT, VERSION)
    if document["migration"] > last_migration():
        raise BackupError(
            f"The file was made by a newer OFC Board (migration {document['migration']}); "
            "update this one first."
        )
    check_file(document, [User, *OF_THE_GROUP])  # every row as if typed, before any is written
    keys, renamed, counts = _Keys(), {}, defaultdict(int)
    with written_whole():
        taken = set(User.objects.values_list("name_key", flat=True))
        group = None
        for restored in serializers.deserialize("python", document["objects"]):
            row = restored.object
            old = row.pk
            keys.follow(row)
            if isinstance(row, User) and row.name_key in taken:
                renamed[row.name] = row.name = suggest_alternative(row.name, taken)
            _leave_the_old_install_behind(row, keys)
            row.pk = None
            row.save(force_insert=True)
            if isinstance(row, User):
                taken.add(row.name_key)
            if isinstance(row, Group):
                group = row
            keys.remember(type(row), old, row.pk)
            counts[type(row)._meta.label] += 1
        if group is None:
            raise BackupError(f"{path} holds no group.")
        connection.check_constraints(table_names=[m._meta.db_table for m in app_models()])
        # Every stored figure worked out again from the copied rows, as a restore does.
        rebuild_stored_figures(Night.objects.filter(group=group).values_list("pk", flat=True))
    return group, renamed, dict(counts)


def _leave_the_old_install_behind(row: models.Model, keys: _Keys) -> None:
    if isinstance(row, Group):
        row.invite_token = new_invite_token()
    elif isinstance(row, Night):
        row.screen_token = None
    elif isinstance(row, Round):
        row.fantasyland = {str(keys.seat(seat)): value for seat, value in row.fantasyland.items()}
    elif isinstance(row, Entry):
        row.client_key, row.earlier_keys = "", []
    elif isinstance(row, TabPayment):
        # Its key finds a second tap on the same button; the copy's are its own.
        row.key = f"copy {secrets.token_hex(6)} {row.key}"[:200]
