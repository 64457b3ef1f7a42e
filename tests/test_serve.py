"""The server's own wrappers around the app (ofcboard/serve.py, ofcboard/lanes.py),
called as the server calls them: the app in two lanes (password hashing in its own),
and the phone's address the front passed on believed behind the front only."""

import io
import threading
import time

from django.urls import reverse

from ofcboard.lanes import Lane, in_lanes, password_paths, posts_to_a_password_page
from ofcboard.serve import served


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


def test_behind_the_front_the_phones_address_is_the_one_the_front_passed_on():
    app = Recorder()
    call(
        served(app, threads=1, behind_the_front=True),
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="192.168.1.20",
    )
    assert app.environ["REMOTE_ADDR"] == "192.168.1.20"


def test_without_the_front_nobodys_forwarded_address_is_believed():
    app = Recorder()
    call(
        served(app, threads=1, behind_the_front=False),
        REMOTE_ADDR="192.168.1.50",
        HTTP_X_FORWARDED_FOR="10.0.0.1",
        **{"wsgi.url_scheme": "http"},
    )
    assert app.environ["REMOTE_ADDR"] == "192.168.1.50"
    assert app.environ["wsgi.url_scheme"] == "http"


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
