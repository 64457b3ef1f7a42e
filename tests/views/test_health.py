"""/health/ answers whatever runs the site (a front proxy, systemd, a container's
health check): 200 when the app and its database answer, 503 in the same few
machine words when the database does not. It costs the one query of the check: no
session read, no account, no cookie."""

import http.client
import json
import os
import subprocess
import sys
from importlib import import_module
from unittest import mock

import pytest
from django.conf import settings
from django.db import OperationalError, connection
from django.test import Client, RequestFactory
from django.urls import reverse

from ofcboard import front
from scorekeeper.views import health
from tests.helpers import start_server
from tests.test_deployed_site import TEST_RUN_SETTINGS

# What a database's own error may say, and the answer never does.
SECRET_TEXT = "could not connect to server at db.internal (10.0.0.7) as user ofc"


def no_cookie_set(response) -> bool:
    return not response.cookies and "Set-Cookie" not in response.headers


def test_the_address_is_health():
    assert reverse("health") == "/health/"


def test_a_database_that_answers_is_200_for_the_one_query_of_the_check(
    client, db, django_assert_num_queries
):
    with django_assert_num_queries(1) as queries:
        response = client.get(reverse("health"))
    assert queries.captured_queries[0]["sql"] == "SELECT 1"
    assert response.status_code == 200
    assert response.json() == {"app": "ok", "database": "ok"}
    assert response["Content-Type"] == "application/json"
    assert "no-store" in response["Cache-Control"]
    assert no_cookie_set(response)


def test_a_check_without_cookies_loads_no_session(client, db):
    store = import_module(settings.SESSION_ENGINE).SessionStore
    with mock.patch.object(store, "load", autospec=True, side_effect=store.load) as load:
        response = client.get(reverse("health"))
    assert response.status_code == 200
    assert load.call_count == 0
    assert not response.wsgi_request.session.modified


def test_head_answers_too(client, db):
    response = client.head(reverse("health"))
    assert response.status_code == 200
    assert no_cookie_set(response)


def test_a_database_that_cannot_be_reached_is_503_without_its_error(client, db):
    with mock.patch.object(
        connection, "ensure_connection", side_effect=OperationalError(SECRET_TEXT)
    ):
        response = client.get(reverse("health"))
    assert response.status_code == 503
    assert response.json() == {"app": "ok", "database": "not answering"}
    assert "no-store" in response["Cache-Control"]
    assert "db.internal" not in response.content.decode()
    assert no_cookie_set(response)


def test_a_database_that_fails_the_query_is_503_without_its_error(client, db):
    def refuse(execute, sql, params, many, context):
        raise OperationalError(SECRET_TEXT)

    with connection.execute_wrapper(refuse):
        response = client.get(reverse("health"))
    assert response.status_code == 503
    assert response.json() == {"app": "ok", "database": "not answering"}
    assert "db.internal" not in response.content.decode()


def test_a_signed_in_phone_gets_no_cookie_either(login, make_user):
    client = login(make_user("Anna"))
    response = client.get(reverse("health"))
    assert response.status_code == 200
    assert response.json() == {"app": "ok", "database": "ok"}
    assert no_cookie_set(response)


class Tripwire:
    """A request's session or user that fails the test when anything reads it."""

    def __init__(self, what: str) -> None:
        object.__setattr__(self, "what", what)

    def __getattr__(self, name: str):
        raise AssertionError(f"the health view read request.{self.what}.{name}")

    def __setattr__(self, name: str, value) -> None:
        raise AssertionError(f"the health view wrote request.{self.what}.{name}")


def test_the_view_itself_never_reads_the_session_or_the_user(db):
    request = RequestFactory().get("/health/")
    request.session = Tripwire("session")
    request.user = Tripwire("user")
    response = health.health(request)
    assert response.status_code == 200
    assert not response.cookies


@pytest.mark.parametrize("method", ["post", "put", "delete", "patch"])
def test_only_get_and_head_are_answered(db, method):
    # A client that checks CSRF tokens as a browser's requests are checked: the
    # refusal is 405, not the CSRF check's 403.
    response = getattr(Client(enforce_csrf_checks=True), method)(reverse("health"))
    assert response.status_code == 405
    assert sorted(response["Allow"].split(", ")) == ["GET", "HEAD"]
    assert no_cookie_set(response)


def get(port: int, path: str, **headers: str) -> tuple[int, http.client.HTTPMessage, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        return answer.status, answer.headers, answer.read()
    finally:
        connection.close()


def production_env(tmp_path, database_url: str) -> dict[str, str]:
    """The project's settings (not the tests'): DEBUG off, HTTPS required, behind a
    TLS proxy on this machine, as the README runs it."""
    env = {k: v for k, v in os.environ.items() if k not in TEST_RUN_SETTINGS}
    return env | {
        "DEBUG": "0",
        "OFCBOARD_TABLE": "0",
        "SECRET_KEY": "health-test-" + "k" * 40,
        "ALLOWED_HOSTS": "ofc.example.org",
        "OFCBOARD_TRUSTED_PROXY": "127.0.0.1",
        "DATABASE_URL": database_url,
        "STATIC_ROOT": str(tmp_path / "staticfiles"),
        "OFCBOARD_BACKUP_DIR": "",
    }


def production_server(tmp_path, database_url: str) -> tuple:
    """The server as the README runs it for real: behind its front, the TLS proxy on
    this machine named to it."""
    return start_server(production_env(tmp_path, database_url), "--front", "yes")


# What the proxy sends with every request: the site's name and the scheme.
PROXIED = {"Host": "ofc.example.org", "X-Forwarded-Proto": "https"}


def test_the_server_with_the_sites_own_settings_answers_as_the_readme_asks(tmp_path):
    """The README's curl line, against the real server. Sent as the proxy sends it,
    the check is 200; plain HTTP is only sent on to HTTPS (which ``curl -f`` would
    count as healthy), so the README's lines say both headers."""
    # No table needed: the check only asks the database to answer.
    process, port = production_server(tmp_path, f"sqlite:///{tmp_path}/db.sqlite3")
    try:
        status, headers, body = get(port, "/health/", **PROXIED)
        assert status == 200, body
        assert json.loads(body) == {"app": "ok", "database": "ok"}
        assert "no-store" in headers["Cache-Control"]
        assert "Set-Cookie" not in headers
        status, headers, _ = get(port, "/health/", Host="ofc.example.org")
        assert status == 301
        assert headers["Location"] == "https://ofc.example.org/health/"
    finally:
        process.terminate()
        process.wait(10)


def test_the_server_whose_database_cannot_open_answers_503(tmp_path):
    gone = tmp_path / "no such folder" / "db.sqlite3"
    process, port = production_server(tmp_path, f"sqlite:///{gone}")
    try:
        status, headers, body = get(port, "/health/", **PROXIED)
        assert status == 503, body
        assert json.loads(body) == {"app": "ok", "database": "not answering"}
        assert "Set-Cookie" not in headers
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.skipif(front.find() is None, reason="nginx with Nchan is not installed")
def test_the_scheme_is_believed_from_the_named_proxy_through_the_front_only(tmp_path):
    """From the proxy named in OFCBOARD_TRUSTED_PROXY (127.0.0.1) the front believes
    HTTPS; the same header from another address of this machine is not believed, and
    the request is sent on to HTTPS."""
    process, port = production_server(tmp_path, f"sqlite:///{tmp_path}/db.sqlite3")
    try:
        connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=30, source_address=("127.0.0.9", 0)
        )
        connection.request("GET", "/health/", headers=PROXIED)
        answer = connection.getresponse()
        answer.read()
        connection.close()
        assert answer.status == 301
        assert get(port, "/health/", **PROXIED)[0] == 200
    finally:
        process.terminate()
        process.wait(10)


def test_a_proxy_named_to_a_server_without_its_front_stops_it_with_the_reason(tmp_path):
    env = production_env(tmp_path, f"sqlite:///{tmp_path}/db.sqlite3")
    stopped = subprocess.run(
        [sys.executable, "-m", "ofcboard.serve", "--host", "127.0.0.1", "--port", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert stopped.returncode == 1
    assert "OFCBOARD_TRUSTED_PROXY names a proxy" in stopped.stderr
    assert "--front yes" in stopped.stderr
