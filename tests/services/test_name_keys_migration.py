"""Migrations 0025 and 0026 give every account, seat and season its name's key; rows the old
constraints let through that are one name now ("Straße" and "STRASSE" on any
database, "Émile" and "émile" on SQLite) keep the older one's name, and the newer one
gets a free name the way the sign-up suggests one."""

from datetime import date

import pytest

from scorekeeper.table.names import name_key
from tests.helpers import migrate_app

pytestmark = pytest.mark.database

BEFORE = ("scorekeeper", "0024_imported_nights")
AFTER = ("scorekeeper", "0026_name_key_constraints")


@pytest.mark.django_db(transaction=True)
def test_names_that_are_one_name_now_keep_the_older_and_free_the_newer():
    try:
        old = migrate_app(BEFORE)
        User = old.get_model("scorekeeper", "User")
        Group = old.get_model("scorekeeper", "Group")
        Night = old.get_model("scorekeeper", "Night")
        Seat = old.get_model("scorekeeper", "Seat")
        Season = old.get_model("scorekeeper", "Season")
        straße, strasse, _b = (
            User.objects.create(name=name, password="!")
            for name in ("Straße", "STRASSE", "Strasse B")
        )
        group = Group.objects.create(name="Friday OFC", invite_token="ABCDEFGH")
        night = Night.objects.create(
            group=group, started_by=straße, game="standard", point_cents=10, currency="EUR"
        )
        for position, (user, name) in enumerate(
            [(straße, "Straße"), (strasse, "STRASSE"), (None, "Große"), (None, "GROSSE")], 1
        ):
            Seat.objects.create(night=night, position=position, user=user, name=name)
        for month, name in enumerate(("Maß", "MASS"), 1):
            Season.objects.create(group=group, name=name, starts_on=date(2026, month, 1))

        new = migrate_app(AFTER)
        kept = {
            table: list(
                new.get_model("scorekeeper", table)
                .objects.order_by("pk")
                .values_list("name", "name_key")
            )
            for table in ("User", "Seat", "Season")
        }
    finally:
        migrate_app()
    assert [name for name, _key in kept["User"]] == ["Straße", "STRASSE C", "Strasse B"]
    assert [name for name, _key in kept["Seat"]] == ["Straße", "STRASSE C", "Große", "GROSSE B"]
    assert [name for name, _key in kept["Season"]] == ["Maß", "MASS B"]
    assert all(key == name_key(name) for rows in kept.values() for name, key in rows)
