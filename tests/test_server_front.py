"""The server `make run` starts (ofcboard/serve.py) holds against slow and huge
requests: clients dripping their headers or their bodies do not keep a normal page
from loading, and a body declared too big is refused before it is sent."""

import contextlib
import http.client
import os
import socket
import subprocess
import sys
import threading
import time

import pytest

from ofcboard.serve import MAX_REQUEST_BODY, BodyReads
from tests.helpers import start_server

SLOW_CLIENTS = 40


def start(tmp_path_factory, *options: str) -> tuple[subprocess.Popen, int]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('front')}/db.sqlite3",
        "OFCBOARD_TABLE": "1",
    }
    return start_server(env, *options)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    process, port = start(tmp_path_factory)
    yield port
    process.terminate()
    process.wait(10)


def page(port: int, path: str = "/login/") -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


HEADERS_NEVER_FINISHED = (b"GET /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"X-Slow: a\r\n")
# A form post just under the limit whose body comes a byte at a time.
BODY_NEVER_FINISHED = (
    b"POST /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Type: application/x-www-form-urlencoded\r\n"
    b"Content-Length: %d\r\n\r\nusername=" % (MAX_REQUEST_BODY - 1),
    b"a",
)


class Drippers:
    """Clients that send the start of a request, then a little more every 0.3 s,
    never finishing it."""

    def __init__(self, port: int, count: int, request: tuple[bytes, bytes]) -> None:
        start, self.more = request
        self.sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
        for sock in self.sockets:
            sock.sendall(start)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._drip, daemon=True)
        self.thread.start()

    def _drip(self) -> None:
        while not self.stop.wait(0.3):
            for sock in self.sockets:
                with contextlib.suppress(OSError):  # those the server answered and closed
                    sock.sendall(self.more)

    def still_connected(self) -> int:
        alive = 0
        for sock in self.sockets:
            try:
                sock.sendall(self.more)
                alive += 1
            except OSError:
                pass
        return alive

    def answers(self) -> list[bytes]:
        """The start of what the server answered each of them so far (b"" for none)."""
        answers = []
        for sock in self.sockets:
            sock.settimeout(0.5)
            try:
                answers.append(sock.recv(200))
            except TimeoutError:
                answers.append(b"")
            except OSError:
                answers.append(b"closed")
        return answers

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        for sock in self.sockets:
            sock.close()


def test_forty_clients_dripping_headers_do_not_hold_up_a_normal_page(server):
    assert page(server) == 200
    drippers = Drippers(server, SLOW_CLIENTS, HEADERS_NEVER_FINISHED)
    try:
        time.sleep(1)  # they are all in the middle of their headers now
        for _ in range(5):
            started = time.monotonic()
            assert page(server) == 200
            # A generous bound: the threaded gunicorn of before did not answer in 30 s.
            assert time.monotonic() - started < 5
        assert drippers.still_connected() == SLOW_CLIENTS  # held by the server, not dropped
    finally:
        drippers.close()


def test_forty_bodies_dripping_from_one_address_hold_four_threads_at_most(server):
    drippers = Drippers(server, SLOW_CLIENTS, BODY_NEVER_FINISHED)
    try:
        time.sleep(1)
        for _ in range(5):
            started = time.monotonic()
            assert page(server) == 200
            assert time.monotonic() - started < 5
        answers = drippers.answers()
        busy = [answer for answer in answers if answer.startswith(b"HTTP/1.1 503")]
        assert len(busy) == SLOW_CLIENTS - BodyReads.PER_ADDRESS
        assert answers.count(b"") == BodyReads.PER_ADDRESS  # still sending, still waited for
    finally:
        drippers.close()


def test_a_body_declared_too_big_is_refused_without_being_read(server):
    with socket.create_connection(("127.0.0.1", server), timeout=10) as sock:
        sock.sendall(
            b"POST /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: multipart/form-data; boundary=x\r\n"
            b"Content-Length: %d\r\n\r\n" % (100 * 1024 * 1024)
        )
        # Not a byte of the 100 MB is sent: the answer comes from the declared length.
        answer = sock.recv(200)
    assert answer.startswith(b"HTTP/1.1 413")


def test_a_body_just_under_the_limit_still_reaches_the_app(server):
    with socket.create_connection(("127.0.0.1", server), timeout=10) as sock:
        body = b"x" * (MAX_REQUEST_BODY - 1)
        sock.sendall(
            b"POST /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            b"Content-Type: application/octet-stream\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body) + body
        )
        answer = sock.recv(200)
    # The app itself answers (its CSRF check refuses a form without a token).
    assert answer.startswith(b"HTTP/1.1 403")


def test_several_processes_serve_one_port_and_stop_together(tmp_path_factory):
    process, port = start(tmp_path_factory, "--workers", "2")
    try:
        assert [page(port) for _ in range(4)] == [200] * 4
    finally:
        process.terminate()
        process.wait(10)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_a_second_server_on_the_same_port_stops_and_says_why(server):
    second = subprocess.run(
        [sys.executable, "-m", "ofcboard.serve", "--host", "127.0.0.1", "--port", str(server)],
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "OFCBOARD_TABLE": "1"},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert second.returncode == 1
    assert f"Port {server} is in use already" in second.stderr
    assert page(server) == 200  # the first one serves on
