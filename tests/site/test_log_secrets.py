"""No secret of an address reaches the server's log: an invitation link's token, a big
screen's read-only link, a one-time sign-in code (scorekeeper/site/log_secrets.py)."""

import logging

from django.test import Client
from django.urls import reverse


def logged(caplog) -> list[str]:
    return [record.getMessage() for record in caplog.records]


def test_wrong_passwords_on_an_invitation_page_do_not_log_its_token(client, make_group, caplog):
    group = make_group(members=("Anna",))
    token = group.invite_token
    url = reverse("join", args=[token])
    with caplog.at_level(logging.INFO):
        statuses = {
            client.post(
                url, {"action": "login", "login-username": "Anna", "login-password": "wrong"}
            ).status_code
            for _ in range(12)
        }
        # A post without its CSRF token, and a link that was never made (or was taken
        # back: its old token is as good as a new one for whoever saw both).
        assert Client(enforce_csrf_checks=True).post(url, {"action": "login"}).status_code == 403
        assert client.post(reverse("join", args=["ABCD2345"]), {}).status_code == 404
    assert 429 in statuses  # throttled, so Django logged each of these
    messages = logged(caplog)
    assert any("Too Many Requests: /join/" in message for message in messages), messages
    assert any("Forbidden" in message and "/join/" in message for message in messages), messages
    assert any("Not Found: /join/" in message for message in messages), messages
    assert not [message for message in messages if token in message or "ABCD2345" in message]


def test_any_logger_has_the_secret_pages_hidden(caplog):
    with caplog.at_level(logging.INFO):
        logging.getLogger("django.request").warning("Not Found: %s", "/signin/ABCD2345/")
        logging.getLogger("scorekeeper").warning("Shared: /screen/Sh4red/live/")
        logging.getLogger().warning(
            "%(link)s from %(referer)s",
            {"link": "/join/Tok3n/", "referer": "http://192.168.1.20:8000/signin/C0de/"},
        )
        logging.getLogger("django.request").warning("Not Found: %s", "/nights/4/screen/live/")
    assert logged(caplog) == [
        "Not Found: /signin/…/",
        "Shared: /screen/…/live/",
        "/join/…/ from http://192.168.1.20:8000/signin/…/",
        "Not Found: /nights/4/screen/live/",
    ]


def test_a_sign_in_code_that_matches_nothing_is_not_logged(client, db, caplog):
    with caplog.at_level(logging.INFO):
        assert client.get("/signin/ABCD2345/").status_code == 404
    messages = logged(caplog)
    assert "Not Found: /signin/…/" in messages
    assert not [message for message in messages if "ABCD2345" in message]
