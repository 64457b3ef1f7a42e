"""Calling off a night from its page: it is gone from the group page, its poll and
its history; refused in words once a round went through."""

from django.urls import reverse

from scorekeeper.models import Night
from tests.helpers import finish, play
from tests.views.test_groups import group_url, poll_url_on


def call_off(client, night: Night):
    return client.post(reverse("night_call_off", args=[night.pk]), follow=True)


def test_a_night_called_off_leaves_the_group_page_and_says_so(make_night, login):
    kept = finish(play(make_night(), {"Anna": 3, "Bram": -1, "Chris": -2}))
    mistake = make_night(group=kept.group, game="pineapple")
    client = login("Bram")
    page = client.get(group_url(kept.group)).content.decode()
    assert "Tonight: Pineapple" in page
    poll = poll_url_on(page)

    response = call_off(client, mistake)

    assert response.redirect_chain == [(group_url(kept.group), 302)]
    body = response.content.decode()
    assert "The night was called off." in body
    assert "Pineapple" not in body
    assert reverse("night_detail", args=[mistake.pk]) not in body
    assert reverse("night_detail", args=[kept.pk]) in body  # the real night stays
    # A phone still showing the group page hears of it at its next poll.
    polled = client.get(poll)
    assert polled.status_code == 200 and "Tonight" not in polled.content.decode()
    # And the night's own address is the 404 of a night that never was.
    assert client.get(reverse("night_detail", args=[mistake.pk])).status_code == 404
    assert not Night.objects.filter(pk=mistake.pk).exists()


def test_after_a_round_it_is_refused_on_the_night_page_and_the_night_stays(make_night, login):
    night = play(make_night(), {"Anna": 3, "Bram": -1, "Chris": -2})
    response = call_off(login("Anna"), night)
    assert response.redirect_chain == [(reverse("night_detail", args=[night.pk]), 302)]
    assert "This night has rounds recorded: end it instead." in response.content.decode()
    assert Night.objects.filter(pk=night.pk).exists()


def test_it_is_a_post(make_night, login):
    night = make_night()
    assert login("Anna").get(reverse("night_call_off", args=[night.pk])).status_code == 405
    assert Night.objects.filter(pk=night.pk).exists()
