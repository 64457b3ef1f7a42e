"""Input a phone should never send, answered in words with nothing stored: names
that hide characters or look like another's, an endless login name, hidden fields
tampered with, and cards that arrive after their round went through."""

import pytest
from django.urls import reverse

from scorekeeper.models import Entry, Group, User
from tests.helpers import PASSWORD, enter, seats_of
from tests.views.test_boards import post_board


def join(client, group, name):
    return client.post(
        reverse("join", args=[group.invite_token]),
        {"action": "signup", "signup-name": name, "signup-password": PASSWORD},
    )


def test_a_50000_character_login_name_is_refused_in_words(client, db):
    response = client.post(reverse("login"), {"username": "a" * 50_000, "password": "x"})
    assert response.status_code == 200
    assert "names have at most 30 characters" in response.content.decode()


def test_a_full_width_name_logs_in_as_the_account_it_looks_like(client, make_user):
    make_user("Anna")
    response = client.post(reverse("login"), {"username": "Ａｎｎａ", "password": PASSWORD})
    assert response.status_code == 302


@pytest.mark.parametrize(
    "name",
    ["\u200b", "Anna\u200b", "Ann\u202ea", "\x1b[31mAnna", "An\x00na", "Anna\ufeff"],
)
def test_names_with_hidden_characters_are_refused(client, make_group, name):
    group = make_group(members=("Bram",))
    response = join(client, group, name)
    assert response.status_code == 200
    body = response.content.decode()
    assert any(
        words in body
        for words in ("only have letters and spaces", "Please enter a name.", "Null characters")
    )
    assert User.objects.count() == 1


def test_a_full_width_name_beside_the_same_name_is_taken(client, make_group):
    group = make_group(members=("Anna",))
    response = join(client, group, "Ａｎｎａ")
    assert "Anna is already in this group" in response.content.decode()
    assert User.objects.count() == 1


def test_a_look_alike_of_a_members_name_is_refused(client, make_group):
    group = make_group(members=("Anna",))
    response = join(client, group, "\u0410nna")  # a Cyrillic А
    body = response.content.decode()
    assert "looks just like" in body and "Anna" in body
    assert User.objects.count() == 1  # the account is not kept either
    assert join(client, group, "Anne").status_code == 302


@pytest.mark.parametrize(
    "name", ["\u200b", "Friday\u200bOFC", "Friday \u202eCFO", "\x1b[2JFriday", "Fri\x07day"]
)
def test_group_names_with_hidden_characters_are_refused(login, make_user, name):
    make_user("Anna")
    response = login("Anna").post(reverse("group_create"), {"name": name})
    assert response.status_code == 200
    body = response.content.decode()
    assert "invisible characters or control codes" in body or "give the group a name" in body
    assert not Group.objects.exists()


def test_a_full_width_group_name_is_stored_as_it_reads(login, make_user):
    make_user("Anna")
    login("Anna").post(reverse("group_create"), {"name": "Ｆｒｉｄａｙ  OFC"})
    assert Group.objects.get().name == "Friday OFC"


@pytest.mark.parametrize(
    "tampered",
    [
        {"round": "1.5"},
        {"round": "abc"},
        {"round": None},
        {"seat": "1.5"},
        {"seat": "abc"},
        {"seat": None},
        {"fantasyland": "x" * 100_000},
    ],
)
def test_bad_hidden_fields_on_the_entry_form_say_reload(login, make_night, tampered):
    night = make_night(("Anna", "Bram"))
    data = {"round": 1, "seat": seats_of(night)["Anna"].pk, "points": 5, **tampered}
    data = {key: value for key, value in data.items() if value is not None}
    for htmx in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = login("Anna").post(reverse("entry_save", args=[night.pk]), data, **htmx)
        body = response.content.decode()
        assert "This page is out of date. Reload it and try again." in body
        assert "Enter a whole number" not in body and "This field is required" not in body
    assert not Entry.objects.exists()


CARDS = ("2c 3d 4h", "Qs Qd 5c 5d 9s", "Ah Jh 8h 6h 3h")


def test_cards_for_a_round_that_went_through_meanwhile_are_said_not_saved(login, make_night):
    night = make_night(("Anna", "Bram"), game="pineapple")
    enter(night, "Anna", 5)
    enter(night, "Bram", -5)  # the round goes through on totals...
    response = post_board(login("Anna"), night, "Anna", CARDS)  # ...then Anna's cards arrive
    body = response.content.decode()
    assert "Round 1 already went through: your cards were not used. Round 2 is open." in body
    assert Entry.objects.get(round__number=1, seat__name="Anna").board is None
