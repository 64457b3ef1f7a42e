"""The server's own wrappers around the app (ofcboard/serve.py), called as the server
calls them: bodies read first within bounds, the app in two lanes (password hashing
in its own), and a TLS proxy's headers believed from it only."""

import io
import threading
import time

import pytest
from django.urls import reverse

from ofcboard.serve import (
    MAX_REQUEST_BODY,
    BodyReads,
    Lane,
    behind_a_proxy,
    in_lanes,
    password_paths,
    posts_to_a_password_page,
    reading_bodies_first,
)


class Recorder:
    """A WSGI app that keeps the environ it was called with."""

    def __init__(self) -> None:
        self.environ: dict | None = None

    def __call__(self, environ, start_response):
        self.environ = dict(environ, body=environ["wsgi.input"].read())
        start_response("200 OK", [])
        return [b"ok"]


def call(app, **environ) -> str:
    answered = []
    environ = {"REMOTE_ADDR": "10.0.0.5", "wsgi.input": io.BytesIO(b""), **environ}
    answer = app(environ, lambda status, headers: answered.append(status))
    if hasattr(answer, "close"):
        answer.close()  # as the server does once the answer is sent
    return answered[0]


def test_a_request_without_a_body_goes_straight_through():
    app = Recorder()
    assert call(reading_bodies_first(app), REQUEST_METHOD="GET") == "200 OK"
    assert app.environ["body"] == b""


def test_a_body_is_read_whole_before_the_app_sees_it():
    app = Recorder()
    body = b"points=12&seat=3"
    status = call(
        reading_bodies_first(app), CONTENT_LENGTH=str(len(body)), **{"wsgi.input": io.BytesIO(body)}
    )
    assert status == "200 OK"
    assert app.environ["body"] == body
    assert app.environ["CONTENT_LENGTH"] == str(len(body))


def test_a_chunked_body_longer_than_the_limit_is_refused():
    app = Recorder()
    status = call(
        reading_bodies_first(app),
        HTTP_TRANSFER_ENCODING="chunked",
        **{"wsgi.input": io.BytesIO(b"x" * (MAX_REQUEST_BODY + 10))},
    )
    assert status.startswith("413")
    assert app.environ is None


def test_a_body_cut_short_by_a_client_that_left_never_reaches_the_app():
    app = Recorder()
    status = call(
        reading_bodies_first(app), CONTENT_LENGTH="40", **{"wsgi.input": io.BytesIO(b"ab")}
    )
    assert status.startswith("400")
    assert app.environ is None


def test_an_address_sending_its_limit_of_bodies_is_told_to_come_back():
    reads = BodyReads()
    for _ in range(BodyReads.PER_ADDRESS):
        assert reads.start("10.0.0.5")
    app = Recorder()
    served = reading_bodies_first(app, reads)
    busy = call(served, CONTENT_LENGTH="3", **{"wsgi.input": io.BytesIO(b"abc")})
    assert busy.startswith("503")
    assert app.environ is None
    # Another phone is not held up by it, and once one body is in, the first may send again.
    other_phone = {"REMOTE_ADDR": "10.0.0.6", "wsgi.input": io.BytesIO(b"abc")}
    assert call(served, CONTENT_LENGTH="3", **other_phone) == "200 OK"
    reads.finish("10.0.0.5")
    assert call(served, CONTENT_LENGTH="3", **{"wsgi.input": io.BytesIO(b"abc")}) == "200 OK"


def test_all_addresses_together_have_a_limit_too():
    reads = BodyReads()
    for number in range(BodyReads.ALL):
        assert reads.start(f"10.0.1.{number}")
    assert not reads.start("10.0.2.1")
    reads.finish("10.0.1.0")
    assert reads.start("10.0.2.1")


def test_the_trusted_proxy_is_believed():
    app = Recorder()
    call(
        behind_a_proxy(app, "127.0.0.1, 10.9.0.0/16"),
        REMOTE_ADDR="10.9.3.4",
        HTTP_X_FORWARDED_FOR="203.0.113.9, 192.168.1.20",
        HTTP_X_FORWARDED_PROTO="https",
        **{"wsgi.url_scheme": "http"},
    )
    assert app.environ["REMOTE_ADDR"] == "192.168.1.20"  # the entry the proxy added
    assert app.environ["wsgi.url_scheme"] == "https"
    assert app.environ["HTTP_X_FORWARDED_PROTO"] == "https"


@pytest.mark.parametrize(
    "proxy, address",
    [("127.0.0.1", "192.168.1.50"), ("", "127.0.0.1")],
    ids=["anyone but the proxy", "no proxy set"],
)
def test_forwarded_headers_from_anyone_not_trusted_are_dropped(proxy, address):
    app = Recorder()
    call(
        behind_a_proxy(app, proxy),
        REMOTE_ADDR=address,
        HTTP_X_FORWARDED_FOR="10.0.0.1",
        HTTP_X_FORWARDED_PROTO="https",
        **{"wsgi.url_scheme": "http"},
    )
    assert app.environ["REMOTE_ADDR"] == address
    assert app.environ["wsgi.url_scheme"] == "http"
    assert "HTTP_X_FORWARDED_PROTO" not in app.environ
    assert "HTTP_X_FORWARDED_FOR" not in app.environ


def test_any_proxy_when_told_star():
    app = Recorder()
    call(behind_a_proxy(app, "*"), REMOTE_ADDR="172.16.0.9", HTTP_X_FORWARDED_FOR="10.1.1.1")
    assert app.environ["REMOTE_ADDR"] == "10.1.1.1"


def test_the_app_runs_on_so_many_threads_at_once_until_each_answer_is_closed():
    entered = []

    def app(environ, start_response):
        entered.append(environ["name"])
        start_response("200 OK", [])
        return [b"ok"]

    served = in_lanes(app, Lane(1), Lane(1))
    first = served({"name": "first"}, lambda *a: None)
    second = threading.Thread(target=served, args=({"name": "second"}, lambda *a: None))
    second.start()
    second.join(0.3)
    assert entered == ["first"]  # the second waits: the first answer is still being sent
    first.close()
    second.join(5)
    assert entered == ["first", "second"]


def test_password_posts_have_a_lane_of_their_own():
    """Two logins hashing hold the hashing lane; a poll still gets its turn at once,
    and a third login past the lane's waiting places is turned away, not queued."""
    release = threading.Event()

    def app(environ, start_response):
        if environ["REQUEST_METHOD"] == "POST":
            release.wait(5)
        start_response("200 OK", [])
        return [b"ok"]

    # Posts that will hash (which do is tests/test_password_lane.py's question).
    served = in_lanes(app, Lane(1), Lane(1, waiting=1), will_hash=lambda environ: True)
    login = {"REQUEST_METHOD": "POST", "PATH_INFO": "/login/"}
    logins = [threading.Thread(target=call, args=(served,), kwargs=login) for _ in range(2)]
    for thread in logins:
        thread.start()
    try:
        poll = threading.Thread(
            target=call, args=(served,), kwargs={"REQUEST_METHOD": "GET", "PATH_INFO": "/"}
        )
        poll.start()
        poll.join(2)
        assert not poll.is_alive()  # answered while both logins are in their lane
        assert call(served, **login).startswith("503")
    finally:
        release.set()
        for thread in logins:
            thread.join(5)
    assert call(served, **login) == "200 OK"


def test_the_password_paths_are_the_pages_that_check_passwords():
    for url in (reverse("login"), reverse("signup"), reverse("join", args=["abc"])):
        assert url.startswith(password_paths())
        assert posts_to_a_password_page({"REQUEST_METHOD": "POST", "PATH_INFO": url})
        assert not posts_to_a_password_page({"REQUEST_METHOD": "GET", "PATH_INFO": url})
    night_save = reverse("entry_save", args=[1])
    assert not posts_to_a_password_page({"REQUEST_METHOD": "POST", "PATH_INFO": night_save})


def test_turns_go_to_requests_in_the_order_they_came():
    lane = Lane(1)
    assert lane.enter()
    entered: list[int] = []

    def wait_in_line(number: int) -> None:
        lane.enter()
        entered.append(number)
        lane.leave()

    waiting = []
    for number in range(5):
        thread = threading.Thread(target=wait_in_line, args=(number,))
        thread.start()
        waiting.append(thread)
        time.sleep(0.05)  # each is in the queue before the next comes
    # One that comes just as the turn is handed on does not go before them.
    lane.leave()
    late = threading.Thread(target=wait_in_line, args=(99,))
    late.start()
    for thread in [*waiting, late]:
        thread.join(5)
    assert entered == [0, 1, 2, 3, 4, 99]


def test_a_login_turned_away_is_told_so_in_the_phones_language():
    def app(environ, start_response):
        start_response("200 OK", [])
        return [b"ok"]

    full = Lane(0, waiting=0)
    served = in_lanes(app, Lane(1), full, will_hash=lambda environ: True)
    answered = []
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/login/",
        "REMOTE_ADDR": "10.0.0.5",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "HTTP_ACCEPT_LANGUAGE": "nl,en;q=0.5",
        "wsgi.input": io.BytesIO(b""),
    }
    body = b"".join(served(environ, lambda status, headers: answered.append((status, headers))))
    status, headers = answered[0]
    assert status.startswith("503")
    assert ("Retry-After", "2") in headers
    assert body.decode() == "De server heeft het even druk. Probeer het zo opnieuw.\n"


def test_a_file_over_the_limit_is_refused_in_the_readers_words(db):
    # A spreadsheet of more than 1 MB: refused by its declared length, in Dutch.
    answered: list[str] = []
    environ = {
        "REMOTE_ADDR": "10.0.0.5",
        "CONTENT_LENGTH": str(2 * MAX_REQUEST_BODY),
        "HTTP_ACCEPT_LANGUAGE": "nl",
        "wsgi.input": io.BytesIO(b""),
    }
    words = b"".join(
        reading_bodies_first(Recorder())(environ, lambda status, headers: answered.append(status))
    ).decode()
    assert answered[0].startswith("413")
    assert "Dat is meer dan de app in één keer aanneemt (1 MB)." in words
