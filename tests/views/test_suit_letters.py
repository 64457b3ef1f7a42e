"""Cards typed with the suit letters of the reader's language, or with the symbols,
and the hint beside the typed rows that says what each letter means."""

import html

import pytest
from django.urls import reverse
from django.utils import translation

from scorekeeper.forms.suits import as_engine_notation, own_letters
from scorekeeper.models import Entry, parse_board


@pytest.mark.parametrize(
    ("language", "typed", "read"),
    [
        ("en", "Q♥ 10♦ k♣ A♠", "Qh 10d kc As"),  # the symbols, in every language
        ("en", "Qr Kk", "Qr Kk"),  # English has no r or k suit: left to be refused
        ("nl", "Qr 10r Kk ah Jc", "Qd 10d Kc ah Jc"),  # ruiten, klaveren; h and c still
        ("nl", "JK jk", "JK jk"),  # the joker stays the joker
        ("de", "Ap 10p Ah", "As 10s Ah"),  # Pik; Karo and Kreuz would both be k
        ("de", "Ak", "Ak"),
        ("zh-hans", "Q♥ Qh", "Qh Qh"),
    ],
)
def test_each_language_reads_its_own_suit_letters_where_they_cannot_be_misread(
    language, typed, read
):
    with translation.override(language):
        assert as_engine_notation(typed) == read


@pytest.mark.parametrize("language", ["en", "nl", "de", "zh-hans"])
def test_the_hint_names_every_suit_letter_the_language_takes(language, login, make_night):
    night = make_night(("Anna", "Bram"))
    client = login("Anna")
    seat = night.seats.get(name="Anna")
    url = reverse("board_entry", args=[night.pk, 1, seat.pk])
    body = html.unescape(client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode())
    hint = body.split('class="suit-letters">', 1)[1].split("</span>", 1)[0]
    with translation.override(language):
        letters = {"h", "d", "c", "s", *own_letters()}
    for letter in letters:
        assert f"<code>{letter}</code>" in hint, (language, letter, hint)
    for symbol in "♥♦♣♠":
        assert symbol in hint


def test_a_dutch_phone_saves_a_board_typed_with_dutch_suits(login, make_night):
    night = make_night(("Anna", "Bram"))
    client = login("Anna")
    seat = night.seats.get(name="Anna")
    data = {
        "round": 1,
        "seat": seat.pk,
        "top": "Qh Qk 3r",
        "middle": "Ts Js Qr Kk Ah",
        "bottom": "7r 7k 7s 2h 2s",
    }
    url = reverse("board_entry", args=[night.pk, 1, seat.pk])
    client.post(url, data, HTTP_ACCEPT_LANGUAGE="nl")
    board = parse_board(Entry.objects.get(seat=seat).board)
    assert board["top"] == ["Qh", "Qc", "3d"]
    assert board["bottom"] == ["7d", "7c", "7s", "2h", "2s"]
