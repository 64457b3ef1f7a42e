"""A whole site in one file and back: every account, group, membership, night,
seat, round (the one in progress too, with its Fantasyland), entry with its cards,
correction and payment, as rows with their own keys.

The file is JSON: ``{"format": "ofcboard-backup", "version": 1, "migration": ...,
"objects": [...]}``, the objects in the form of Django's serializers, times with
their microseconds (Django's own JSON fixtures round them to milliseconds).
Password hashes are in it: keep it as private as the database.

A backup made by an older version is restored through the migrations since
(:func:`at_this_version`). A restore stores no figure from the file that can be
worked out from its rows: each seat's money and each board's result are worked out again
(:func:`scorekeeper.services.rebuild.rebuild_stored_figures`), whichever version
made the backup.
"""

import json
import os
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

from django.apps import apps
from django.core import serializers
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder

from scorekeeper.copies.import_checks.records import check_file, check_tables
from scorekeeper.copies.import_checks.refusal import BackupError, written_whole
from scorekeeper.services.rebuild import rebuild_stored_figures

FORMAT = "ofcboard-backup"
VERSION = 1
APP = "scorekeeper"


def app_models() -> list:
    # Declaration order (accounts, groups, nights, payments): every row comes after
    # those it points to, so a restore never waits on a missing key.
    return list(apps.get_app_config("scorekeeper").get_models())


def json_value(value: Any) -> str:
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def last_migration() -> str:
    applied = MigrationRecorder(connection).applied_migrations()
    return max((name for app, name in applied if app == "scorekeeper"), default="")


def write_backup(path: Path) -> dict[str, int]:
    """Write everything to ``path``; the count of rows per table.

    One transaction, so the file is one moment of the site while phones keep posting:
    on SQLite the transaction holds the write lock (writes wait the second or so it
    takes), on PostgreSQL it reads one snapshot (REPEATABLE READ) and blocks nobody.
    """
    counts: dict[str, int] = {}
    # Inside someone else's transaction (a test's), that one is the moment.
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql" and outermost:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        tables = [(model, model.objects.order_by("pk")) for model in app_models()]
        document = as_document(FORMAT, VERSION, tables, counts)
    write_document(path, document)
    return counts


def as_document(
    format: str, version: int, tables: list[tuple[Any, Any]], counts: dict[str, int]
) -> dict:
    """The rows of ``tables`` ((model, queryset) pairs) as a file of ``format``, counted
    per table in ``counts``. Call inside the transaction that makes it one moment."""
    objects: list[dict] = []
    for model, queryset in tables:
        rows = serializers.serialize("python", queryset)
        counts[model._meta.label] = len(rows)
        objects += rows
    return {"format": format, "version": version, "migration": last_migration(), "objects": objects}


def write_document(path: Path, document: dict) -> None:
    partial = path.with_name(path.name + ".partial")
    # Written beside, then renamed: a file cut short never looks like a good one.
    with os.fdopen(_create_private(partial), "w", encoding="utf-8") as file:
        json.dump(document, file, default=json_value, ensure_ascii=False)
    partial.replace(path)


def _create_private(path: Path) -> int:
    """A new file only this user can read from its first byte (password hashes go in
    it): made with mode 0600, never by opening one that is there already, which
    someone else may hold open or have made as a link elsewhere. One left by a backup
    cut short is removed first."""
    flags = os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        return os.open(path, flags, 0o600)
    except FileExistsError:
        path.unlink()
        return os.open(path, flags, 0o600)


def read_document(path: Path, format: str = FORMAT, version: int = VERSION) -> dict:
    """The file at ``path`` if it is one of ours of that ``format`` and ``version``."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise BackupError(f"{path} cannot be read as a backup: {error}") from None
    if not isinstance(document, dict) or document.get("format") != format:
        kind = "an OFC Board backup" if format == FORMAT else "a group copied by OFC Board"
        raise BackupError(f"{path} is not {kind}.")
    if document.get("version") != version:
        raise BackupError(f"{path} is of version {document.get('version')}.")
    return document


def restore_backup(path: Path) -> dict[str, int]:
    """Bring the backup at ``path`` back into this (migrated, empty) database, keys and
    all; the count of rows per table. Refused, changing nothing, when the database
    already has accounts or groups, or is older than the backup."""
    document = read_document(path)
    check_tables(document, app_models())  # before any of its rows is put in a table
    models = app_models()
    if any(model.objects.exists() for model in models):
        raise BackupError(
            "This database already has accounts or groups: restore into an empty one "
            "(a new database, or a new file with DATABASE_URL), after `manage.py migrate`."
        )
    if document["migration"] > last_migration():
        raise BackupError(
            f"The backup was made by a newer OFC Board (migration {document['migration']}); "
            "update this one first."
        )
    document = at_this_version(document)
    check_file(document, models)  # every row as if typed, before anything is written
    counts: dict[str, int] = {}
    with written_whole():
        for restored in serializers.deserialize("python", document["objects"]):
            restored.save()
            label = restored.object._meta.label
            counts[label] = counts.get(label, 0) + 1
        connection.check_constraints(table_names=[model._meta.db_table for model in models])
        # PostgreSQL's id sequences start after the restored keys, as new rows need.
        with connection.cursor() as cursor:
            for statement in connection.ops.sequence_reset_sql(no_style(), models):
                cursor.execute(statement)
        # The rows are at this version's schema (at_this_version): every stored figure
        # is worked out from them, so a backup made before seats stored their money
        # (migration 0012) or boards their result (0014) reads as it did, and nothing
        # stored in the file is trusted.
        rebuild_stored_figures()
    return counts


def at_this_version(document: dict) -> dict:
    """The backup ``document`` with its rows as this version's tables hold them.

    A backup made by an older version (an earlier ``migration``) is brought up the
    way its database would have been: its rows are loaded into this database's tables
    as they were at its migration (the tables are emptied back to it, which the
    restore's check that they hold nothing makes safe), the migrations since are run
    over them, and the rows are read back as this version writes them. Whatever
    happens, the tables end at this version and empty, as they were.
    """
    made_at = document["migration"]
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes(APP)
    if made_at == last_migration():
        return document
    if (APP, made_at) not in executor.loader.graph.nodes:
        raise BackupError(
            f"The backup was made at migration {made_at}, which this OFC Board does not know."
        )
    try:
        executor.migrate([(APP, made_at)])
        then = executor.loader.project_state([(APP, made_at)]).apps
        with transaction.atomic():
            _load_rows(document["objects"], then)
        MigrationExecutor(connection).migrate(latest)
        with transaction.atomic():
            tables = [(model, model.objects.order_by("pk")) for model in app_models()]
            upgraded = as_document(document["format"], document["version"], tables, {})
    finally:
        MigrationExecutor(connection).migrate(latest)
        for model in reversed(app_models()):
            model._base_manager.all().delete()
    return upgraded


def _load_rows(objects: list[dict], then: Any) -> None:
    """Serialized rows into the tables of the historical models ``then``, keys and all."""
    for item in objects:
        model = then.get_model(item["model"])
        row = model(pk=model._meta.pk.to_python(item["pk"]))
        many: dict[str, list] = {}
        for name, value in item["fields"].items():
            field = model._meta.get_field(name)
            if field.many_to_many:
                many[name] = value
            elif field.is_relation:
                setattr(row, field.attname, value)
            else:
                setattr(row, field.attname, field.to_python(value))
        row.save(force_insert=True)
        for name, value in many.items():
            getattr(row, name).set(value)
