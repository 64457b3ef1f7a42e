"""The front on a public site (issue 42), attacked as the issue's attacker did, through
the front `make run` starts (`python -m ofcboard.serve --front yes`): held bodies do
not grow nginx past a bound, a client behind the table's router cannot stop the
table, the static files are limited too, an IPv6 /64 counts as one address, the
throttle remembers an address's count past 10,000 others, nginx writes no secret to
its log, and a front that dies is started again.

Each attack is a few seconds; the table's saves are timed as tests/test_front.py does.
"""

import contextlib
import os
import re
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import RequestFactory

from ofcboard import front
from scorekeeper.site.throttle import WRONG_CODES_PER_ADDRESS, count_wrong_code
from tests.helpers import make_night
from tests.test_front import (
    SAVE_SECONDS,
    Flood,
    play_rounds,
    refused_soon,
    status_from,
)
from tests.test_server_front import HeldBodies, from_address, phones_at
from tests.test_server_front import serving_the_test_database as serving

pytestmark = pytest.mark.skipif(front.find() is None, reason="nginx with Nchan is not installed")

PLAYERS = ("Anna", "Bram", "Chris")


def stop(process) -> None:
    process.terminate()
    process.wait(15)


@dataclass
class Served:
    process: subprocess.Popen
    port: int
    log: Path


@pytest.fixture(scope="module")
def served(django_db_setup, django_db_blocker, tmp_path_factory):
    """One server behind its front for the attacks below, each from addresses of its
    own (starting one is most of a test's time)."""
    log = tmp_path_factory.mktemp("front") / "server.log"
    with django_db_blocker.unblock():
        process, port = serving("tests.settings", "--front", "yes", output=log)
    yield Served(process, port, log)
    stop(process)


@pytest.fixture
def behind_the_front(served, transactional_db):
    return served.port


def nginx_of(server_pid: int) -> list[int]:
    """The front's nginx processes (its master, started by the server, and workers)."""
    found = []
    for pid in _children(server_pid):
        if "nginx" in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace"):
            found += [pid, *_children(pid)]
    return found


def _children(pid: int) -> list[int]:
    children = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        children += [int(child) for child in (task / "children").read_text().split()]
    return children


def megabytes(pids: list[int]) -> float:
    """Their resident memory together, in MB."""
    total = 0
    for pid in pids:
        status = Path(f"/proc/{pid}/status").read_text()
        total += int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))
    return total / 1024


class BigHeldBodies(HeldBodies):
    """Held bodies announcing a megabyte each, the most the front takes, whose first
    128 KB are sent (what nginx keeps of them is in its memory, or on disk); each is
    opened once, not again when refused."""

    START = 128 * 1024

    def _open(self, address: str) -> socket.socket:
        sock = from_address(address, self.port)
        sock.sendall(
            self.request.replace(b"Content-Length: 100\r\n", b"Content-Length: 1000000\r\n")
        )
        with contextlib.suppress(OSError):  # refused at once: nginx closed it
            sock.sendall(b"x" * self.START)
        sock.setblocking(False)
        return sock

    def _hold(self) -> None:
        self.stop.wait()


@pytest.mark.timed
def test_held_bodies_from_eight_addresses_keep_nginx_under_256_mb(served, transactional_db):
    """The issue's attack: 8 addresses holding 256 bodies each, announced at 1 MB, took
    nginx from 26 MB to 2,126 MB when it kept a whole body in memory."""
    before = megabytes(nginx_of(served.process.pid))
    held = BigHeldBodies(served.port, [f"127.0.7.{n}" for n in range(1, 9)], 8 * 256)
    try:
        time.sleep(1.5)
        during = megabytes(nginx_of(served.process.pid))
        assert status_from("127.0.8.1", served.port) == 200  # and the site answers others
    finally:
        held.close()
    assert during < 256, f"nginx went from {before:.0f} to {during:.0f} MB"
    assert during - before < 64, f"nginx went from {before:.0f} to {during:.0f} MB"


@pytest.mark.timed
def test_a_client_behind_the_tables_router_flooding_and_holding_bodies_does_not_stop_it(
    behind_the_front,
):
    """Six phones signed in behind one router, and a client on the same address holding
    256 bodies back and asking for pages on 300 connections: the six still save within
    2 s (counted by their passes), while the client is refused."""
    router = "127.0.9.1"
    nights = [make_night(PLAYERS), make_night(("Dirk", "Eva", "Femke"))]
    tables = [phones_at(behind_the_front, night, router) for night in nights]
    assert all(front.PASS_COOKIE in phone.cookie for phone in tables[0].values())
    held = HeldBodies(behind_the_front, [router], 256)
    flood = Flood(behind_the_front, router, 300)
    try:
        time.sleep(1)
        waits = [
            wait
            for night, table in zip(nights, tables, strict=True)
            for wait in play_rounds(table, night, 2)
        ]
        assert refused_soon(router, behind_the_front) == 503  # the client itself is stopped
    finally:
        flood.close()
        held.close()
    assert max(waits) < SAVE_SECONDS, sorted(waits)[-3:]


def test_a_made_up_pass_counts_as_none(behind_the_front):
    made_up = f"{front.PASS_COOKIE}=0123456789abcdef.4102444800.AAAAAAAAAAAAAAAAAAAAAA"
    flood = Flood(behind_the_front, "127.0.10.1", 300, f"Cookie: {made_up}\r\n")
    try:
        assert refused_soon("127.0.10.1", behind_the_front, f"Cookie: {made_up}\r\n") == 503
    finally:
        flood.close()


class StaticFlood(Flood):
    """A flood of asks for files under /static/ that are not there (Django's 404s)."""

    def _send(self, sock: socket.socket) -> None:
        sock.send(
            f"GET /static/nothing-{self.asked}.css HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Connection: close\r\n\r\n".encode()
        )
        self.asked += 1


@pytest.mark.timed
def test_a_flood_of_static_files_is_limited_like_any_other(behind_the_front):
    flood = StaticFlood(behind_the_front, "127.0.11.1", 300)
    try:
        assert refused_soon("127.0.11.1", behind_the_front) == 503
        assert status_from("127.0.11.2", behind_the_front) == 200
    finally:
        flood.close()


def wrong_code(port: int, proxy: str, address: str) -> int:
    """A join code that matches nothing, from ``address`` behind the trusted ``proxy``."""
    with from_address(proxy, port) as sock:
        sock.sendall(
            f"GET /join/WRONGC0DE/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: {address}\r\n"
            "Connection: close\r\n\r\n".encode()
        )
        return int(sock.recv(64).split()[1])


@pytest.mark.timed
def test_an_ipv6_64_counts_as_one_address(transactional_db):
    """Behind a trusted proxy, the addresses of one /64 share the front's limits and
    the throttle's count of wrong codes; another /64 is another address."""
    proxy = "127.0.12.1"
    with mock.patch.dict(os.environ, {"OFCBOARD_TRUSTED_PROXY": proxy}):
        process, port = serving("tests.settings", "--front", "yes")
    flood = Flood(port, proxy, 300, "X-Forwarded-For: 2001:db8:1:2::1\r\n")
    try:
        assert refused_soon(proxy, port, "X-Forwarded-For: 2001:db8:1:2:ffff:ee::9\r\n") == 503
        assert status_from(proxy, port, "X-Forwarded-For: 2001:db8:1:3::1\r\n") == 200
    finally:
        flood.close()
    try:
        allowed = int(WRONG_CODES_PER_ADDRESS.split("/")[0])
        answers = [wrong_code(port, proxy, f"2001:db8:5:6::{n:x}") for n in range(1, allowed + 1)]
        assert answers == [404] * allowed
        assert wrong_code(port, proxy, "2001:db8:5:6:abcd::1") == 429
        assert wrong_code(port, proxy, "2001:db8:5:7::1") == 404
    finally:
        stop(process)


@pytest.fixture
def throttle_in_the_database(transactional_db, settings):
    """The throttle's counts where `make run` keeps them, the database's cache."""
    settings.CACHES = {**settings.CACHES, "throttle": settings.THROTTLE_IN_THE_DATABASE}
    call_command("createcachetable", verbosity=0)


def test_an_address_past_its_limit_stays_refused_after_ten_thousand_others(
    throttle_in_the_database,
):
    """The issue's count: Django's database cache gave an address that had used its 30
    wrong codes 30 more once 400 others had tried one."""
    greedy, asking = RequestFactory().get("/"), RequestFactory().get("/")
    greedy.META["REMOTE_ADDR"] = "127.0.13.1"
    allowed = int(WRONG_CODES_PER_ADDRESS.split("/")[0])
    for _ in range(allowed):
        count_wrong_code(greedy)
    with transaction.atomic():  # one write to the disk, not 10,000
        for n in range(10_000):
            asking.META["REMOTE_ADDR"] = f"10.{n // 65536}.{n // 256 % 256}.{n % 256}"
            count_wrong_code(asking)
    with mock.patch.dict(os.environ, {"OFCBOARD_TRUSTED_PROXY": "127.0.13.9"}):
        process, port = serving("tests.settings_throttled", "--front", "yes")
    try:
        assert wrong_code(port, "127.0.13.9", "127.0.13.1") == 429
        assert wrong_code(port, "127.0.13.9", "127.0.13.2") == 404
    finally:
        stop(process)


SECRETS = ("JOINC0DE5", "S1GN1NC0DE", "SCREENT0KEN")


def test_nginx_writes_no_secret_to_its_log(served, transactional_db):
    """Every answer nginx writes a line for, each for an address with a secret in it
    (and a secret link as the referrer): the log has the lines, not the secrets."""
    join, sign_in, screen = SECRETS
    for path in (f"/join/{join}/", f"/signin/{sign_in}/", f"/screen/{screen}/live/"):
        with from_address("127.0.14.1", served.port) as sock:
            sock.sendall(
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000000\r\n"
                f"Referer: http://127.0.0.1/screen/{screen}/\r\n\r\n".encode()
            )
            assert sock.recv(64).startswith(b"HTTP/1.1 413")
    time.sleep(0.5)
    written = served.log.read_text()
    assert written.count("client intended to send too large body") >= 3
    assert not [secret for secret in SECRETS if secret in written], written


def test_a_front_that_dies_is_started_again_and_the_server_says_so(transactional_db, tmp_path):
    log = tmp_path / "server.log"
    process, port = serving("tests.settings", "--front", "yes", output=log)
    try:
        master = nginx_of(process.pid)[0]
        os.kill(master, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while "was started again" not in log.read_text():
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        # "Started again" is said as nginx is launched, a moment before it listens.
        deadline = time.monotonic() + 10
        status = 0
        while status != 200 and time.monotonic() < deadline:
            with contextlib.suppress(OSError, IndexError):  # refused, or cut unanswered
                status = status_from("127.0.15.1", port)
            time.sleep(0.1)
        assert status == 200
        assert process.poll() is None
    finally:
        stop(process)


def login_post_saying(scheme: str, address: str, port: int) -> int:
    """The status of a login post from ``address`` that says it came over ``scheme``
    (X-Forwarded-Proto), with a good CSRF token and no Referer: over HTTPS Django's
    CSRF check asks for a Referer and refuses it (403), over HTTP it lets it through."""
    token = "a" * 32
    body = f"csrfmiddlewaretoken={token}&username=Nobody&password=guess"
    with from_address(address, port, timeout=10) as sock:
        sock.sendall(
            f"POST /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            f"X-Forwarded-Proto: {scheme}\r\nCookie: csrftoken={token}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\n\r\n{body}".encode()
        )
        return int(sock.recv(64).split()[1])


def test_the_scheme_is_believed_from_the_trusted_proxy_alone(transactional_db):
    """Through the front: what the trusted proxy says of the scheme reaches the app; the
    same header from anyone else does not (the post is then plain HTTP to Django)."""
    proxy, stranger = "127.0.13.1", "127.0.14.1"
    with mock.patch.dict(os.environ, {"OFCBOARD_TRUSTED_PROXY": proxy}):
        process, port = serving("tests.settings", "--front", "yes")
    try:
        assert login_post_saying("https", proxy, port) == 403  # HTTPS: no Referer, refused
        assert login_post_saying("http", proxy, port) == 200  # the form again, in words
        assert login_post_saying("https", stranger, port) == 200  # not believed
    finally:
        stop(process)
