"""Every main page in Dutch, German and Chinese: no English text left outside a translation.

The pages are rendered with the same data in English, Dutch, German and Simplified
Chinese. A Chinese page may hold Latin letters only in names, cards and a few fixed
tokens; a Dutch or German page may not repeat an English text node, except the game's
own terms that Dutch and German players say in English too. Text nodes and the
attributes a person reads or hears (title, aria-label, placeholder, data-confirm) are
both checked.
"""

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.models import Night
from tests.helpers import enter, finish, log_in, make_group, make_night, play, set_cards
from tests.languages import DUTCH_TOO, EVERYWHERE, GERMAN_TOO, NAMES, leftover, texts_of


@pytest.fixture
def table(db):
    """A group with finished nights of cards and totals, a running night whose sum is
    off and whose round has a fouled board, and the pages that show them all."""
    group = make_group(members=("Anna", "Bram", "Chris", "Dana"))
    first = make_night(("Anna", "Bram", "Chris"), game="pineapple", group=group)
    set_cards(first, "Anna", "2c 3d 4h", "Qs Qd 5c 5d 9s", "Ah Jh 8h 6h 3h")
    set_cards(first, "Bram", "Kc Kd 7s", "As Ad 9c 6d 2s", "Ts Td 4s 4c Js")
    set_cards(first, "Chris", "Qc Qh 2d", "7c 8d 9h Jd 2h", "6s 6c Kh Ks 3s")
    play(first, {"Anna": 10, "Bram": -4, "Chris": -6})
    finish(first)
    second = make_night(("Anna", "Bram"), guests=("Gus",), group=group, loss_cap_cents=100)
    play(second, {"Anna": 30, "Bram": -4, "Gus": -26})
    finish(second)
    running = make_night(("Anna", "Bram", "Chris"), game="progressive", group=group)
    play(running, {"Anna": 5, "Bram": -2, "Chris": -3}, {"Anna": 1, "Bram": 1, "Chris": -2})
    set_cards(running, "Anna", "Kc Kd Ac", "Ks Kh Qd Jh 9s", "2h 3h 4h 5h 6h", points=12)
    enter(running, "Bram", -4)
    enter(running, "Chris", -5)  # 3 points too many
    return group, first, second, running


def pages(group, first: Night, second: Night, running: Night) -> list[str]:
    anna = running.seats.get(name="Anna")
    bram = running.seats.get(name="Bram")
    user = anna.user
    return [
        reverse("home") + "?stay=1",
        reverse("group_detail", args=[group.pk]),
        reverse("group_table", args=[group.pk]),
        reverse("players", args=[group.pk]),
        reverse("player_history", args=[group.pk, user.pk]),
        reverse("night_start", args=[group.pk]),
        reverse("night_detail", args=[running.pk]),
        reverse("night_detail", args=[running.pk]) + f"?for={bram.pk}",
        reverse("board_entry", args=[running.pk, 3, anna.pk]),
        reverse("board_entry", args=[running.pk, 3, bram.pk]),
        reverse("board_entry", args=[first.pk, 1, first.seats.get(name="Anna").pk]),
        reverse("night_rounds", args=[first.pk]),
        reverse("round_edit", args=[first.pk, 1]),
        reverse("seat_add", args=[running.pk]),
        reverse("night_settle", args=[first.pk]),
        reverse("night_settle", args=[second.pk]),
        reverse("night_settle", args=[running.pk]),
        reverse("night_screen", args=[running.pk]),
        reverse("rules"),
        reverse("group_house_rules", args=[group.pk]),
        reverse("night_rules", args=[running.pk]),
        reverse("night_rules", args=[first.pk]),
        "/no-such-page/",
    ]


def report(found: dict[str, list[str]]) -> str:
    return "English left:\n" + "\n".join(f"{url}: {texts}" for url, texts in found.items())


def render(url: str, language: str, user=None) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        log_in(client, user)
    response = client.get(url)
    assert response.status_code in {200, 404}, url
    return response.content.decode()


def anonymous_pages(group) -> list[str]:
    return [reverse("login"), reverse("join", args=[group.invite_token]), "/join/" + "x" * 20 + "/"]


def test_no_english_is_left_on_the_chinese_pages(table):
    group, *nights = table
    user = nights[0].seats.get(name="Anna").user
    found = {}
    for url in pages(group, *nights):
        for text in texts_of(render(url, "zh-hans", user)):
            words = leftover(text, NAMES | EVERYWHERE)
            if words:
                found.setdefault(url, []).append(text)
    for url in anonymous_pages(group):
        for text in texts_of(render(url, "zh-hans")):
            if leftover(text, NAMES | EVERYWHERE):
                found.setdefault(url, []).append(text)
    assert not found, report(found)


@pytest.mark.parametrize(("language", "too"), [("nl", DUTCH_TOO), ("de", GERMAN_TOO)])
def test_no_english_text_node_survives_on_the_dutch_and_german_pages(table, language, too):
    group, *nights = table
    user = nights[0].seats.get(name="Anna").user
    found = {}
    urls = [(url, user) for url in pages(group, *nights)]
    urls += [(url, None) for url in anonymous_pages(group)]
    for url, who in urls:
        english = set(texts_of(render(url, "en", who)))
        for text in texts_of(render(url, language, who)):
            if text in english and leftover(text, NAMES | EVERYWHERE | too):
                found.setdefault(url, []).append(text)
    assert not found, report(found)


def test_the_english_pages_are_still_english(table):
    """The check above compares against real English: the pages did not all turn Dutch."""
    _group, *nights = table
    user = nights[0].seats.get(name="Anna").user
    body = render(reverse("night_detail", args=[nights[2].pk]), "en", user)
    assert "3 points too many. Check your counts." in body
    assert "3 punten te veel. Tel nog eens na." in render(
        reverse("night_detail", args=[nights[2].pk]), "nl", user
    )
    assert "多了 3 分。请核对计分。" in render(
        reverse("night_detail", args=[nights[2].pk]), "zh-hans", user
    )
