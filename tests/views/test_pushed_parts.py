"""A change to a running night is pushed with the night page's live part in it, as each
member's phone would fetch it (views/pushed_parts.py): byte for byte, for a player, a
member following along, whoever made the news, in each language the page was asked in."""

import json

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper.models import Night, User
from scorekeeper.services.push import night_told
from scorekeeper.services.round_fixes import undo_last_round
from scorekeeper.views.pushed_parts import carried
from tests.helpers import enter, finish, log_in, make_group, make_night, play

MEMBERS = ("Anna", "Bram", "Chris", "Dora")


def assembled(message: dict, language: str, user: User) -> str:
    """The live part a phone puts together from the message, as static/ofcboard/live.js
    does: the person's own pieces (or those of a member with no part of their own), the
    numbers standing for the shared pieces."""
    parts = message["in"][language]
    own = parts["own"][parts["of"].get(str(user.pk), 0)]
    return "".join(parts["shared"][piece] if isinstance(piece, int) else piece for piece in own)


def fetched(night: Night, user: User, language: str = "en") -> str:
    """What the phone of ``user`` fetches at an unchanged round and seat."""
    seat = night.seats.filter(user=user, last_round__isnull=True).first()
    params = {"version": 0, "round": night.open_round().number, "seat": seat.pk if seat else ""}
    client = log_in(Client(HTTP_ACCEPT_LANGUAGE=language), user)
    answer = client.get(reverse("night_live", args=[night.pk]), params)
    assert answer.status_code == 200
    return answer.content.decode()


def opened(night: Night, who: str, language: str = "en") -> None:
    client = log_in(Client(HTTP_ACCEPT_LANGUAGE=language), who)
    assert client.get(reverse("night_detail", args=[night.pk])).status_code == 200


def message_now(night: Night) -> dict:
    night.refresh_from_db()
    carried_line = carried(night.pk, night.version)
    assert carried_line is not None
    return json.loads(carried_line)


@pytest.fixture
def table(db):
    group = make_group(members=MEMBERS)
    night = make_night(("Anna", "Bram", "Chris"), group=group, guests=("Gus",))
    opened(night, "Dora")
    return night


def test_each_member_puts_together_what_they_would_fetch(table):
    night = table
    play(night, {"Anna": 3, "Bram": -1, "Chris": -1, "Gus": -1}, {"Bram": 4, "Gus": 2})
    message = message_now(night)

    assert message["round"] == 2
    for user in User.objects.filter(name__in=MEMBERS):
        assert assembled(message, "en", user) == fetched(night, user), user.name
    parts = message["in"]["en"]
    assert len(parts["own"]) <= 1 + 3  # one each for the players, one for the rest
    assert "csrf" not in json.dumps(message).lower()


def test_whoever_made_the_news_puts_together_their_own(table):
    """Anna undid the round: her phone marks that news as hers, no other phone does."""
    night = table
    play(night, {"Anna": 3, "Bram": -1, "Chris": -1, "Gus": -1})
    undo_last_round(night=night, by=User.objects.get(name="Anna"))
    message = message_now(night)

    anna, bram = User.objects.get(name="Anna"), User.objects.get(name="Bram")
    hers = assembled(message, "en", anna)
    assert hers == fetched(night, anna)
    assert "data-mine" in hers
    assert "data-mine" not in assembled(message, "en", bram)


def test_each_language_the_page_was_asked_in_is_carried(table):
    night = table
    opened(night, "Anna", "nl")
    enter(night, "Bram", 4)
    message = message_now(night)

    assert sorted(message["in"]) == ["en", "nl"]
    anna = User.objects.get(name="Anna")
    with translation.override("nl"):
        assert assembled(message, "nl", anna) == fetched(night, anna, "nl")
    assert "Wachten op" in assembled(message, "nl", anna)


def test_a_change_is_carried_in_its_own_language_even_where_nobody_asked(db):
    """Without Redis, the server process that answers a save may not have answered
    any of the table's asks: the saving phone's language is carried all the same."""
    night = make_night(("Anna", "Bram"))
    night.refresh_from_db()
    with translation.override("de"):
        said = json.loads(carried(night.pk, night.version) or "{}")
    assert sorted(said["in"]) == ["de"]


def test_nothing_is_carried_when_no_phone_could_use_it(db):
    night = make_night(("Anna", "Bram"))
    opened(night, "Anna")
    enter(night, "Anna", 2)
    night.refresh_from_db()
    assert carried(night.pk, night.version - 1) is None  # it moved on since
    assert carried(night.pk, night.version) is not None

    enter(night, "Bram", -2)
    finish(night)
    night.refresh_from_db()
    assert carried(night.pk, night.version) is None  # over: its phones go to who pays


def test_the_message_is_one_line_after_the_version(table):
    night = table
    enter(night, "Bram", 4)
    night.refresh_from_db()
    said = [line for _, line in night_told.send(Night, night_id=night.pk, version=night.version)]
    (line,) = [line for line in said if line]
    assert "\n" not in line
    assert json.loads(line)["part"] == reverse("night_live", args=[night.pk])
