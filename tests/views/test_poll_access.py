"""Every poll answers "nothing changed" only to whoever may see the page it polls, as
the page itself does: one matrix of who polls, run against every poll's address.

The polls are the night page's, the group page's, the card page's, the big screen's
and the big screen's shared link (no login: whoever holds the link)."""

from collections.abc import Callable
from datetime import timedelta
from importlib import import_module

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from scorekeeper.models import Night
from scorekeeper.services.groups import leave_group
from scorekeeper.services.nights import end_night, share_screen, stop_sharing_screen
from tests.helpers import make_user

# A poll's address for a night, as its page sends it (with the version it shows).
Poll = Callable[[Night], tuple[str, dict]]


def night_poll(night: Night, night_id: object = None) -> tuple[str, dict]:
    return reverse("night_live", args=[night_id or night.pk]), {"version": night.version}


def group_poll(night: Night, group_id: object = None) -> tuple[str, dict]:
    group = night.group
    return reverse("group_live", args=[group_id or group.pk]), {"version": group.nights_version()}


def card_poll(night: Night, night_id: object = None) -> tuple[str, dict]:
    seat = night.seats.get(name="Anna")
    args = [night_id or night.pk, night.rounds.earliest("number").number, seat.pk]
    return reverse("board_live", args=args), {"version": night.version}


def screen_poll(night: Night, night_id: object = None) -> tuple[str, dict]:
    return reverse("night_screen_live", args=[night_id or night.pk]), {"version": night.version}


MEMBER_POLLS = {"night": night_poll, "group": group_poll, "card": card_poll, "screen": screen_poll}


def poll(client, which: str, night: Night):
    night.refresh_from_db()
    return client.get(*MEMBER_POLLS[which](night))


def sent_to_log_in(response) -> bool:
    return response.status_code == 302 and response.url.startswith(reverse("login"))


@pytest.fixture
def night(make_group, make_night):
    # Dora follows the night from the group without a seat: she may leave at any time.
    group = make_group(members=("Anna", "Bram", "Chris", "Dora"))
    return make_night(("Anna", "Bram", "Chris"), group=group)


every_poll = pytest.mark.parametrize("which", MEMBER_POLLS)


@every_poll
def test_a_member_with_the_current_version_gets_an_empty_204(client, login, night, which):
    login("Dora")
    response = poll(client, which, night)
    assert response.status_code == 204
    assert response.content == b""
    assert "Cookie" in response["Vary"]


@every_poll
def test_an_older_version_gets_the_fragment(client, login, night, which):
    login("Anna")
    url, params = MEMBER_POLLS[which](night)
    response = client.get(url, {**params, "version": "0"})
    assert response.status_code == 200
    assert response.content


@every_poll
def test_a_stranger_gets_the_404_of_a_missing_night_even_with_the_version(
    client, login, night, which
):
    login(make_user("Zed"))
    assert poll(client, which, night).status_code == 404


@every_poll
@pytest.mark.parametrize("ghost", ["98765", str(2**63 - 1), str(2**63), "9" * 5000])
def test_an_id_no_row_has_is_a_404_however_big(client, login, night, which, ghost):
    login("Anna")
    url, params = MEMBER_POLLS[which](night, ghost)
    assert client.get(url, params).status_code == 404


@every_poll
def test_a_member_who_left_gets_a_404_from_the_next_poll(client, login, night, which):
    dora = night.group.memberships.get(user__name="Dora").user
    login(dora)
    assert poll(client, which, night).status_code == 204
    leave_group(group=night.group, user=dora)
    assert poll(client, which, night).status_code == 404


@every_poll
def test_a_logged_out_visitor_is_sent_to_log_in(client, night, which):
    assert sent_to_log_in(poll(client, which, night))


def SessionStore(key: str):
    return import_module(settings.SESSION_ENGINE).SessionStore(key)


def logged_out_on_another_phone(client, user) -> None:
    SessionStore(client.cookies["sessionid"].value).delete()


def expired(client, user) -> None:
    session = SessionStore(client.cookies["sessionid"].value)
    session.set_expiry(timezone.now() - timedelta(seconds=1))
    session.save()


def changed_password(client, user) -> None:
    user.set_password("changed on another phone")
    user.save()


def deactivated(client, user) -> None:
    user.is_active = False
    user.save()


@every_poll
@pytest.mark.parametrize(
    "change", [logged_out_on_another_phone, expired, changed_password, deactivated]
)
def test_a_login_that_ended_elsewhere_is_sent_to_log_in(client, login, night, which, change):
    anna = night.seats.get(name="Anna").user
    login(anna)
    assert poll(client, which, night).status_code == 204
    cookie = client.cookies["sessionid"].value
    change(client, anna)
    client.cookies["sessionid"] = cookie  # the phone still sends it
    assert sent_to_log_in(poll(client, which, night))


@pytest.mark.parametrize("which", ["night", "screen"])
def test_an_ended_night_tells_the_phones_to_stop_polling(client, login, night, which):
    end_night(night=night, by=night.started_by)
    login("Anna")
    assert poll(client, which, night).status_code == 286  # htmx: stop polling


@pytest.mark.database
@every_poll
def test_an_unchanged_poll_reads_the_user_and_the_version_and_nothing_else(
    client, login, night, which, django_assert_num_queries
):
    login("Anna")
    assert poll(client, which, night).status_code == 204
    night.refresh_from_db()
    url, params = MEMBER_POLLS[which](night)
    # The session (by its key, from the database without Redis), the user, the version.
    with django_assert_num_queries(3):
        assert client.get(url, params).status_code == 204


def reads_the_user(get_response):
    def middleware(request):
        request.user.is_authenticated  # noqa: B018 (loading the user is the point)
        return get_response(request)

    return middleware


@every_poll
def test_a_middleware_that_reads_the_user_leaves_the_answers_as_they_were(
    client, login, night, settings, which
):
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, f"{__name__}.reads_the_user"]
    login("Dora")
    assert poll(client, which, night).status_code == 204
    leave_group(group=night.group, user=night.group.memberships.get(user__name="Dora").user)
    assert poll(client, which, night).status_code == 404
    client.logout()
    assert sent_to_log_in(poll(client, which, night))


def shared_poll(night: Night) -> tuple[str, dict]:
    night.refresh_from_db()
    return reverse("shared_screen_live", args=[night.screen_token]), {"version": night.version}


def test_the_shared_screen_polls_without_a_login_until_the_link_is_taken_back(client, night):
    share_screen(night=night, by=night.started_by)
    url, params = shared_poll(night)
    assert client.get(url, params).status_code == 204
    assert client.get(url, {"version": "0"}).status_code == 200
    stop_sharing_screen(night=night, by=night.started_by)
    gone = client.get(url, params)
    assert gone.status_code == 286
    assert b'data-testid="screen-status"' in gone.content


@pytest.mark.parametrize("token", ["x" * 5000, "not a token", "%00" * 20])
def test_a_shared_link_of_any_shape_is_answered_as_taken_back(client, night, token):
    response = client.get(f"/screen/{token}/live/", {"version": "1"})
    assert response.status_code == 286
    assert b'data-testid="screen-status"' in response.content


@every_poll
def test_with_sessions_saved_on_every_request_an_unchanged_poll_extends_its_session(
    client, login, night, settings, which
):
    settings.SESSION_SAVE_EVERY_REQUEST = True
    login("Anna")
    response = poll(client, which, night)
    assert response.status_code == 204
    assert response.cookies["sessionid"]["max-age"] == settings.SESSION_COOKIE_AGE
