"""The big screen: read-only and live for members, and through a link the table can
share and take back."""

import doctest

import pytest
from django.urls import reverse

from scorekeeper import converters
from scorekeeper.models import Night
from scorekeeper.services.groups import join_group
from scorekeeper.services.nights import share_screen, stop_sharing_screen
from tests.helpers import enter, play


def share(client, night) -> str:
    client.post(reverse("screen_link", args=[night.pk]), {"share": "yes"})
    night.refresh_from_db()
    return reverse("shared_screen", args=[night.screen_token])


def test_a_member_sees_the_round_the_dealer_and_who_the_round_waits_for(login, make_night):
    night = make_night(("Anna", "Bram", "Chris"))
    enter(night, "Bram", 3)
    body = login("Chris").get(reverse("night_screen", args=[night.pk])).content.decode()
    assert "Round 1" in body and 'data-testid="screen-dealer">Anna<' in body
    assert "Waiting for Anna and Chris" in body
    assert "<form" not in body.split('id="screen"')[1].split("</section>")[0]


@pytest.mark.database
def test_the_screen_poll_answers_204_without_rendering_when_nothing_changed(
    login, make_night, django_assert_num_queries
):
    night = make_night(("Anna", "Bram"))
    client = login("Anna")
    url = reverse("night_screen_live", args=[night.pk])
    night.refresh_from_db()
    with django_assert_num_queries(3):  # the session, the user, the night
        assert client.get(url, {"version": night.version}).status_code == 204
    enter(night, "Anna", 2)
    response = client.get(url, {"version": night.version})
    assert response.status_code == 200 and "Waiting for Bram" in response.content.decode()


@pytest.mark.database
def test_a_shared_link_shows_this_night_without_a_login_until_it_is_taken_back(
    client, login, make_night, django_assert_num_queries
):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 5, "Bram": -5})
    link = share(login("Anna"), night)
    assert share(client, night) == link  # sharing again keeps the same link
    client.logout()
    body = client.get(link).content.decode()
    assert "Round 2" in body and "+5" in body
    assert "Share a read-only link" not in body and "Back to the night" not in body
    live = reverse("shared_screen_live", args=[night.screen_token])
    with django_assert_num_queries(1):  # the night by its token: no session, no user
        assert client.get(live, {"version": night.version}).status_code == 204

    login("Bram").post(reverse("screen_link", args=[night.pk]), {"share": "no"})
    client.logout()
    gone = client.get(link)
    assert gone.status_code == 404 and "no longer works" in gone.content.decode()
    stopped = client.get(live, {"version": 0})
    assert stopped.status_code == 286  # the screen stops asking, and says why
    assert "no longer shared" in stopped.content.decode()


def test_only_the_table_shares_the_screen(login, make_night, make_user):
    night = make_night(("Anna", "Bram"))
    join_group(group=night.group, user=make_user("Dana"))
    client = login("Dana")
    url = reverse("screen_link", args=[night.pk])
    response = client.post(url, {"share": "yes"}, follow=True)
    assert "Only the players at this table can change the night." in response.content.decode()
    night.refresh_from_db()
    assert night.screen_token is None


def test_a_guessed_or_malformed_screen_link_is_gone(client, make_night):
    make_night(("Anna", "Bram"))
    for token in ("x" * 32, "bad\x00token-0123456789"):
        response = client.get(reverse("shared_screen", args=[token]))
        assert response.status_code == 404


def test_after_an_undo_every_phone_says_who_reopened_the_round(login, make_night):
    night = make_night(("Anna", "Bram", "Chris"))
    play(night, {"Anna": 4, "Bram": -1, "Chris": -3})
    login("Anna").post(reverse("round_undo", args=[night.pk]))
    body = login("Chris").get(reverse("night_detail", args=[night.pk])).content.decode()
    assert "Round 1 was reopened by Anna." in body


def test_the_screen_says_which_house_rules_the_night_plays(client, login, make_night):
    rules = {"scoring": {"scoop": 0, "majority": 1}, "royalties": {"top_pair": {"AA": 12}}}
    night = make_night(("Anna", "Bram"), rules=rules)
    link = share(login("Anna"), night)
    client.logout()  # the shared link, as the tablet on the table opens it
    body = client.get(link).content.decode()
    shown = body.split('data-testid="screen-rules">')[1].split("</span>")[0]
    assert shown == "2-4, own royalties: AA on top 12"


def test_link_tokens_are_made_and_checked_in_one_shape():
    examples = doctest.testmod(converters)
    assert examples.attempted and not examples.failed, examples
    token = converters.new_link_token()
    assert len(token) <= Night._meta.get_field("screen_token").max_length
    assert converters.is_link_token(token)


def test_the_shared_night_is_found_by_its_token_only_while_shared(make_night):
    night = make_night()
    assert not Night.objects.shared("A" * 32).exists()
    share_screen(night=night, by=night.started_by)
    night.refresh_from_db()
    assert list(Night.objects.shared(night.screen_token)) == [night]
    assert not Night.objects.shared(night.screen_token + "\x00").exists()
    stop_sharing_screen(night=night, by=night.started_by)
    assert not Night.objects.shared(night.screen_token).exists()
