"""Only a post that will hash a password takes a place in the server's hashing lane
(ofcboard/lanes.py, scorekeeper/site/password_gate.py): posts to the login page that
Django turns away without hashing, for a missing CSRF token or from an address the
throttle refuses, sent as fast as twenty clients can, leave a member's login answered."""

import contextlib
import io
import os
import secrets
import threading
import time
import urllib.parse

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher, make_password
from django.test import RequestFactory, override_settings

from ofcboard.lanes import HASHING_AT_ONCE, HASHING_WAITING
from scorekeeper.site.password_gate import will_hash_a_password
from scorekeeper.site.throttle import LOGIN_FAILURES_PER_ADDRESS, count_wrong_password
from tests.helpers import PASSWORD, make_user, start_server
from tests.test_many_nodes import database_url
from tests.test_server_front import from_address

NO_TOKEN = ["127.0.2.1", "127.0.2.2"]
THROTTLED = ["127.0.3.1", "127.0.3.2"]
ATTACKERS = 20
MEMBER_LOGINS = 5


def login_post(address: str, port: int, form: dict, csrf: str = "") -> tuple[int, float]:
    """A post to /login/ from ``address``: its answer's status and how long it took."""
    body = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": csrf} if csrf else form)
    cookie = b"Cookie: csrftoken=%s\r\n" % csrf.encode() if csrf else b""
    sent = time.monotonic()
    with from_address(address, port, timeout=30) as sock:
        sock.sendall(
            b"POST /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n%s"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (cookie, len(body), body.encode())
        )
        answer = sock.recv(20)
    return int(answer.split()[1]), time.monotonic() - sent


def throttle_cache(folder) -> dict:
    return {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": folder}


def serving_with_a_shared_throttle(tmp_path) -> tuple:
    """The server on the test's database, hashing as production hashes, its throttle's
    counts in files this test writes too: (process, port)."""
    (tmp_path / "lane_settings.py").write_text(
        "from tests.settings_hashing import *  # noqa: F403\n"
        f"CACHES = {{**CACHES, 'throttle': {throttle_cache(str(tmp_path / 'throttle'))!r}}}\n"
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])),
        "DJANGO_SETTINGS_MODULE": "lane_settings",
        "DATABASE_URL": database_url(),
        "OFCBOARD_TABLE": "1",
    }
    env.pop("CACHE_URL", None)
    return start_server(env)


def refuse_logins_from(addresses: list[str], tmp_path) -> None:
    """Wrong passwords from each address until the throttle refuses it, counted where
    the server reads the counts."""
    limit = int(LOGIN_FAILURES_PER_ADDRESS.split("/")[0])
    with override_settings(
        CACHES={
            "default": throttle_cache(str(tmp_path / "default")),
            "throttle": throttle_cache(str(tmp_path / "throttle")),
        }
    ):
        for address in addresses:
            request = RequestFactory().post("/login/", REMOTE_ADDR=address)
            for _ in range(limit):
                count_wrong_password(request, "nobody")


@pytest.mark.timed
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_posts_that_never_hash_leave_a_members_login_answered(tmp_path):
    member = make_user("Anna")
    # Hashed as the server checks it (the tests' own hasher is a fast one it does not know).
    member.password = make_password(PASSWORD, hasher=PBKDF2PasswordHasher())
    member.save()
    refuse_logins_from(THROTTLED, tmp_path)
    process, port = serving_with_a_shared_throttle(tmp_path)
    stop = threading.Event()
    answered: list[int] = []

    def attack(number: int) -> None:
        # Half send no CSRF token at all, half a good one with a wrong password from
        # an address the throttle already refuses: Django hashes neither.
        throttled = number % 2
        addresses = THROTTLED if throttled else NO_TOKEN
        address = addresses[number // 2 % len(addresses)]
        form = {"username": f"nobody{number}" if throttled else "Anna", "password": "guess"}
        while not stop.is_set():
            csrf = secrets.token_hex(16) if throttled else ""
            with contextlib.suppress(OSError):
                answered.append(login_post(address, port, form, csrf)[0])

    attackers = [threading.Thread(target=attack, args=(n,)) for n in range(ATTACKERS)]
    try:
        for thread in attackers:
            thread.start()
        time.sleep(1)  # every one of them is posting
        logins = [
            login_post(
                "127.0.0.1",
                port,
                {"username": "Anna", "password": PASSWORD},
                csrf=secrets.token_hex(16),
            )
            for _ in range(MEMBER_LOGINS)
        ]
    finally:
        stop.set()
        for thread in attackers:
            thread.join(30)
        process.terminate()
        process.wait(10)
    assert ATTACKERS > HASHING_AT_ONCE + HASHING_WAITING  # enough to fill the lane
    # Django answered them itself: the CSRF check, and the throttle in words.
    assert {403, 429} <= set(answered), sorted(set(answered))
    assert [status for status, _ in logins] == [302] * MEMBER_LOGINS, logins
    # Answered while the flood goes on (a lane it blocked would keep them waiting
    # its whole length, or refuse them), on a busy two-core machine too: CI saw a
    # median of 2.7 s there, with four test workers beside it.
    took = sorted(seconds for _, seconds in logins)
    assert took[len(took) // 2] < 5 and took[-1] < 10, logins


def gate(form: dict, **meta) -> bool:
    """Whether a post of ``form`` to /login/ takes the hashing lane, as the server asks."""
    request = RequestFactory().post("/login/", form, **meta)
    environ = {**request.environ, "wsgi.input": io.BytesIO(request.body)}
    environ["CONTENT_LENGTH"] = str(len(request.body))
    taken = will_hash_a_password(environ)
    assert environ["wsgi.input"].read() == request.body  # the app still reads it whole
    return taken


@pytest.mark.django_db
def test_a_post_takes_the_hashing_lane_only_when_it_will_hash():
    csrf = secrets.token_hex(16)
    good = {"csrfmiddlewaretoken": csrf}
    cookie = {"HTTP_COOKIE": f"csrftoken={csrf}"}
    assert gate({"username": "Anna", "password": "x", **good}, **cookie)
    assert gate(
        {"action": "login", "login-username": "Anna", "login-password": "x", **good}, **cookie
    )
    assert gate(
        {"action": "signup", "signup-name": "Dora", "signup-password": "x", **good}, **cookie
    )
    # No CSRF token, or one that is not the cookie's.
    assert not gate({"username": "Anna", "password": "x"}, **cookie)
    assert not gate(
        {"username": "Anna", "password": "x", "csrfmiddlewaretoken": "b" * 32}, **cookie
    )
    # No password, or no name to check it for: nothing to hash.
    assert not gate({"username": "Anna", **good}, **cookie)
    assert not gate({"username": "Anna", "password": "", **good}, **cookie)
    assert not gate({"signup-name": "Dora", **good}, **cookie)
    assert not gate({"username": " ", "password": "x", **good}, **cookie)
    # From an address the throttle refuses, the login form never checks the password.
    for _ in range(int(LOGIN_FAILURES_PER_ADDRESS.split("/")[0])):
        count_wrong_password(RequestFactory().post("/login/", REMOTE_ADDR="10.0.0.7"), "bob")
    login = {"username": "Anna", "password": "x", **good}
    assert gate(login, **cookie, REMOTE_ADDR="10.0.0.8")
    assert not gate(login, **cookie, REMOTE_ADDR="10.0.0.7")
