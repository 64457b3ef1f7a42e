"""Two app nodes on one database (and one Redis cache when OFCBOARD_TEST_CACHE_URL
gives one, as `make test` does): phones play a night against both at random, with
double taps landing on different nodes. Nothing is lost or doubled, a write on one
node is seen by a poll on the other at once, and both nodes show the same night.

`make test` runs it on SQLite and again on PostgreSQL, where the nodes share the
database the way several machines would.
"""

import os
import random
import re
import subprocess
import threading
import time
import urllib.parse
from http.cookiejar import Cookie, CookieJar
from urllib.error import HTTPError
from urllib.request import HTTPCookieProcessor, HTTPRedirectHandler, build_opener

import pytest
from django.db import connection
from django.test import Client

from scorekeeper.models import Entry, Night
from tests.helpers import make_group, make_night, start_server

pytestmark = pytest.mark.database

ROUNDS = 6
PLAYERS = ("Anna", "Bram", "Chris")
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
OPEN_ROUND = re.compile(r'name="round" value="(\d+)"')
POLL = re.compile(r'hx-get="(/nights/\d+/live/\?version=\d+)')


def points(number: int) -> dict[str, int]:
    """Round ``number``'s totals: they add up to zero, as a round's must."""
    return {"Anna": number, "Bram": -2 * number, "Chris": number}


def database_url() -> str:
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    host = settings["HOST"] or ""
    port = f":{settings['PORT']}" if settings["PORT"] else ""
    login = settings["USER"] or ""
    if settings["PASSWORD"]:
        login += ":" + urllib.parse.quote(settings["PASSWORD"])
    return f"postgres://{login}{'@' if login else ''}{host}{port}/{settings['NAME']}"


def start_node(env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    process, port = start_server(env)
    return process, f"http://127.0.0.1:{port}"


class _Stay(HTTPRedirectHandler):
    """A saved entry answers with a redirect: the phone reads the answer itself."""

    def redirect_request(self, *args, **kwargs):
        return None


class Phone:
    """One player's phone, logged in once, talking to whichever node it is sent to."""

    def __init__(self, name: str, session_key: str, night: Night, nodes: list[str]) -> None:
        self.name, self.night, self.nodes = name, night, nodes
        self.seat = night.seats.get(name=name).pk
        jar = CookieJar()
        for node in nodes:
            host = urllib.parse.urlsplit(node).hostname
            jar.set_cookie(_cookie("sessionid", session_key, host))
        self.opener = build_opener(HTTPCookieProcessor(jar), _Stay())
        self.random = random.Random(name)

    def node(self) -> str:
        return self.random.choice(self.nodes)

    def get(self, node: str, path: str) -> tuple[int, str]:
        try:
            with self.opener.open(node + path, timeout=30) as response:
                return response.status, response.read().decode()
        except HTTPError as error:
            return error.code, error.read().decode()

    def post(self, node: str, path: str, data: dict) -> int:
        try:
            with self.opener.open(node + path, urllib.parse.urlencode(data).encode(), 30) as r:
                return r.status
        except HTTPError as error:
            return error.code

    def post_at_once(self, nodes: list[str], path: str, data: dict) -> list[int]:
        results: list[int] = []
        threads = [
            threading.Thread(target=lambda n=n: results.append(self.post(n, path, data)))
            for n in nodes
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        return results

    def play(self) -> None:
        page_path = f"/nights/{self.night.pk}/"
        for number in range(1, ROUNDS + 1):
            deadline = time.monotonic() + 30
            while True:  # until this round is open on the node asked
                assert time.monotonic() < deadline, f"round {number} never opened"
                node = self.node()
                status, page = self.get(node, page_path)
                assert status == 200
                shown = OPEN_ROUND.search(page)
                if shown and int(shown.group(1)) == number:
                    break
                time.sleep(0.05)
            form = {
                "csrfmiddlewaretoken": CSRF.search(page).group(1),
                "round": number,
                "seat": self.seat,
                "points": points(number)[self.name],
            }
            # A double tap: the same total, at once, to both nodes.
            taps = self.nodes if self.random.random() < 0.5 else [node]
            results = self.post_at_once(taps, page_path + "entry/", form)
            assert results == [302] * len(taps), results  # saved, every tap


def _cookie(name: str, value: str, host: str) -> Cookie:
    return Cookie(
        0, name, value, None, False, host, False, False, "/", True, False, None, False, None,
        None, {}, False,
    )  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_two_nodes_on_one_database_agree_and_lose_or_double_nothing(tmp_path):
    group = make_group(members=PLAYERS)
    night = make_night(PLAYERS, group=group)
    sessions = {}
    for seat in night.seats.all():
        client = Client()
        client.force_login(seat.user)
        sessions[seat.name] = client.cookies["sessionid"].value

    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": database_url(),
        "OFCBOARD_TABLE": "1",
        "CACHE_KEY_PREFIX": f"many-nodes-{os.getpid()}-{time.time_ns()}",
    }
    env.pop("CACHE_URL", None)
    if connection.vendor == "postgresql":
        env["DATABASE_POOL"] = "1"  # as the README's many tables run: psycopg's pool
    if os.environ.get("OFCBOARD_TEST_CACHE_URL"):
        env["CACHE_URL"] = os.environ["OFCBOARD_TEST_CACHE_URL"]
    nodes = [start_node(env) for _ in range(2)]
    urls = [url for _, url in nodes]
    try:
        phones = [Phone(name, sessions[name], night, urls) for name in PLAYERS]
        # A write on one node shows in the very next poll on the other.
        watcher = phones[0]
        status, page = watcher.get(urls[1], f"/nights/{night.pk}/")
        assert status == 200, (status, page[:500])
        poll = POLL.search(page).group(1).replace("&amp;", "&")
        assert watcher.get(urls[1], poll)[0] == 204
        _, page = watcher.get(urls[0], f"/nights/{night.pk}/")
        form = {
            "csrfmiddlewaretoken": CSRF.search(page).group(1),
            "round": 1,
            "seat": watcher.seat,
            "points": points(1)["Anna"],
        }
        assert watcher.post(urls[0], f"/nights/{night.pk}/entry/", form) == 302
        assert watcher.get(urls[1], poll)[0] == 200

        errors: list[BaseException] = []

        def play(phone: Phone) -> None:
            try:
                phone.play()
            except BaseException as error:  # reported by the test, not lost in a thread
                errors.append(error)

        threads = [threading.Thread(target=play, args=(phone,)) for phone in phones]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not errors, errors

        # Nothing lost, nothing doubled: one entry per seat and round, as played.
        recorded = Entry.objects.filter(round__night=night, round__recorded_at__isnull=False)
        assert recorded.count() == ROUNDS * len(PLAYERS)
        for name in PLAYERS:
            mine = recorded.filter(seat__name=name).order_by("round__number")
            assert [entry.points for entry in mine] == [
                points(n)[name] for n in range(1, ROUNDS + 1)
            ]
        # Both nodes show the same standings.
        settle = f"/nights/{night.pk}/settle/"
        standings = [
            re.findall(r'<td class="num[^"]*">([^<]+)</td>', watcher.get(u, settle)[1])
            for u in urls
        ]
        assert standings[0] and standings[0] == standings[1]
    finally:
        for process, _ in nodes:
            process.terminate()
            process.wait(10)
