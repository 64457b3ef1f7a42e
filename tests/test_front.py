"""The site behind its front, as `make run` starts it where nginx and Nchan are
installed (`python -m ofcboard.serve --front yes`, ofcboard/front.py): a save reaches
the other phones' streams at once, and no client on the Wi-Fi, or on the internet, can
stall the table's saves by holding bodies back or by asking too much.

Without the front the server is for a table's own Wi-Fi and holds off none of these
(ofcboard/serve.py).
"""

import contextlib
import html
import json
import os
import re
import secrets
import selectors
import socket
import threading
import time
import urllib.request
from unittest import mock

import pytest
from django.conf import settings

from ofcboard import front, front_process
from ofcboard.ready import in_language
from ofcboard.refusals import BUSY
from scorekeeper.models import Entry, Night, User
from scorekeeper.site.front_pass import front_secret, signed_stream
from tests.helpers import free_port, listens, make_night, play
from tests.test_server_front import (
    HeldBodies,
    Phone,
    from_address,
    phones_at,
    save_at_once,
    serving_the_test_database,
)

pytestmark = pytest.mark.skipif(front.find() is None, reason="nginx with Nchan is not installed")

PLAYERS = ("Anna", "Bram", "Chris")
# Saves must go through within this while the attacks go on.
SAVE_SECONDS = 2


@pytest.fixture
def behind_the_front(transactional_db):
    process, port = serving_the_test_database("tests.settings", "--front", "yes")
    yield port
    process.terminate()
    process.wait(15)


class Stream:
    """A page's stream, read on a socket of its own: the versions it was told. Opened
    with no cookie at all: its signed address is all it takes."""

    def __init__(self, port: int, path: str, last_event_id: str = "") -> None:
        # With ``last_event_id``, as a browser's EventSource opens it again after a drop.
        again = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id else ""
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
            f"{again}\r\n".encode()
        )
        self.said = b""
        self.head = self._read_until(b"\r\n\r\n")

    def _read_until(self, end: bytes) -> bytes:
        while end not in self.said:
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            self.said += chunk
        head, _, self.said = self.said.partition(end)
        return head

    def next_version(self, within: float) -> str:
        """The next "version N" said, waiting ``within`` seconds at most."""
        self.sock.settimeout(within)
        while True:
            event = self._read_until(b"\n\n").decode()
            for line in event.splitlines():
                if line.startswith("data: version "):
                    return line.removeprefix("data: version ")

    def next_message(self, within: float) -> tuple[str, str]:
        """The next message's version and what it carries besides ("" if nothing)."""
        self.sock.settimeout(within)
        while True:
            lines = self._read_until(b"\n\n").decode().splitlines()
            data = [line.removeprefix("data: ") for line in lines if line.startswith("data: ")]
            if data and data[0].startswith("version "):
                return data[0].removeprefix("version "), "\n".join(data[1:])

    def messages_within(self, within: float) -> list[tuple[str, str]]:
        """Each message (its id, its version) said within ``within`` seconds."""
        self.sock.settimeout(within)
        with contextlib.suppress(TimeoutError):
            while chunk := self.sock.recv(4096):
                self.said += chunk
        return re.findall(r"id: (\S+)\r?\ndata: version (\d+)", self.said.decode())

    def close(self) -> None:
        self.sock.close()


def a_round(night: Night, number: int, players: tuple[str, ...]) -> dict[str, dict]:
    """Each player's form for round ``number``: totals adding up to zero."""
    seats = {seat.name: seat.pk for seat in night.seats.all()}
    totals = {name: number for name in players[1:]}
    totals[players[0]] = -number * (len(players) - 1)
    return {
        name: {"round": number, "seat": seats[name], "points": totals[name]} for name in players
    }


def play_rounds(phones: dict[str, Phone], night: Night, rounds: int) -> list[float]:
    """Every phone saves its total of each round at the same instant: how long each
    save took to go through."""
    waits: list[float] = []
    players = tuple(phones)
    for number in range(1, rounds + 1):
        waits += save_at_once(phones, night, a_round(night, number, players))
    assert len(waits) == rounds * len(players)
    recorded = Entry.objects.filter(round__night=night, round__recorded_at__isnull=False)
    assert recorded.count() == rounds * len(players)
    return waits


def named_stream(page: str) -> str:
    """The stream a page names (data-stream), as a browser reads the attribute."""
    found = re.search(r'data-stream="([^"]+)"', page)
    assert found, "the page names no stream"
    return html.unescape(found.group(1))


def test_a_save_reaches_the_other_phones_streams_at_once(behind_the_front):
    night = make_night(PLAYERS)
    phones = phones_at(behind_the_front, night)
    # Each page says where its stream is, and loads what listens to it.
    _, page = phones["Bram"].request("GET", f"/nights/{night.pk}/")
    assert "ofcboard/live." in page
    _, group_page = phones["Chris"].request("GET", f"/groups/{night.group_id}/")
    night_stream = Stream(behind_the_front, named_stream(page))
    group_stream = Stream(behind_the_front, named_stream(group_page))
    try:
        assert named_stream(page).startswith(f"/streams/night-{night.pk}?expires=")
        assert night_stream.head.startswith(b"HTTP/1.1 200")
        assert b"text/event-stream" in night_stream.head
        saved = time.monotonic()
        phones["Anna"].save(f"/nights/{night.pk}/entry/", a_round(night, 1, PLAYERS)["Anna"])
        told = night_stream.next_version(within=1)
        assert time.monotonic() - saved < 1
        night.refresh_from_db()
        assert told == str(night.version)
        assert group_stream.next_version(within=1) == night.group.nights_version()
    finally:
        night_stream.close()
        group_stream.close()


def test_a_late_rounds_message_carries_each_phones_part_whole(behind_the_front):
    """Fifty rounds in, the page open in English, Dutch and German, a total saved: the
    message on the night's stream carries the night page's live part in each (some
    35 KB, more than nginx keeps of a body in memory) whole, and Bram's part in it is
    what his phone fetches."""
    night = make_night(PLAYERS)
    play(night, *[{"Anna": 2, "Bram": -1, "Chris": -1}] * 50)
    phones = phones_at(behind_the_front, night)
    _, page = phones["Bram"].request("GET", f"/nights/{night.pk}/")
    for name, language in (("Chris", "nl"), ("Anna", "de")):
        phones[name].cookie += f"; {settings.LANGUAGE_COOKIE_NAME}={language}"
        assert phones[name].request("GET", f"/nights/{night.pk}/")[0] == 200
    stream = Stream(behind_the_front, named_stream(page))
    try:
        saved = a_round(night, 51, PLAYERS)["Anna"]
        phones["Anna"].save(f"/nights/{night.pk}/entry/", saved)
        version, carried_line = stream.next_message(within=2)
    finally:
        stream.close()
    night.refresh_from_db()
    assert version == str(night.version)
    assert len(carried_line.encode()) > 32 * 1024
    carried = json.loads(carried_line)
    assert sorted(carried["in"]) == ["de", "en", "nl"]
    parts = carried["in"]["en"]
    bram = User.objects.get(name="Bram")
    own = parts["own"][parts["of"].get(str(bram.pk), 0)]
    shown = "".join(parts["shared"][piece] if isinstance(piece, int) else piece for piece in own)
    seat = night.seats.get(name="Bram").pk
    _, fetched = phones["Bram"].request(
        "GET", f"/nights/{night.pk}/live/?version=0&round=51&seat={seat}"
    )
    assert shown == fetched


@pytest.fixture
def the_front_alone():
    """nginx as the server starts it, with no app behind it: its phones' port, the port
    the app publishes on, and the secret that signs the streams."""
    listen, publish = (f"127.0.0.1:{port}" for port in (free_port(), free_port()))
    secret = "the front's own"
    started = front_process.start(
        front.find(), listen=listen, apps=["127.0.0.1:9"], publish=publish, pass_secret=secret
    )
    try:
        port = int(listen.rsplit(":", 1)[1])
        deadline = time.monotonic() + 10
        while not listens(port):
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.05)
        yield port, publish, secret
    finally:
        started.stop()


def told(port: int, path: str, last_event_id: str = "") -> list[tuple[str, str]]:
    """Each message (its id, its version) a stream opened now is told within 1 s."""
    stream = Stream(port, path, last_event_id)
    try:
        return stream.messages_within(1)
    finally:
        stream.close()


def test_a_phone_back_on_its_stream_is_told_the_newer_of_two_versions_posted_out_of_order(
    the_front_alone,
):
    """Two app processes (or nodes) post their messages in either order. A phone whose
    stream was down while version 8 and then 7 were posted is told both when it comes
    back, and shows 8 (live.js passes over an older version); told only the last, it
    showed 7 until the next change. A night's page opening its stream anew is told
    both too, and passes over the versions it shows already; a group's page is told
    the last alone."""
    port, publish, secret = the_front_alone
    path = signed_stream(secret, "night-7", time.time())

    def post(channel: str, version: int) -> None:
        request = urllib.request.Request(
            f"http://{publish}/{channel}", data=f"version {version}".encode(), method="POST"
        )
        with urllib.request.urlopen(request, timeout=5) as answer:
            assert answer.status in (201, 202)

    post("night-7", 5)
    ((seen, version),) = told(port, path)
    assert version == "5"
    post("night-7", 8)
    post("night-7", 7)
    assert [version for _, version in told(port, path, last_event_id=seen)] == ["8", "7"]
    assert [version for _, version in told(port, path)] == ["8", "7"]
    # A group's fingerprint has no order (its pages ask whenever it differs from
    # theirs): a page opening its stream is told the last alone, nothing to ask about.
    group = signed_stream(secret, "group-7", time.time())
    post("group-7", 111)
    post("group-7", 222)
    assert [version for _, version in told(port, group)] == ["222"]


def status_of(port: int, path: str) -> int:
    stream = Stream(port, path)
    try:
        return int(stream.head.split()[1])
    finally:
        stream.close()


def test_the_front_alone_checks_a_streams_pass(behind_the_front):
    """Signed as the served app signs (its secret drawn from the same SECRET_KEY): a good
    pass streams without any cookie, so without the app, which would send a phone with
    no session to log in; a pass made up, another channel's or one whose hour is over
    is refused by nginx."""
    night = make_night(PLAYERS)
    secret = front_secret(settings.SECRET_KEY)
    now = time.time()
    good = signed_stream(secret, f"night-{night.pk}", now)
    stream = Stream(behind_the_front, good)
    try:
        assert stream.head.startswith(b"HTTP/1.1 200")
        assert b"text/event-stream" in stream.head
        assert b"Set-Cookie" not in stream.head  # no answer of the app's
    finally:
        stream.close()
    forged = re.sub(r"pass=.", lambda found: "pass=B" if found[0] != "pass=B" else "pass=C", good)
    another = signed_stream(secret, f"night-{night.pk + 1}", now)
    other_channel = another.replace(f"night-{night.pk + 1}", f"night-{night.pk}")
    over = signed_stream(secret, f"night-{night.pk}", now - 3 * 60 * 60)
    wrong_secret = signed_stream("not the secret", f"night-{night.pk}", now)
    statuses = {
        "made up": status_of(behind_the_front, forged),
        "another channel's": status_of(behind_the_front, other_channel),
        "another secret's": status_of(behind_the_front, wrong_secret),
        "none": status_of(behind_the_front, f"/streams/night-{night.pk}"),
        "over": status_of(behind_the_front, over),
    }
    assert statuses == {
        "made up": 403,
        "another channel's": 403,
        "another secret's": 403,
        "none": 403,
        "over": 410,
    }


def a_page(headers: str = "") -> bytes:
    """A request for the login page, with ``headers`` ("Name: value\\r\\n" each)."""
    return f"GET /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}Connection: close\r\n\r\n".encode()


class Flood:
    """``count`` connections from one address, each asking for a page again as soon as
    it is answered (or refused), on one thread."""

    def __init__(self, port: int, address: str, count: int, headers: str = "") -> None:
        self.port, self.address = port, address
        self.request = a_page(headers)
        self.selector = selectors.DefaultSelector()
        self.asked = 0
        for _ in range(count):
            self._open()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._ask, daemon=True)
        self.thread.start()

    def _open(self) -> None:
        with contextlib.suppress(OSError):
            sock = from_address(self.address, self.port)
            sock.setblocking(False)
            self._send(sock)
            self.selector.register(sock, selectors.EVENT_READ)

    def _send(self, sock: socket.socket) -> None:
        sock.send(self.request)
        self.asked += 1

    def _ask(self) -> None:
        while not self.stop.is_set():
            for key, _ in self.selector.select(timeout=0.2):
                sock = key.fileobj
                with contextlib.suppress(OSError):
                    if sock.recv(65536):  # type: ignore[union-attr]
                        continue
                # Answered in full (the server closed it): ask again on a new one.
                self.selector.unregister(sock)
                sock.close()  # type: ignore[union-attr]
                self._open()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]


@pytest.mark.timed
def test_held_bodies_and_a_flood_from_one_address_leave_every_save_going_through(
    behind_the_front,
):
    """128 bodies announced and never sent, from 32 addresses, and 300 connections
    asking for pages from one more: the table's saves still go through within 2 s."""
    night = make_night(PLAYERS)
    phones = phones_at(behind_the_front, night)
    held = HeldBodies(behind_the_front, [f"127.0.1.{n}" for n in range(1, 33)], 128)
    flood = Flood(behind_the_front, "127.0.2.1", 300)
    try:
        time.sleep(1)  # every body is announced, the flood is on
        waits = play_rounds(phones, night, rounds=3)
        assert flood.asked > 300  # the flood kept asking all along
    finally:
        flood.close()
        held.close()
    assert max(waits) < SAVE_SECONDS, sorted(waits)[-3:]


@pytest.mark.timed
def test_a_seventh_client_behind_the_tables_router_does_not_stop_the_table(behind_the_front):
    """Six phones behind one address (a router, a public site: two tables of three, as
    OFC seats four at most) and, on the same address, a client holding 100 bodies
    back: the six still save within 2 s."""
    router = "127.0.3.1"
    nights = [make_night(PLAYERS), make_night(("Dirk", "Eva", "Femke"))]
    phones = [phones_at(behind_the_front, night, router) for night in nights]
    held = HeldBodies(behind_the_front, [router], 100)
    try:
        time.sleep(1)
        waits = [
            wait
            for night, table in zip(nights, phones, strict=True)
            for wait in play_rounds(table, night, 2)
        ]
    finally:
        held.close()
    assert max(waits) < SAVE_SECONDS, sorted(waits)[-3:]


def test_an_address_asking_too_much_is_told_in_its_language_by_the_front(behind_the_front):
    flood = Flood(behind_the_front, "127.0.4.1", 300)
    try:
        # Once the flood holds past the address's limit (a busy machine opens its
        # connections more slowly).
        deadline = time.monotonic() + 10
        answer = b""
        while not answer.startswith(b"HTTP/1.1 503") and time.monotonic() < deadline:
            time.sleep(0.5)
            with from_address("127.0.4.1", behind_the_front) as sock:
                sock.sendall(
                    b"GET /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: nl\r\n"
                    b"Connection: close\r\n\r\n"
                )
                answer = b""
                while chunk := sock.recv(4096):
                    answer += chunk
    finally:
        flood.close()
    assert answer.startswith(b"HTTP/1.1 503")
    assert b"Retry-After: 2" in answer
    dutch = in_language(BUSY, "nl")
    assert dutch != BUSY
    assert dutch.encode() in answer


def test_every_refusal_is_in_the_phones_language_whichever_limit_refuses_it(behind_the_front):
    """An address holding more connections than it may, asking faster than it may: the
    first refusals are the holds', those past the rate's burst the rate's. Each is the
    front's page in Dutch, never nginx's own (the refusal's page must not be refused
    again by the limit that had not run)."""
    address = "127.0.4.2"
    held = HeldBodies(behind_the_front, [address], 100)
    ask = b"GET /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: nl\r\n"
    try:
        time.sleep(1)  # every body is announced
        with from_address(address, behind_the_front, timeout=20) as sock:
            # Sent at once, so the rate's burst is passed whatever the machine's speed.
            sock.sendall((ask + b"\r\n") * 399 + ask + b"Connection: close\r\n\r\n")
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
    finally:
        held.close()
    refusals = answer.split(b"HTTP/1.1 ")[1:]
    assert len(refusals) == 400
    dutch = in_language(BUSY, "nl").encode()
    not_dutch = [r[:200] for r in refusals if not (r.startswith(b"503") and dutch in r)]
    assert not_dutch == [], not_dutch[:2]


def refused_soon(address: str, port: int, headers: str = "") -> int:
    """The status of a page asked from ``address`` once a flood from there holds past
    its limit (a busy machine opens the flood's connections more slowly): 503, or the
    last status asked within 10 s."""
    deadline = time.monotonic() + 10
    while (status := status_from(address, port, headers)) != 503 and time.monotonic() < deadline:
        time.sleep(0.5)
    return status


def status_from(address: str, port: int, headers: str = "") -> int:
    with from_address(address, port) as sock:
        sock.sendall(a_page(headers))
        return int(sock.recv(64).split()[1])


@pytest.mark.timed
def test_behind_a_load_balancer_the_limits_count_phones_not_the_balancer(transactional_db):
    """A TLS load balancer before the front (OFCBOARD_TRUSTED_PROXY): one phone behind it
    asking too much is stopped, the others behind it are not; anyone else claiming an
    address in the header is counted as the address it comes from."""
    balancer, elsewhere = "127.0.5.1", "127.0.6.1"
    with mock.patch.dict(os.environ, {"OFCBOARD_TRUSTED_PROXY": balancer}):
        process, port = serving_the_test_database("tests.settings", "--front", "yes")
    greedy = Flood(port, balancer, 300, "X-Forwarded-For: 203.0.113.9\r\n")
    liar = Flood(port, elsewhere, 300, "X-Forwarded-For: 203.0.113.77\r\n")
    try:
        assert refused_soon(balancer, port, "X-Forwarded-For: 203.0.113.9\r\n") == 503
        assert status_from(balancer, port, "X-Forwarded-For: 203.0.113.10\r\n") == 200
        assert refused_soon(elsewhere, port, "X-Forwarded-For: 203.0.113.11\r\n") == 503
    finally:
        greedy.close()
        liar.close()
        process.terminate()
        process.wait(15)


@pytest.mark.skipif(
    not os.environ.get("OFCBOARD_TEST_CACHE_URL"), reason="needs a Redis (make test starts one)"
)
def test_two_nodes_fronts_share_their_streams_through_redis(transactional_db):
    """Two app nodes, each with its own front, the fronts' channels in one Redis (as the
    README's many-tables setup runs them): a save on one node reaches a phone whose
    stream is held by the other node's front."""
    night = make_night(PLAYERS)
    redis = {
        "OFCBOARD_PUSH_REDIS": os.environ["OFCBOARD_TEST_CACHE_URL"].rsplit("/", 1)[0],
        "OFCBOARD_PUSH_NAMESPACE": f"test-{secrets.token_hex(4)}",
    }
    nodes = []
    try:
        with mock.patch.dict(os.environ, redis):
            for _ in range(2):
                nodes.append(serving_the_test_database("tests.settings", "--front", "yes"))
        (_, saving), (_, listening) = nodes
        _, page = phones_at(listening, night)["Bram"].request("GET", f"/nights/{night.pk}/")
        stream = Stream(listening, named_stream(page))
        try:
            assert stream.head.startswith(b"HTTP/1.1 200")
            anna = phones_at(saving, night)["Anna"]
            anna.save(f"/nights/{night.pk}/entry/", a_round(night, 1, PLAYERS)["Anna"])
            told = stream.next_version(within=2)
            night.refresh_from_db()
            assert told == str(night.version)
        finally:
            stream.close()
    finally:
        for process, _ in nodes:
            process.terminate()
            process.wait(15)
