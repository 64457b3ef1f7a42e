"""The Import past nights page: a file is previewed (its nights, or each line that does
not add up, by number), imported whole or not at all, and the app's own export comes
back as the same standings."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scorekeeper.forms.imports import PROBLEM_MESSAGES
from scorekeeper.models import Group, Night, Seat
from scorekeeper.reads.history import group_table
from scorekeeper.services.nights import end_night
from scorekeeper.services.rounds import record_entry
from scorekeeper.table.spreadsheet.limits import MAX_BYTES, MAX_LINES
from scorekeeper.table.spreadsheet.sheet import Kind
from tests.helpers import make_group

DATA = Path(__file__).resolve().parents[1] / "data" / "spreadsheet"


def csv_file(data: bytes, name: str = "nights.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="text/csv")


@pytest.fixture
def group(db):
    return make_group(members=("Anna", "Bram", "Chris"))


def upload(client, group: Group, data: bytes):
    return client.post(reverse("group_import", args=[group.pk]), {"file": csv_file(data)})


def confirm(client, group: Group, preview, *, settled: bool = False):
    token = preview.context["confirm"]["nights"].value()
    data = {"nights": token, **({"settled": "on"} if settled else {})}
    return client.post(reverse("group_import", args=[group.pk]), data)


def test_the_group_page_links_the_page_which_says_what_it_reads(client, login, group):
    login("Anna")
    page = client.get(reverse("group_detail", args=[group.pk])).content.decode()
    assert reverse("group_import", args=[group.pk]) in page
    help_text = client.get(reverse("group_import", args=[group.pk])).content.decode()
    assert "7-3-2024, 7.3.2024 or 7/3/2024" in help_text
    assert "month first is not read" in help_text


def test_three_years_with_bad_lines_are_refused_by_line_and_nothing_is_made(client, login, group):
    login("Anna")
    data = (DATA / "three_years.csv").read_bytes()
    lines = data.decode().splitlines()
    bad_date = next(number for number, line in enumerate(lines, 1) if "31-02-2023" in line)

    response = upload(client, group, data)

    assert response.status_code == 200 and "confirm" not in response.context
    problems = response.context["problems"]
    assert len(problems) == 3
    assert problems[1] == (
        f"Line {bad_date}: “31-02-2023” is not a date this page reads. Write 2024-03-07, "
        "or the day first: 7-3-2024, 7.3.2024 or 7/3/2024."
    )
    assert problems[0].startswith("Line 180: the points of the night of ")
    assert problems[0].endswith("add up to +1, not zero.")
    assert problems[2] == "Line 402: Dirk is in the same night twice."
    assert "Nothing is imported while a line does not add up" in response.content.decode()
    assert not Night.objects.filter(group=group).exists()


def test_three_years_without_bad_lines_import_whole(client, login, group):
    login("Anna")
    preview = upload(client, group, (DATA / "three_years_good.csv").read_bytes())
    assert len(preview.context["nights"]) == 150
    assert preview.context["problems"] == []
    # "Bram", "bram" and "Bram " are the member Bram; Eva, however spelled, one guest.
    players = {p["name"]: p["member"] for n in preview.context["nights"] for p in n["players"]}
    assert players["Bram"] is True and players["Chris"] is True
    assert sum(name.lower() == "eva" for name in players) == 1 and players["eva"] is False

    response = confirm(client, group, preview, settled=True)

    assert response.status_code == 302 and response.url == reverse("group_table", args=[group.pk])
    assert Night.objects.filter(group=group, ended_at__isnull=False).count() == 150
    assert set(Seat.objects.filter(night__group=group).values_list("unpaid_cents", flat=True)) == {
        0
    }
    rows = {row.name: row for row in group_table(group)[0].rows}
    assert len(rows) == 9 and rows["Bram"].user is not None
    page = client.get(response.url).content.decode()
    assert "150 nights imported." in page


def test_a_token_that_was_changed_imports_nothing(client, login, group):
    login("Anna")
    preview = upload(client, group, (DATA / "three_years_good.csv").read_bytes())
    token = preview.context["confirm"]["nights"].value()
    response = client.post(reverse("group_import", args=[group.pk]), {"nights": token[:-2] + "xx"})
    assert "This preview is too old or was changed." in response.content.decode()
    assert not Night.objects.filter(group=group).exists()


def test_a_token_of_another_group_imports_nothing_there(client, login, group):
    login("Anna")
    other = make_group(name="Tuesday OFC", members=("Anna",))
    preview = upload(client, group, (DATA / "three_years_good.csv").read_bytes())
    response = confirm(client, other, preview)
    assert "This preview is too old or was changed." in response.content.decode()
    assert not Night.objects.exists()


def play(night: Night, hands: list[tuple[int, ...]], fantasyland: str = "") -> None:
    seats = list(night.seats.order_by("position"))
    for number, hand in enumerate(hands, 1):
        for seat, points in zip(seats, hand, strict=True):
            claim = fantasyland if seat.position == 1 and number == 1 else ""
            record_entry(
                night=night,
                round_number=number,
                seat=seat,
                points=points,
                entered_by=seats[0].user,
                fantasyland_made=claim,
            )
    end_night(night=night, by=seats[0].user)


def test_the_apps_own_export_imports_back_as_the_same_standings(client, login, make_night):
    first = make_night(("Anna", "Bram", "Chris"), guests=("Gus",), point_cents=25)
    play(first, [(6, -2, -3, -1), (-4, 8, -2, -2), (1, 1, 1, -3)], fantasyland="qq+")
    group = first.group
    second = make_night(("Anna", "Bram"), group=group, point_cents=10)
    play(second, [(12, -12)])
    login("Anna")
    export = client.get(reverse("group_export", args=[group.pk, "csv"]))
    data = b"".join(export.streaming_content)
    empty = make_group(name="Copy", members=("Anna", "Bram", "Chris"))

    preview = upload(client, empty, data)
    assert preview.context["problems"] == []
    confirm(client, empty, preview)

    def standings(of: Group) -> list:
        return [
            (
                row.name,
                row.user,
                row.nights,
                row.rounds,
                row.fantasylands,
                row.points_by_stake,
                row.money,
            )
            for table in group_table(of)
            for row in table.rows
        ]

    assert standings(empty) == standings(group)
    assert [row[0] for row in standings(empty)] == ["Anna", "Bram", "Chris", "Gus"]


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (
            b"date,name,points\n" + b"x" * (MAX_BYTES - 17),
            "The file is too big: a file of 1 MB or more is not imported.",
        ),
        # Short lines: 100,000 of them stay under the 1 MB a file may have.
        (
            b"date,name,points\n" + b"1,A,0\n" * (MAX_LINES - 1),
            "The file has 100,000 lines or more, more than one import takes.",
        ),
    ],
    ids=["1 MB", "100,000 lines"],
)
def test_a_file_over_a_limit_is_refused_in_words_before_it_is_read(
    client, login, group, data, said
):
    login("Anna")
    response = upload(client, group, data)
    assert said in response.content.decode()
    assert "nights" not in response.context
    assert not Night.objects.filter(group=group).exists()


def test_a_member_of_another_group_gets_404(client, login, group):
    make_group(name="Other table", members=("Olga",))
    login("Olga")
    url = reverse("group_import", args=[group.pk])
    assert client.get(url).status_code == 404
    data = (DATA / "three_years_good.csv").read_bytes()
    assert client.post(url, {"file": csv_file(data)}).status_code == 404
    assert not Night.objects.exists()


def test_every_problem_a_file_can_have_has_its_sentence():
    # A kind of problem added without its words would fail the page with a KeyError.
    assert set(PROBLEM_MESSAGES) == set(Kind)
