"""The server `make run` starts (ofcboard/serve.py), without its front: clients
dripping their headers do not keep a normal page from loading, wrong passwords sent
as fast as a script can do not slow the polls, several processes serve one port and
stop together. What a front does (bodies, sizes, rates) is tests/test_front.py's."""

import contextlib
import http.client
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterable
from pathlib import Path

import pytest
from django.test import Client

from ofcboard.ready import READY
from tests.helpers import make_night, start_server
from tests.test_many_nodes import database_url

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


def test_several_processes_serve_one_port_and_stop_together(tmp_path_factory):
    said = tmp_path_factory.mktemp("said") / "server.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('front')}/db.sqlite3",
        "OFCBOARD_TABLE": "1",
    }
    process, port = start_server(env, "--workers", "2", output=said)
    try:
        assert [page(port) for _ in range(4)] == [200] * 4
        deadline = time.monotonic() + 30
        while READY not in said.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1)  # the other process has loaded by now too
        lines = said.read_text().splitlines()
        # Said once, by the first of the two to load, and no process of its own for it:
        # the server's only children are its two server processes, forked from it.
        assert lines.count(READY) == 1, lines
        assert any("for a table's own Wi-Fi" in line for line in lines), lines
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
        command = Path(f"/proc/{process.pid}/cmdline").read_bytes()
        assert [Path(f"/proc/{child}/cmdline").read_bytes() for child in children] == [command] * 2
    finally:
        process.terminate()
        process.wait(10)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_a_stop_that_comes_while_the_server_is_starting_is_not_lost(tmp_path_factory):
    # The tests (and Ctrl-C in `make run`) may stop the server before its processes
    # have loaded Django; such a stop used to be lost and the server served on.
    for _ in range(3):
        process, port = start(tmp_path_factory, "--workers", "2")
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


# --- A table playing while someone on the Wi-Fi attacks the server ------------

PLAYERS = ("Anna", "Bram", "Chris")
POLL = re.compile(r'hx-get="(/nights/\d+/live/\?[^"]+)"')


def serving_the_test_database(
    settings_module: str = "tests.settings", *options: str, output: Path | None = None
) -> tuple:
    """The server as `make run` starts it, on the test's own database: (process, port);
    ``options`` as `python -m ofcboard.serve` takes them (``--front yes``), what it
    writes in the file ``output`` when given."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": settings_module,
        "DATABASE_URL": database_url(),
        "OFCBOARD_TABLE": "1",
    }
    env.pop("CACHE_URL", None)
    return start_server(env, *options, output=output)


class Phone:
    """A player's phone on the table's Wi-Fi: logged in, one connection kept open."""

    def __init__(self, port: int, session_key: str, address: str = "127.0.0.1") -> None:
        self.port = port
        self.csrf = secrets.token_hex(16)  # Django takes its own 32-character secret back
        self.cookie = f"sessionid={session_key}; csrftoken={self.csrf}"
        self.connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=30, source_address=(address, 0)
        )

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        headers = {"Cookie": self.cookie}
        body = None
        if form is not None:
            body = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": self.csrf})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
        except (http.client.HTTPException, OSError):
            # The server closed the kept-open connection (it does after a 503): a new one.
            self.connection.close()
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
        text = response.read().decode()
        # The front's pass (scorekeeper/site/front_pass.py), kept as a browser keeps it.
        if given := re.search(r"ofcfront=([^;]*)", response.getheader("Set-Cookie") or ""):
            self.cookie = re.sub(r"; ofcfront=[^;]*", "", self.cookie)
            self.cookie += f"; ofcfront={given.group(1)}" if given.group(1) else ""
        if response.getheader("Connection", "").lower() == "close":
            self.connection.close()
        return response.status, text

    def save(self, path: str, form: dict) -> float:
        """Tap Save: the seconds until the total is saved, sending it again after a 503
        as the phone's queue does."""
        tapped = time.monotonic()
        while True:
            status, _ = self.request("POST", path, form)
            if status == 302:
                return time.monotonic() - tapped
            assert status == 503, status
            assert time.monotonic() - tapped < 30, "never saved"
            time.sleep(0.2)


def phones_at(port: int, night, address: str = "127.0.0.1") -> dict[str, Phone]:
    """A phone for each player of ``night``, all on the Wi-Fi behind ``address``."""
    phones = {}
    for seat in night.seats.all():
        client = Client()
        client.force_login(seat.user)
        phones[seat.name] = Phone(port, client.cookies["sessionid"].value, address)
        phones[seat.name].request("GET", "/")  # its first page, and with it its pass
    return phones


def save_at_once(phones: dict[str, Phone], night, forms: dict[str, dict]) -> list[float]:
    """Each player in ``forms`` taps Save on their phone at the same instant: how long
    each save took to go through."""
    waits: list[float] = []
    taps = [
        threading.Thread(
            target=lambda name=name: waits.append(
                phones[name].save(f"/nights/{night.pk}/entry/", forms[name])
            )
        )
        for name in forms
    ]
    for tap in taps:
        tap.start()
    for tap in taps:
        tap.join(40)
    return waits


def from_address(address: str, port: int, timeout: float = 5) -> socket.socket:
    sock = socket.socket()
    sock.settimeout(timeout)
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", port))
    return sock


class HeldBodies:
    """Connections that send a post's headers with a Content-Length and then no body,
    from several addresses; one the server answers and closes is opened again, so
    there are always ``count`` of them."""

    def __init__(self, port: int, addresses: list[str], count: int) -> None:
        self.port = port
        self.request = (
            b"POST /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n"
        )
        self.addresses = [addresses[n % len(addresses)] for n in range(count)]
        self.sockets = [self._open(address) for address in self.addresses]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._hold, daemon=True)
        self.thread.start()

    def _open(self, address: str) -> socket.socket:
        sock = from_address(address, self.port)
        sock.sendall(self.request)
        sock.setblocking(False)
        return sock

    def _hold(self) -> None:
        while not self.stop.wait(0.5):
            for index, sock in enumerate(self.sockets):
                try:
                    sock.recv(4096)
                except BlockingIOError:
                    continue  # still held open, still unanswered
                except OSError:
                    pass
                # Answered (a 503) or closed: another one takes its place.
                sock.close()
                with contextlib.suppress(OSError):
                    self.sockets[index] = self._open(self.addresses[index])

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        for sock in self.sockets:
            sock.close()


def poll_latencies(phones: Iterable[Phone], poll: str, seconds: float) -> list[float]:
    """Each phone polls in turn for ``seconds``: how long each poll took."""
    latencies: list[float] = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        for phone in phones:
            asked = time.monotonic()
            assert phone.request("GET", poll)[0] == 204
            latencies.append(time.monotonic() - asked)
        time.sleep(0.1)
    return latencies


@pytest.mark.django_db(transaction=True)
@pytest.mark.timed
def test_wrong_passwords_as_fast_as_twelve_threads_can_leave_polls_quick():
    night = make_night(PLAYERS)
    process, port = serving_the_test_database("tests.settings_hashing")
    try:
        phones = phones_at(port, night)
        _, page = phones["Anna"].request("GET", f"/nights/{night.pk}/")
        poll = POLL.search(page).group(1).replace("&amp;", "&")
        assert phones["Anna"].request("GET", poll)[0] == 204
        alone = poll_latencies(phones.values(), poll, seconds=1.5)

        stop = threading.Event()
        tries = iter(range(10**6))
        hashed: list[int] = []

        def wrong_passwords() -> None:
            # A name nobody has and an address of its own each time, so the login limit
            # never turns one away before its password is hashed.
            csrf = secrets.token_hex(16)
            while not stop.is_set():
                n = next(tries)
                body = urllib.parse.urlencode(
                    {"username": f"nobody{n}", "password": "wrong", "csrfmiddlewaretoken": csrf}
                ).encode()
                address = f"127.0.{1 + n // 250}.{1 + n % 250}"
                with contextlib.suppress(OSError), from_address(address, port, 30) as sock:
                    sock.sendall(
                        b"POST /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                        b"Cookie: csrftoken=%s\r\n"
                        b"Content-Type: application/x-www-form-urlencoded\r\n"
                        b"Content-Length: %d\r\n\r\n%s" % (csrf.encode(), len(body), body)
                    )
                    answer = sock.recv(20)
                    hashed.append(int(answer.split()[1]))
                    if answer.startswith(b"HTTP/1.1 503"):
                        time.sleep(0.1)

        # More than the server's THREADS (8): without the hashing lane of its own,
        # every thread would be hashing a wrong password and the polls would wait.
        attackers = [threading.Thread(target=wrong_passwords) for _ in range(12)]
        for thread in attackers:
            thread.start()
        try:
            time.sleep(1)  # the lane is full
            attacked = poll_latencies(phones.values(), poll, seconds=3)
        finally:
            stop.set()
            for thread in attackers:
                thread.join(60)
        assert hashed.count(200) >= 3  # they were answered, password by password
        # Against the same polls on the same machine just before: a poll waiting for a
        # thread behind the hashing (half a second each) would take seconds; a machine
        # busy with other tests slows both alike.
        p95, before = (statistics.quantiles(runs, n=20)[-1] for runs in (attacked, alone))
        assert p95 < max(0.2, 4 * before), (
            f"p95 {p95 * 1000:.0f} ms over {len(attacked)} polls, {before * 1000:.0f} ms before"
        )
    finally:
        process.terminate()
        process.wait(10)
