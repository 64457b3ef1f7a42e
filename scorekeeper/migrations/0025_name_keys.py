"""Accounts, seats and seasons keep their name's key (models/name_keys.py), and the
unique constraints hold the keys apart instead of the names in small letters: on
SQLite "Émile" and "émile" could be two accounts, and "Straße" and "STRASSE" could
be on any database.

Rows that were allowed before and are one name now (possible on SQLite) keep the
older row's name; each newer one gets a free name the way the sign-up suggests one
("émile B"), its seats following an account's new name, so that the constraints can
be put on (by 0026: PostgreSQL changes no table in the transaction that changed its
rows) and nobody's rows are lost.
"""

import unicodedata
from itertools import groupby
from operator import attrgetter

from django.db import migrations, models

# Frozen: scorekeeper.table.names.name_key and suggest_alternative as they were when
# this migration was written, copied here so that later changes to them never change
# what this migration stores, nor break it. Never import live code into this file;
# never edit this copy.
LETTERS = "BCDEFGHJKLMNPRSTVW"


def name_key(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()


def suggest_alternative(name: str, taken: set[str], longest: int) -> str:
    for letter in LETTERS:
        candidate = f"{name[: longest - 2]} {letter}"
        if name_key(candidate) not in taken:
            return candidate
    return f"{name[: longest - 3]} ZZ"


def _keyed(rows, longest: int) -> dict[int, str]:
    """Each row's key, the newer of two rows of one key renamed first (in ``rows``,
    oldest first, of one account list, one night or one group); the new names by pk."""
    taken = {name_key(row.name) for row in rows}
    seen: set[str] = set()
    renamed: dict[int, str] = {}
    for row in rows:
        key = name_key(row.name)
        if key in seen:
            row.name = renamed[row.pk] = suggest_alternative(row.name, taken, longest)
            key = name_key(row.name)
            taken.add(key)
        seen.add(key)
        row.name_key = key
    return renamed


def fill_name_keys(apps, schema_editor):
    User = apps.get_model("scorekeeper", "User")
    Seat = apps.get_model("scorekeeper", "Seat")
    Season = apps.get_model("scorekeeper", "Season")

    users = list(User.objects.only("pk", "name").order_by("pk"))
    renamed = _keyed(users, 30)
    User.objects.bulk_update(users, ["name", "name_key"], batch_size=500)
    for pk, name in renamed.items():
        Seat.objects.filter(user_id=pk).update(name=name)

    night_of = Seat.objects.order_by("night_id", "pk").only("pk", "name", "night_id")
    _fill_by(Seat, night_of, "night_id", 30)
    group_of = Season.objects.order_by("group_id", "pk").only("pk", "name", "group_id")
    _fill_by(Season, group_of, "group_id", 40)


def _fill_by(model, rows, within: str, longest: int) -> None:
    """The keys of ``rows`` (ordered by ``within``, then oldest first), held apart
    among the rows of each value of ``within`` (a night's seats, a group's seasons)."""
    pending: list = []
    for _place, together in groupby(rows.iterator(chunk_size=2000), key=attrgetter(within)):
        rows_here = list(together)
        _keyed(rows_here, longest)
        pending += rows_here
        if len(pending) >= 2000:
            model.objects.bulk_update(pending, ["name", "name_key"])
            pending = []
    model.objects.bulk_update(pending, ["name", "name_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0024_imported_nights"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=90),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="seat",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=90),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="season",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=120),
            preserve_default=False,
        ),
        migrations.RunPython(fill_name_keys, migrations.RunPython.noop),
    ]
