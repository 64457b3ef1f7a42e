"""Every door that looks a name up asks for its key (models/name_keys.py), so a name
is the same name beyond ASCII capitals on SQLite too: "émile" is "Émile", and on
every database "STRASSE" is "Straße" (SQL's small letters keep the "ß")."""

from datetime import date

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from scorekeeper.forms.accounts import has_no_password
from scorekeeper.models import Seat, User
from scorekeeper.models.seasons import Season
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import NameTaken, sign_up
from scorekeeper.services.imports import game_names, import_nights
from scorekeeper.services.seasons import add_season
from scorekeeper.table.names import name_key
from scorekeeper.table.spreadsheet.reading import read_sheet
from tests.helpers import PASSWORD


def stored_name_keys() -> dict[str, list[tuple[str, str]]]:
    """Every account's, seat's and season's name with the key the database holds for
    it (read from the column, not worked out again); asserted to agree."""
    stored = {
        model.__name__: list(model.objects.order_by("pk").values_list("name", "name_key"))
        for model in (User, Seat, Season)
    }
    wrong = [row for rows in stored.values() for row in rows if row[1] != name_key(row[0])]
    assert wrong == []
    return stored


SAME_NAMES = [("Émile", "émile"), ("Straße", "STRASSE"), ("Σοφία", "ΣΟΦΊΑ")]


@pytest.mark.parametrize(("taken", "typed"), SAME_NAMES)
def test_signing_up_with_a_name_taken_in_other_capitals_is_refused(db, taken, typed):
    sign_up(name=taken, password=PASSWORD)
    with pytest.raises(NameTaken) as refused:
        sign_up(name=typed)
    assert str(refused.value) == (
        f'"{taken}" is already taken. Pick another name, such as "{taken} B".'
    )
    assert User.objects.count() == 1


def test_the_name_suggested_is_free_beyond_ascii_capitals(db):
    sign_up(name="Émile")
    sign_up(name="ÉMILE B")
    with pytest.raises(NameTaken) as refused:
        sign_up(name="émile")
    assert refused.value.suggestion == "Émile C"


@pytest.mark.parametrize(("taken", "typed"), SAME_NAMES)
def test_logging_in_in_other_capitals_signs_in_the_account(client, db, taken, typed):
    user = User.objects.create_user(name=taken, password=PASSWORD)
    client.post(reverse("login"), {"username": typed, "password": PASSWORD})
    assert client.session["_auth_user_id"] == str(user.pk)


def test_an_account_without_a_password_is_found_in_other_capitals(db):
    sign_up(name="Émile")
    assert has_no_password("émile")


@pytest.mark.parametrize(("taken", "typed"), [("Été", "ÉTÉ"), ("Straße", "STRASSE")])
def test_a_season_name_taken_in_other_capitals_is_refused(make_group, taken, typed):
    group = make_group(members=("Anna",))
    anna = User.objects.get(name="Anna")
    add_season(group=group, by=anna, name=taken, starts_on=date(2026, 6, 1))
    with pytest.raises(Refused) as refused:
        add_season(group=group, by=anna, name=typed, starts_on=date(2026, 9, 1))
    assert f"The group has a season called “{typed}” already." in str(refused.value)
    assert group.seasons.count() == 1


def test_the_key_is_worked_out_from_the_name_however_the_row_is_made(make_night):
    """A save, a bulk write (the import's) and a row made with a key of its own."""
    user = User(name="ＥＭＩＬＥ", name_key="someone else")
    assert user.name_key == "emile"
    night = make_night(("Anna", "Bram"), guests=("Straße",))
    data = "date,name,points\n2024-03-01,ÉMILE,5\n2024-03-01,Anna,-5\n".encode()
    sheet = read_sheet(data, currency="EUR", point_cents=10, games=game_names())
    import_nights(group=night.group, nights=list(sheet.nights), by=night.started_by, settled=False)
    stored = stored_name_keys()
    assert ("ÉMILE", "émile") in stored["Seat"] and ("Straße", "strasse") in stored["Seat"]


@pytest.mark.database
def test_the_database_holds_one_name_once_beyond_ascii_capitals(make_night):
    night = make_night(("Anna", "Émile"), guests=("Straße",))
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(name="ÉMILE")
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(night=night, position=8, name="STRASSE")
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(night=night, position=9, name="émile")
    Season.objects.create(group=night.group, name="Straße", starts_on=date(2026, 1, 1))
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(group=night.group, name="STRASSE", starts_on=date(2026, 2, 1))
