"""The polls answer "nothing changed" in one query: to whom they answer it is the same
as for the pages. A stranger, a member who left and a logged-out visitor who send the
night's or the group's current version learn nothing, exactly as today."""

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone

from scorekeeper.models import Group, Night
from scorekeeper.services.groups import leave_group
from scorekeeper.services.nights import end_night
from tests.helpers import make_user


def night_poll(night: Night) -> tuple[str, dict]:
    night.refresh_from_db()
    return reverse("night_live", args=[night.pk]), {"version": night.version}


def group_poll(group: Group) -> tuple[str, dict]:
    return reverse("group_live", args=[group.pk]), {"version": group.nights_version()}


def sent_to_log_in(response) -> bool:
    return response.status_code == 302 and response.url.startswith(reverse("login"))


@pytest.fixture
def polls(make_group, make_night):
    # Dora follows the night from the group without a seat: she may leave at any time.
    group = make_group(members=("Anna", "Bram", "Chris", "Dora"))
    night = make_night(("Anna", "Bram", "Chris"), group=group)
    return {"night": night_poll(night), "group": group_poll(night.group)}, night


@pytest.mark.parametrize("which", ["night", "group"])
def test_a_member_with_the_current_version_gets_an_empty_204(client, login, polls, which):
    urls, _ = polls
    login("Anna")
    response = client.get(*urls[which])
    assert response.status_code == 204
    assert response.content == b""


@pytest.mark.parametrize("which", ["night", "group"])
def test_a_stranger_gets_the_404_of_a_missing_night_even_with_the_version(
    client, login, polls, which
):
    urls, _ = polls
    login(make_user("Zed"))
    url, params = urls[which]
    ghost = reverse(f"{which}_live", args=[98765])
    assert client.get(url, params).status_code == 404
    assert client.get(ghost, params).status_code == 404


@pytest.mark.parametrize("which", ["night", "group"])
def test_a_member_who_left_gets_a_404_from_the_next_poll(client, login, polls, which):
    urls, night = polls
    dora = night.group.memberships.get(user__name="Dora").user
    login(dora)
    assert client.get(*urls[which]).status_code == 204
    leave_group(group=night.group, user=dora)
    assert client.get(*urls[which]).status_code == 404


@pytest.mark.parametrize("which", ["night", "group"])
def test_a_logged_out_visitor_is_sent_to_log_in(client, polls, which):
    urls, _ = polls
    assert sent_to_log_in(client.get(*urls[which]))


def changed_password(user) -> None:
    user.set_password("changed on another phone")


def deactivated(user) -> None:
    user.is_active = False


@pytest.mark.parametrize("which", ["night", "group"])
@pytest.mark.parametrize("change", [changed_password, deactivated])
def test_a_login_whose_account_changed_elsewhere_is_sent_to_log_in(
    client, login, polls, which, change
):
    urls, night = polls
    anna = night.seats.get(name="Anna").user
    login(anna)
    change(anna)
    anna.save()
    assert sent_to_log_in(client.get(*urls[which]))


@pytest.mark.parametrize("which", ["night", "group"])
def test_a_session_ended_elsewhere_is_sent_to_log_in_though_its_cookie_comes_back(
    client, login, polls, which
):
    urls, _ = polls
    login("Anna")
    assert client.get(*urls[which]).status_code == 204
    cookie = client.cookies["sessionid"].value
    Session.objects.filter(session_key=cookie).delete()  # logged out, or expired and cleared
    client.cookies["sessionid"] = cookie
    assert sent_to_log_in(client.get(*urls[which]))


@pytest.mark.parametrize("which", ["night", "group"])
def test_an_expired_session_is_sent_to_log_in(client, login, polls, which):
    urls, _ = polls
    login("Anna")
    assert client.get(*urls[which]).status_code == 204
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
    assert client.get(*urls[which]).status_code == 302


@pytest.mark.parametrize("which", ["night", "group"])
def test_an_unchanged_poll_takes_one_query_and_says_it_depends_on_the_cookie(
    client, login, polls, which, django_assert_num_queries
):
    urls, _ = polls
    login("Anna")
    assert client.get(*urls[which]).status_code == 204  # reads the session once
    with django_assert_num_queries(1):
        response = client.get(*urls[which])
    assert response.status_code == 204
    assert "Cookie" in response["Vary"]


def test_an_old_version_gets_the_fragment(client, login, polls):
    urls, _ = polls
    login("Anna")
    url, _params = urls["night"]
    response = client.get(url, {"version": "0"})
    assert response.status_code == 200
    assert b'id="live"' in response.content


def test_an_ended_night_tells_the_phones_to_stop_polling(client, login, polls):
    _, night = polls
    end_night(night=night, by=night.started_by)
    login("Anna")
    response = client.get(*night_poll(night))
    assert response.status_code == 286  # htmx: stop polling
