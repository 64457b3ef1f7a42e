"""No file can hold the server: each of these, all under the 1 MB limit, is answered
within 2 s with a page that says in words what is wrong, and while one is read the
thread beside it (another phone's save) is never held up for long."""

import pytest
from django.urls import reverse

from scorekeeper.services.imports import game_names
from scorekeeper.table.spreadsheet.limits import MAX_BYTES
from scorekeeper.table.spreadsheet.reading import read_sheet
from tests.helpers import answered_in_time, make_group
from tests.views.test_import import csv_file

HEADER = b"date,name,points\n"

HOSTILE = {
    # csv.Sniffer's expressions took minutes over this first line, holding the GIL.
    "quadratic first line": b'a,"' * ((MAX_BYTES - 10) // 3),
    "a 200 KB cell": HEADER + b'2024-03-07,"' + b"x" * 200_000 + b'",3\n',
    "a quote never closed": HEADER + b'2024-03-07,"Anna\n' * 20_000,
    "NUL bytes": HEADER + b"2024-03-07,An\x00na,3\n2024-03-07,Bram,-3\n" + b"\x00" * 300_000,
    "a million empty lines": b"\n" * (MAX_BYTES - 1),
    "mixed encodings": HEADER
    + "2024-03-07,Zoë,3\n".encode()
    + "2024-03-07,Zoë,-3\n".encode("cp1252"),
    "a header only": HEADER,
    "long lines of commas": HEADER + (b"," * 1_900 + b"\n") * 500,
}

WORDS = (
    "cannot be read as CSV",
    "longer than",
    "more than one import takes",
    "is not text",
    "columns are not all there",
    "is not a name the app takes",
    "has no nights",
    "is empty",
    "not a date",
    "nothing in its",
    # A machine busy enough that reading it runs past its 1.5 s is told so, in words.
    "took too long to read",
)


@pytest.mark.timed
@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_file_is_answered_in_words_within_two_seconds(name, client, login, db):
    data = HOSTILE[name]
    assert len(data) < MAX_BYTES
    group = make_group()
    login("Anna")
    answers = []

    def post() -> None:
        url = reverse("group_import", args=[group.pk])
        answers.append(client.post(url, {"file": csv_file(data)}))

    took, pause = answered_in_time(post)
    page = answers[0].content.decode()
    assert answers[0].status_code == 200
    assert any(words in page for words in WORDS), page[-3000:]
    assert took < 2.0, f"{name}: {took:.2f} s"
    # The reading never holds the interpreter from the other threads for long. A busy
    # machine's scheduler can stop a thread that long once (a fresh-clone run saw
    # 0.213 s); a reading that holds the interpreter does it every time, so it is read
    # once more before failing.
    if pause >= 0.2:
        pause = min(pause, answered_in_time(post)[1])
    assert pause < 0.2, f"{name}: another thread waited {pause:.3f} s"


def test_the_quadratic_first_line_is_read_at_once():
    # The old reader sniffed it for minutes: it is read as one long line, refused.
    sheet = read_sheet(
        HOSTILE["quadratic first line"], currency="EUR", point_cents=10, games=game_names()
    )
    assert [problem.kind.value for problem in sheet.problems] == ["line_too_long"]
