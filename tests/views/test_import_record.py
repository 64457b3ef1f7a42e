"""An import is on the record: its nights say who brought them in and when (on the
night's page and in each member's nights), the group's record lists it, and whoever
imported it may take the whole import back within a day, in one transaction, itself
on the record; anyone else, or later, is refused in words and nothing changes."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scorekeeper.models import Change, Entry, Night, Payment, Round, Seat, User
from scorekeeper.reads.owed import owed_across_nights
from scorekeeper.services.errors import Refused
from scorekeeper.services.import_take_back import take_back_import
from scorekeeper.services.imports import game_names, import_nights
from scorekeeper.services.payments import pay_owed
from scorekeeper.table.people import person_key
from scorekeeper.table.spreadsheet.reading import read_sheet
from tests.helpers import make_group, make_night, play_round
from tests.views.test_import import confirm, upload

SHEET = b"""date,name,points
2024-03-07,Anna,12
2024-03-07,Bram,-12
2024-03-14,Anna,-4
2024-03-14,Bram,4
"""


@pytest.fixture
def group(db):
    return make_group(members=("Anna", "Bram"))


def imported(client, login, group) -> str:
    """Anna imports the sheet through the page; the import's fingerprint."""
    login("Anna")
    answer = confirm(client, group, upload(client, group, SHEET))
    assert answer.status_code == 302
    return Change.objects.get(kind=Change.Kind.NIGHTS_IMPORTED).values["preview"]


def rows() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Night, Seat, Round, Entry, Payment))


def test_an_imported_night_says_who_brought_it_in_and_when(client, login, group):
    imported(client, login, group)
    night = Night.objects.filter(group=group).latest("started_at")
    today = timezone.localdate()

    page = client.get(reverse("night_detail", args=[night.pk])).content.decode()
    assert f"Imported by Anna on {today:%b} {today.day}, {today.year}." in page

    bram = User.objects.get(name="Bram")
    history = client.get(reverse("player_history", args=[group.pk, bram.pk])).content.decode()
    assert history.count(f"imported by Anna on {today:%b} {today.day}, {today.year}") == 2


def test_a_night_played_in_the_app_says_nothing_of_an_import(client, login, group):
    night = make_night(("Anna", "Bram"), group=group)
    login("Anna")
    assert (
        "Imported by" not in client.get(reverse("night_detail", args=[night.pk])).content.decode()
    )


def test_the_group_record_lists_the_import_with_a_button_for_whoever_made_it(client, login, group):
    imported(client, login, group)
    record = client.get(reverse("group_changes", args=[group.pk])).content.decode()
    assert "Anna brought in 2 past nights from a file." in record
    assert 'data-testid="take-back-import"' in record

    login("Bram")
    record = client.get(reverse("group_changes", args=[group.pk])).content.decode()
    assert "Anna brought in 2 past nights from a file." in record
    assert 'data-testid="take-back-import"' not in record


def test_whoever_imported_takes_the_whole_import_back_on_the_record(client, login, group):
    before = rows()
    mark = imported(client, login, group)
    assert rows() != before

    answer = client.post(reverse("import_take_back", args=[group.pk]), {"preview": mark})

    assert answer.status_code == 302
    assert rows() == before
    taken_back = Change.objects.get(kind=Change.Kind.IMPORT_TAKEN_BACK)
    assert (taken_back.by.name, taken_back.values["count"]) == ("Anna", 2)
    record = client.get(reverse("group_changes", args=[group.pk])).content.decode()
    assert "Anna took back an import: 2 nights are gone again." in record
    assert 'data-testid="take-back-import"' not in record  # once only
    again = client.post(reverse("import_take_back", args=[group.pk]), {"preview": mark})
    assert "These nights were taken back already." in client.get(again.url).content.decode()


def test_someone_else_is_refused_in_words_and_nothing_changes(client, login, group):
    mark = imported(client, login, group)
    before, changes = rows(), Change.objects.count()
    login("Bram")

    answer = client.post(
        reverse("import_take_back", args=[group.pk]), {"preview": mark}, follow=True
    )

    assert "Only the member who imported these nights can take them back." in (
        answer.content.decode()
    )
    assert (rows(), Change.objects.count()) == (before, changes)


def test_after_a_day_the_import_is_history(client, login, group):
    mark = imported(client, login, group)
    Change.objects.filter(kind=Change.Kind.NIGHTS_IMPORTED).update(
        at=timezone.now() - timedelta(days=1, minutes=1)
    )
    before = rows()
    anna = User.objects.get(name="Anna")

    with pytest.raises(Refused, match="an import can be taken back within a day"):
        take_back_import(group=group, preview=mark, by=anna)
    assert rows() == before
    record = client.get(reverse("group_changes", args=[group.pk])).content.decode()
    assert 'data-testid="take-back-import"' not in record


def test_a_payment_across_nights_of_the_import_holds_it(group):
    anna, bram = (User.objects.get(name=name) for name in ("Anna", "Bram"))
    sheet = read_sheet(SHEET, currency="EUR", point_cents=10, games=game_names())
    import_nights(group=group, nights=list(sheet.nights), by=anna, settled=False, preview="p1")
    night = Night.objects.filter(group=group).earliest("started_at")
    seats = {seat.name: seat for seat in night.seats.all()}
    pay_owed(
        group=group,
        payer=person_key(seats["Bram"]),
        payee=person_key(seats["Anna"]),
        cents=60,
        currency="EUR",
        fingerprint=owed_across_nights(group).fingerprint,
        marked_by=bram,
    )
    before = rows()

    with pytest.raises(Refused, match="Take that payment back first"):
        take_back_import(group=group, preview="p1", by=anna)
    assert rows() == before


def test_only_the_one_import_goes(group):
    anna = User.objects.get(name="Anna")
    played = make_night(("Anna", "Bram"), group=group)
    play_round(played, {"Anna": 1, "Bram": -1})
    sheet = list(read_sheet(SHEET, currency="EUR", point_cents=10, games=game_names()).nights)
    import_nights(group=group, nights=sheet[:1], by=anna, settled=False, preview="first")
    import_nights(group=group, nights=sheet[1:], by=anna, settled=False, preview="second")

    assert take_back_import(group=group, preview="first", by=anna) == 1
    assert sorted(Night.objects.filter(group=group).values_list("imported_from", flat=True)) == [
        "",
        "second",
    ]
