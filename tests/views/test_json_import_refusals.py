"""A JSON file that is not the app's export as it writes it (broken, of another shape,
with numbers too big to read or out of range, nested without end, values of the wrong
type) is answered in words within 2 s on the import page, and nothing is imported."""

import json
import time

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.models import Change, Night
from scorekeeper.services.nights import end_night
from scorekeeper.table.spreadsheet.limits import MAX_BYTES
from tests.helpers import (
    answered_in_time,
    body_text,
    log_in,
    make_group,
    make_night,
    play_round,
    set_cards,
)
from tests.views.test_import import confirm, upload


@pytest.fixture
def export(db) -> dict:
    """The JSON export of a group with one night: a round of totals, one of cards."""
    group = make_group("Played", members=("Anna", "Bram"))
    night = make_night(("Anna", "Bram"), group=group)
    play_round(night, {"Anna": 3, "Bram": -3})
    set_cards(night, "Anna", "2c 3d 4h", "5s 6c 7d 8h 9s", "Tc Jd Qh Ks Ac")
    set_cards(night, "Bram", "2d 3h 4s", "5c 6d 7h 8s 9c", "Td Jh Qs Kc Ad")
    end_night(night=Night.objects.get(pk=night.pk), by=night.started_by)
    client = log_in(Client(), "Anna")
    return json.loads(body_text(client.get(reverse("group_export", args=[group.pk, "json"]))))


def _set(path: str, value):
    """A change to the export: ``value`` put at ``path`` (keys and list indexes by dots)."""

    def change(document: dict) -> bytes:
        *parents, last = [int(key) if key.isdigit() else key for key in path.split(".")]
        place = document
        for key in parents:
            place = place[key]
        place[last] = value
        return json.dumps(document).encode()

    return change


BROKEN = {
    # Not JSON at all, or JSON Python cannot read without a limit of its own.
    "cut short": (lambda d: json.dumps(d).encode()[:-40], "cannot be read as JSON"),
    "nested without end": (lambda d: b'{"nights": ' + b"[" * 400_000, "cannot be read as JSON"),
    "a number of 5000 digits": (
        lambda d: json.dumps(d).encode().replace(b'"points": 3', b'"points": ' + b"9" * 5000),
        "cannot be read as JSON",
    ),
    "NaN": (lambda d: json.dumps(d).encode().replace(b'"points": 3', b'"points": NaN'), "JSON"),
    "not UTF-8": (lambda d: b'{"format": "\xff\xfe"}', "cannot be read as JSON"),
    # JSON, but not the export's shape or types.
    "another format": (_set("format", "backup"), "format is not what the export writes"),
    "nights not a list": (_set("nights", {"0": {}}), "nights is not what"),
    "a huge stake": (_set("nights.0.point_cents", 10**30), "nights[0].point_cents"),
    "points as text": (_set("nights.0.rounds.0.entries.0.points", "3"), ".points is not"),
    "points out of range": (_set("nights.0.rounds.0.entries.0.points", 5000), ".points is not"),
    "a float": (_set("nights.0.rounds.0.entries.0.points", 3.0), ".points is not"),
    "true for a number": (_set("nights.0.loss_cap_cents", True), "loss_cap_cents is not"),
    "a stay as text": (
        _set("nights.0.rounds.0.entries.0.fantasyland_stayed", "yes"),
        "fantasyland_stayed is not",
    ),
    "an unknown game": (_set("nights.0.game", "poker"), "nights[0].game is not"),
    "rules of another kind": (_set("nights.0.rules", {"stay_limit": "x"}), "rules is not"),
    "a card that is none": (
        _set("nights.0.rounds.1.entries.0.board.top", ["2c", "2x", "4h"]),
        "board is not",
    ),
    "a seat never there": (_set("nights.0.rounds.0.entries.0.seat", "Zed"), ".seat is not"),
    "a name with a control character": (
        _set("nights.0.seats.0.name", "An\u202ena"),
        "seats[0].name is not",
    ),
    "a date without its zone": (_set("nights.0.started_at", "2024-03-07T20:00:00"), "started_at"),
    "a round that does not add up": (
        _set("nights.0.rounds.0.entries.0.points", 4),
        "adds up to +1 points, not zero",
    ),
}


@pytest.mark.timed
@pytest.mark.parametrize("name", BROKEN)
def test_a_broken_json_file_is_answered_in_words_and_imports_nothing(name, export, client):
    make, words = BROKEN[name]
    data = make(export)
    assert len(data) < MAX_BYTES
    group = make_group("Other", members=("Anna",))
    log_in(client, "Anna")
    nights, changes = Night.objects.count(), Change.objects.count()

    started = time.perf_counter()
    response = upload(client, group, data)
    took = time.perf_counter() - started

    assert took < 2, f"{name}: {took:.2f} s"
    assert response.status_code == 200
    assert "confirm" not in response.context
    problems = response.context["problems"]
    assert len(problems) == 1 and words in problems[0], problems
    assert "What is wrong with the file" in response.content.decode()
    assert (Night.objects.count(), Change.objects.count()) == (nights, changes)


@pytest.mark.timed
def test_a_file_near_the_limit_broken_at_its_end_holds_no_other_phone(export, client):
    """Every night read before the last one's wrong value: the longest a file is read,
    and meanwhile a thread beside it (another phone's save) waits little."""
    night = export["nights"][0]
    text = json.dumps(night)
    export["nights"] = [json.loads(text) for _ in range(MAX_BYTES // len(text) - 1)]
    data = _set(f"nights.{len(export['nights']) - 1}.currency", "EURO")(export)
    assert MAX_BYTES * 0.9 < len(data) < MAX_BYTES
    group = make_group("Other", members=("Anna",))
    log_in(client, "Anna")
    answers = []

    took, pause = answered_in_time(lambda: answers.append(upload(client, group, data)))

    assert took < 2 and pause < 0.2, (took, pause)
    (problem,) = answers[0].context["problems"]
    # Read to its end, its last night's currency found wrong; on a machine too busy to
    # read it within its time, stopped and said so (both in words, nothing imported).
    found = f"nights[{len(export['nights']) - 1}].currency is not" in problem
    assert found or problem.startswith("The file took too long to read"), problem
    assert not Night.objects.filter(group=group).exists()


def test_the_export_as_it_was_is_taken_once(export, client):
    group = make_group("Other", members=("Anna",))
    log_in(client, "Anna")
    preview = upload(client, group, json.dumps(export).encode())
    assert preview.context["problems"] == [] and "confirm" in preview.context

    assert confirm(client, group, preview).status_code == 302
    again = confirm(client, group, preview)  # the same preview confirmed again
    assert "These nights were imported already" in again.content.decode()
    assert Night.objects.filter(group=group).count() == 1


def test_the_page_says_which_files_it_takes(db, client, login):
    group = make_group()
    login("Anna")
    page = client.get(reverse("group_import", args=[group.pk])).content.decode()
    assert "the app's own CSV export, a spreadsheet saved as CSV in that shape" in page
    assert "or the app's own JSON export" in page
