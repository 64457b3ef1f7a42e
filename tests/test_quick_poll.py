"""The unchanged poll answered in front of Django (ofcboard/wsgi.py), called as the
server calls it: the WSGI application with a real environ. Whoever polls gets the
status and headers the full view gives (``django_application`` below, the same
request through every middleware), and only a remembered, still valid member's
unchanged poll is answered quickly."""

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from ofcboard import wsgi
from ofcboard.wsgi import _quick_answer, application, django_application
from scorekeeper.services.groups import leave_group
from scorekeeper.services.nights import end_night
from tests.helpers import make_user


@pytest.fixture(autouse=True)
def _test_database_kept_open():
    # As Django's test client does: the end of a request must not close the
    # connection that holds the test's transaction.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def call(app, environ: dict) -> tuple[str, list[tuple[str, str]], bytes]:
    answered: list = []

    def start_response(status, headers, exc_info=None):
        answered.extend([status, headers])

    body = app(dict(environ), start_response)
    try:
        content = b"".join(body)
    finally:
        body.close()
    status, headers = answered
    return status, sorted(headers), content


def environ(url: str, version, cookie: str | None, **extra) -> dict:
    headers = {"HTTP_COOKIE": f"sessionid={cookie}"} if cookie else {}
    return RequestFactory().get(url, {"version": version}, **headers, **extra).environ


@pytest.fixture
def table(make_group, make_night):
    # Dora follows the night from the group without a seat: she may leave at any time.
    group = make_group(members=("Anna", "Bram", "Chris", "Dora"))
    night = make_night(("Anna", "Bram", "Chris"), group=group)
    return night


def poll_of(night, which: str) -> tuple[str, str]:
    night.refresh_from_db()
    if which == "night":
        return reverse("night_live", args=[night.pk]), str(night.version)
    return reverse("group_live", args=[night.group.pk]), night.group.nights_version()


def logged_in(client, login, who) -> str:
    login(who)
    return client.cookies["sessionid"].value


@pytest.mark.parametrize("which", ["night", "group"])
def test_a_remembered_member_is_answered_quickly_with_the_full_views_headers(
    client, login, table, which, django_assert_num_queries
):
    url, version = poll_of(table, which)
    request = environ(url, version, logged_in(client, login, "Anna"))
    assert _quick_answer(dict(request)) is None  # not yet seen: the full view reads the session
    full = call(django_application, request)
    with django_assert_num_queries(1):
        quick = call(application, request)
    assert _quick_answer(dict(request)) is not None
    assert quick == full
    status, headers, content = quick
    assert status == "204 No Content" and content == b""
    names = dict(headers)
    # The answer depends on the login (and, with the languages, on Accept-Language).
    assert "Cookie" in [part.strip() for part in names["Vary"].split(",")]
    assert names["Cache-Control"] == "private, no-store"
    for header in ("X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy"):
        assert header in names
    assert "Content-Security-Policy" in names


def test_an_ended_nights_quick_answer_stops_the_polling(client, login, table):
    end_night(night=table, by=table.started_by)
    request = environ(*poll_of(table, "night"), logged_in(client, login, "Anna"))
    full = call(django_application, request)
    assert _quick_answer(dict(request)) is not None
    assert call(application, request) == full
    assert full[0] == "286 Stop Polling"


def test_behind_tls_the_quick_answer_carries_hsts_as_the_full_one_does(
    client, login, table, settings, monkeypatch
):
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # The middlewares read their settings once, when the server starts.
    monkeypatch.setattr(wsgi, "_answers", wsgi.QuickAnswers())
    request = environ(
        *poll_of(table, "night"), logged_in(client, login, "Anna"), HTTP_X_FORWARDED_PROTO="https"
    )
    full = call(WSGIHandler(), request)
    quick = call(application, request)
    assert quick == full
    assert "Strict-Transport-Security" in dict(quick[1])


def same_answer(request: dict) -> tuple[str, list]:
    """Neither path answers quickly, and the app answers as the full view does."""
    assert _quick_answer(dict(request)) is None
    status, headers, _ = call(application, request)
    full_status, full_headers, _ = call(django_application, request)
    assert status == full_status
    assert dict(headers).get("Location") == dict(full_headers).get("Location")
    return status, headers


def remembered(client, login, table, which: str, who="Anna") -> dict:
    """A member's poll the process has seen once through the full view."""
    request = environ(*poll_of(table, which), logged_in(client, login, who))
    assert call(application, request)[0] == "204 No Content"
    return request


@pytest.mark.parametrize("which", ["night", "group"])
def test_a_stranger_gets_the_404_though_their_login_is_remembered(client, login, table, which):
    request = environ(*poll_of(table, which), logged_in(client, login, make_user("Zed")))
    assert call(application, request)[0].startswith("404")
    assert same_answer(request)[0].startswith("404")


@pytest.mark.parametrize("which", ["night", "group"])
def test_a_member_who_left_gets_the_404_at_the_next_poll(client, login, table, which):
    dora = table.group.memberships.get(user__name="Dora").user
    request = remembered(client, login, table, which, dora)
    leave_group(group=table.group, user=dora)
    assert same_answer(request)[0].startswith("404")


@pytest.mark.parametrize("which", ["night", "group"])
def test_a_logged_out_phone_is_sent_to_log_in(client, login, table, which):
    request = remembered(client, login, table, which)
    client.logout()  # deletes the session; the phone still sends its cookie
    status, headers = same_answer(request)
    assert status.startswith("302")
    assert dict(headers)["Location"].startswith(reverse("login"))
    assert same_answer(environ(*poll_of(table, which), None))[0].startswith("302")


@pytest.mark.parametrize("which", ["night", "group"])
def test_an_expired_or_deleted_session_is_sent_to_log_in(client, login, table, which):
    request = remembered(client, login, table, which)
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
    assert same_answer(request)[0].startswith("302")
    Session.objects.all().delete()
    assert same_answer(request)[0].startswith("302")


@pytest.mark.parametrize("which", ["night", "group"])
def test_a_changed_password_is_sent_to_log_in(client, login, table, which):
    request = remembered(client, login, table, which)
    anna = table.seats.get(name="Anna").user
    anna.set_password("changed on another phone")
    anna.save()
    assert same_answer(request)[0].startswith("302")


@pytest.mark.parametrize("which", ["night", "group"])
def test_a_deactivated_account_is_sent_to_log_in(client, login, table, which):
    request = remembered(client, login, table, which)
    anna = table.seats.get(name="Anna").user
    anna.is_active = False
    anna.save()
    assert same_answer(request)[0].startswith("302")


def test_a_changed_night_an_other_page_or_a_post_goes_to_django(client, login, table):
    request = remembered(client, login, table, "night")
    url, _ = poll_of(table, "night")
    changed = environ(url, "0", client.cookies["sessionid"].value)
    assert _quick_answer(changed) is None
    status, _, content = call(application, changed)
    assert status == "200 OK" and b'id="live"' in content
    assert _quick_answer({**request, "REQUEST_METHOD": "POST"}) is None
    assert _quick_answer({**request, "PATH_INFO": url + "extra/"}) is None


def test_a_host_not_allowed_gets_djangos_400(client, login, table):
    request = remembered(client, login, table, "night")
    evil = {**request, "HTTP_HOST": "evil.example"}
    assert same_answer(evil)[0].startswith("400")


def test_each_language_gets_the_headers_the_full_view_gives_it(client, login, table):
    request = remembered(client, login, table, "night")
    cookie = request["HTTP_COOKIE"]
    asked = [
        {"HTTP_ACCEPT_LANGUAGE": "nl-NL,nl;q=0.9"},
        {"HTTP_ACCEPT_LANGUAGE": "en"},
        {"HTTP_COOKIE": f"{cookie}; django_language=zh-hans", "HTTP_ACCEPT_LANGUAGE": "nl"},
        {"HTTP_ACCEPT_LANGUAGE": "nl-NL,nl;q=0.9"},  # made once, then reused
    ]
    languages = []
    for extra in asked:
        polled = {**request, **extra}
        quick = call(application, polled)
        assert quick == call(django_application, polled)
        languages.append(dict(quick[1])["Content-Language"])
    assert languages == ["nl", "en", "zh-hans", "nl"]
