"""Exports: a night and a whole group, as CSV and JSON, with every round and entry."""

import csv
import io
import json
from datetime import datetime

import pytest
from django.urls import reverse

from scorekeeper.models import Night, User, parse_board
from scorekeeper.reads.exports import CSV_COLUMNS
from scorekeeper.services.boards import record_board
from tests.helpers import enter, finish, play


@pytest.fixture
def night(make_night):
    """Anna deals round 1 and makes Fantasyland; the guest Gus is entered by Anna."""
    night = make_night(("Anna", "Bram"), guests=("Gus",))
    play(
        night,
        {"Anna": 7, "Bram": -3, "Gus": -4},
        {"Anna": 0, "Bram": 2, "Gus": -2},
        claims={0: {"Anna": "qq+"}},
    )
    return finish(night)


def get(client, name: str, *args) -> tuple:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    assert response.streaming  # sent as it is made
    return response, b"".join(response.streaming_content).decode()


def test_a_night_as_csv_has_one_row_per_entry_with_its_round(night, login):
    client = login("Bram")
    response, body = get(client, "night_export", night.pk, "csv")

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="ofc-night-')
    rows = list(csv.DictReader(io.StringIO(body)))
    assert list(rows[0]) == CSV_COLUMNS
    assert [(r["round"], r["dealer"], r["seat"], r["points"], r["entered_by"]) for r in rows] == [
        ("1", "Anna", "Anna", "7", "Anna"),
        ("1", "Anna", "Bram", "-3", "Bram"),
        ("1", "Anna", "Gus", "-4", "Anna"),
        ("2", "Anna", "Anna", "0", "Anna"),  # the button holds for Anna's Fantasyland hand
        ("2", "Anna", "Bram", "2", "Bram"),
        ("2", "Anna", "Gus", "-2", "Anna"),
    ]
    assert [r["fantasyland_made"] for r in rows] == ["qq+", "", "", "", "", ""]
    assert {r["night"] for r in rows} == {str(night.pk)}
    assert {(r["game"], r["point_cents"], r["currency"]) for r in rows} == {
        ("standard", "10", "EUR")
    }
    recorded = {round_.number: round_.recorded_at for round_ in night.rounds.all()}
    assert datetime.fromisoformat(rows[0]["recorded_at"]) == recorded[1]
    assert datetime.fromisoformat(rows[5]["recorded_at"]) == recorded[2]


def test_a_night_as_json_has_its_seats_rounds_and_entries(night, login):
    client = login("Anna")
    response, body = get(client, "night_export", night.pk, "json")

    assert response["Content-Type"] == "application/json; charset=utf-8"
    data = json.loads(body)
    assert data["group"]["name"] == "Friday OFC"
    [exported] = data["nights"]
    assert exported["id"] == night.pk
    assert (exported["game"], exported["point_cents"], exported["currency"]) == (
        "standard",
        10,
        "EUR",
    )
    assert datetime.fromisoformat(exported["ended_at"]) == night.ended_at
    assert [(s["name"], s["guest"], s["points"]) for s in exported["seats"]] == [
        ("Anna", False, 7),
        ("Bram", False, -1),
        ("Gus", True, -6),
    ]
    first = exported["rounds"][0]
    assert (first["number"], first["dealer"]) == (1, "Anna")
    assert first["entries"][0] == {
        "seat": "Anna",
        "points": 7,
        "entered_by": "Anna",
        "fantasyland_made": "qq+",
        "fantasyland_stayed": False,
        "board": None,
    }
    assert [e["points"] for r in exported["rounds"] for e in r["entries"]] == [7, -3, -4, 0, 2, -2]


def test_a_round_that_has_not_gone_through_is_not_exported(make_night, login):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 5, "Bram": -5})
    enter(night, "Anna", 3)  # round 2 is half entered
    _, body = get(login("Anna"), "night_export", night.pk, "json")
    [exported] = json.loads(body)["nights"]
    assert [r["number"] for r in exported["rounds"]] == [1]
    assert exported["ended_at"] is None


def test_a_whole_group_exports_every_night_oldest_first(night, make_night, login):
    second = make_night(("Anna", "Bram"), point_cents=25, group=night.group)
    play(second, {"Anna": -1, "Bram": 1})
    client = login("Anna")

    _, body = get(client, "group_export", night.group.pk, "json")
    nights = json.loads(body)["nights"]
    assert [(n["id"], n["point_cents"], len(n["rounds"])) for n in nights] == [
        (night.pk, 10, 2),
        (second.pk, 25, 1),
    ]

    response, body = get(client, "group_export", night.group.pk, "csv")
    assert (
        response["Content-Disposition"] == f'attachment; filename="ofc-group-{night.group.pk}.csv"'
    )
    rows = list(csv.DictReader(io.StringIO(body)))
    assert len(rows) == 6 + 2
    assert [(r["night"], r["seat"], r["points"]) for r in rows[-2:]] == [
        (str(second.pk), "Anna", "-1"),
        (str(second.pk), "Bram", "1"),
    ]


def test_an_unknown_format_is_404(night, login):
    client = login("Anna")
    assert client.get(reverse("night_export", args=[night.pk, "xlsx"])).status_code == 404
    assert client.get(reverse("group_export", args=[night.group.pk, "pdf"])).status_code == 404


@pytest.mark.database
@pytest.mark.parametrize("count", [1, 4])
def test_the_group_export_takes_the_same_queries_however_many_nights(
    make_night, login, django_assert_num_queries, count
):
    night = make_night(("Anna", "Bram"))
    for _ in range(count):
        play(night, {"Anna": 2, "Bram": -2}, {"Anna": -1, "Bram": 1})
        finish(night)
        night = make_night(("Anna", "Bram"), group=night.group)
    client = login("Anna")
    # The session, the user, the group; nights, their seats
    # (with their stored totals), rounds and entries, then the empty batch that ends
    # the rounds.
    with django_assert_num_queries(8):
        response = client.get(reverse("group_export", args=[night.group.pk, "csv"]))
        b"".join(response.streaming_content)
    assert Night.objects.count() == count + 1


def set_boards(night: Night, boards: dict[str, dict[str, str]]) -> None:
    """Each player sets their board for the first round."""
    for name, rows in boards.items():
        record_board(
            night=night,
            round_number=1,
            seat=night.seats.get(name=name),
            board=parse_board(rows),
            entered_by=User.objects.get(name=name),
        )


def test_the_csv_has_each_rows_cards_and_nothing_for_a_typed_total(make_night, login):
    night = make_night(("Anna", "Bram"), game="jokers")
    boards = {
        "Anna": {"top": "Qs Qd JK", "middle": "2c 3c 4c 5c 6c", "bottom": "Ah Ad As JK 7h"},
        "Bram": {"top": "Kc Kd 7s", "middle": "Ks Kh 9c 6d 2s", "bottom": "Ts Td 4s 4h Js"},
    }
    set_boards(night, boards)
    play(night, {"Anna": 4, "Bram": -4})
    _, body = get(login("Anna"), "night_export", night.pk, "csv")
    rows = list(csv.DictReader(io.StringIO(body)))
    assert list(rows[0])[-3:] == ["top", "middle", "bottom"]
    assert [(r["round"], r["seat"], r["top"], r["middle"], r["bottom"]) for r in rows] == [
        ("1", "Anna", "Qs Qd JK", "2c 3c 4c 5c 6c", "Ah Ad As JK 7h"),
        ("1", "Bram", "Kc Kd 7s", "Ks Kh 9c 6d 2s", "Ts Td 4s 4h Js"),
        ("2", "Anna", "", "", ""),
        ("2", "Bram", "", "", ""),
    ]


def test_a_long_night_is_exported_in_batches_of_rounds_with_every_round_once(login, make_night):
    from scorekeeper.reads import exports
    from tests.helpers import rounds_of

    night = make_night()
    play(night, *rounds_of(8))
    client = login("Anna")
    batch, exports.ROUND_BATCH = exports.ROUND_BATCH, 3
    try:
        _, csv_body = get(client, "night_export", night.pk, "csv")
        _, json_body = get(client, "night_export", night.pk, "json")
    finally:
        exports.ROUND_BATCH = batch
    rows = list(csv.DictReader(io.StringIO(csv_body)))
    assert [int(row["round"]) for row in rows] == [n for n in range(1, 9) for _ in range(3)]
    [exported] = json.loads(json_body)["nights"]
    assert [r["number"] for r in exported["rounds"]] == list(range(1, 9))
    assert {seat["name"]: seat["points"] for seat in exported["seats"]} == {
        "Anna": 15,
        "Bram": -3,
        "Chris": -12,
    }


def test_the_json_writes_a_board_top_middle_bottom_whatever_order_the_database_keeps(
    make_night, login
):
    # PostgreSQL's jsonb gives a board's keys back shortest first (top, bottom, middle).
    night = make_night(("Anna", "Bram"))
    boards = {
        "Anna": {"top": "2c 3d 4h", "middle": "Qs Qd 5c 5d 9s", "bottom": "Ah Jh 8h 6h 3h"},
        "Bram": {"top": "Kc Kd 7s", "middle": "Ks Kh 9c 6d 2s", "bottom": "Ts Td 4s 5h Js"},
    }
    set_boards(night, boards)
    for entry in night.rounds.get(number=1).entries.all():
        entry.board = dict(reversed(entry.board.items()))  # as a database may keep it
        entry.save(update_fields=["board"])
    _, body = get(login("Anna"), "night_export", night.pk, "json")
    board = json.loads(body)["nights"][0]["rounds"][0]["entries"][0]["board"]
    assert list(board) == ["top", "middle", "bottom"]
    assert board["middle"] == ["Qs", "Qd", "5c", "5d", "9s"]
