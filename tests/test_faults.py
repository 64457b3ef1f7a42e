"""Faults the laptop meets, against the server as `make run` starts it: PostgreSQL
stopped and started while three phones post, Redis stopped and started while phones
poll and log in, SQLite's file locked by another process. Nothing is lost or doubled,
nothing is a 500, and the app goes on by itself afterwards.

The PostgreSQL and Redis they stop are their own (a second cluster, another port:
`.ci/postgres` and `.ci/redis` with OFCBOARD_PG_CLUSTER / REDIS_PORT), so the tests
running at the same time on the other worker never notice.
"""

import json
import os
import re
import shutil
import sqlite3
import subprocess
import threading
import time
import urllib.parse
import uuid
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.error import HTTPError, URLError
from urllib.request import HTTPCookieProcessor, HTTPRedirectHandler, build_opener

import pytest
from django.db import connection
from django.test import Client

from scorekeeper.models import Entry
from tests.helpers import PASSWORD, make_group, make_night, start_server

pytestmark = pytest.mark.database

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("Anna", "Bram", "Chris")
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
OPEN_ROUND = re.compile(r'name="round" value="(\d+)"')
NOT_NOW = {502, 503, 504}
FAULT_CLUSTER = {"OFCBOARD_PG_CLUSTER": "faults", "OFCBOARD_PG_PORT": "5439"}
FAULT_REDIS = {"REDIS_PORT": "6391"}
# The database gone for this long (plus the seconds it takes to start again), as long
# as a laptop's PostgreSQL restarting after an update: phones keep saving into it.
OUTAGE_SECONDS = 10


def points(number: int) -> dict[str, int]:
    return {"Anna": number, "Bram": -2 * number, "Chris": number}


class _Stay(HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Phone:
    """A phone that saves as queue.js does: one key per save, sent again with the same
    key after a 503 or no answer, until the server says saved."""

    def __init__(self, base: str, night_id: int = 0, name: str = "", seat: int = 0) -> None:
        self.base, self.night_id, self.name, self.seat = base, night_id, name, seat
        self.jar = CookieJar()
        self.opener = build_opener(HTTPCookieProcessor(self.jar), _Stay())
        self.statuses: list[int] = []
        self.acknowledged: list[int] = []
        self.csrf = ""

    def request(self, path: str, data: dict | None = None, json_answer: bool = False):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        headers = {"Accept": "application/json"} if json_answer else {}
        if self.csrf:
            headers["X-CSRFToken"] = self.csrf
        request = urllib.request.Request(self.base + path, body, headers)
        try:
            with self.opener.open(request, timeout=10) as response:
                status, text = response.status, response.read().decode()
        except HTTPError as error:
            status, text = error.code, error.read().decode()
        except (URLError, OSError):
            return 0, ""  # no answer: as the phone, try again
        self.statuses.append(status)
        return status, text

    def log_in(self, name: str) -> int:
        page = self.request("/login/")[1]
        token = CSRF.search(page).group(1)
        form = {"csrfmiddlewaretoken": token, "username": name, "password": PASSWORD}
        return self.request("/login/", form)[0]

    def open_round(self) -> int:
        while True:
            status, page = self.request(f"/nights/{self.night_id}/")
            if status == 200:
                self.csrf = CSRF.search(page).group(1)
                return int(OPEN_ROUND.search(page).group(1))
            assert status in NOT_NOW or status == 0, status
            time.sleep(0.2)

    def save(self, number: int) -> None:
        form = {"round": number, "seat": self.seat, "points": points(number)[self.name]}
        form["key"] = uuid.uuid4().hex
        while True:
            status, text = self.request(f"/nights/{self.night_id}/entry/", form, True)
            if status == 200:
                assert json.loads(text)["saved"], text
                self.acknowledged.append(number)
                return
            assert status in NOT_NOW or status == 0, (status, text[:300])
            time.sleep(0.3)

    def play_until(self, done: threading.Event) -> None:
        number = self.open_round()
        while not done.is_set():
            self.save(number)
            while (shown := self.open_round()) == number and not done.is_set():
                time.sleep(0.1)
            number = shown


def server_env(database_url: str, **more: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": database_url,
        "OFCBOARD_TABLE": "1",
    }
    env.pop("CACHE_URL", None)  # only the Redis a test gives
    return {**env, **more}


def phones_for(night, base: str = "http://127.0.0.1") -> list[Phone]:
    """A logged-in phone for each player (of the server at 127.0.0.1, ``base`` or set later)."""
    phones = []
    for seat in night.seats.all():
        phone = Phone(base, night.pk, seat.name, seat.pk)
        client = Client()
        client.force_login(seat.user)
        phone.jar.set_cookie(_cookie("sessionid", client.cookies["sessionid"].value, "127.0.0.1"))
        phones.append(phone)
    return phones


def _cookie(name: str, value: str, host: str):
    from http.cookiejar import Cookie

    return Cookie(
        0, name, value, None, False, host, False, False, "/", True, False, None, False, None,
        None, {}, False,
    )  # fmt: skip


def run_script(script: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [str(ROOT / ".ci" / script), *env.pop("_args", [])],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def postgres(action: str) -> str:
    return run_script("postgres", {**FAULT_CLUSTER, "_args": [action]})


@pytest.mark.django_db(transaction=True)
def test_postgresql_stopped_and_started_while_three_phones_post():
    if connection.vendor != "postgresql":
        pytest.skip("the PostgreSQL pass of `make test` runs it")
    import psycopg

    night = make_night(PLAYERS, group=make_group(members=PLAYERS))
    phones = phones_for(night)  # their sessions go with the copy below
    # A database of its own on the fault tests' cluster, a copy of this test's.
    url = urllib.parse.urlsplit(postgres("start"))
    port, name = url.port, f"ofcboard_faults_{os.getpid()}"
    settings = connection.settings_dict
    source = ["-p", str(settings["PORT"] or 5432)]
    source += ["-h", settings["HOST"]] if settings["HOST"] else []
    subprocess.run(["dropdb", "-p", str(port), "--if-exists", name], check=True)
    subprocess.run(["createdb", "-p", str(port), name], check=True)
    dump = subprocess.run(["pg_dump", *source, settings["NAME"]], capture_output=True, check=True)
    subprocess.run(
        ["psql", "-q", "-p", str(port), "-d", name, "-v", "ON_ERROR_STOP=1"],
        input=dump.stdout,
        capture_output=True,
        check=True,
    )
    process, server_port = start_server(server_env(f"postgres://:{port}/{name}"))
    for phone in phones:
        phone.base = f"http://127.0.0.1:{server_port}"
    done = threading.Event()
    threads = [threading.Thread(target=phone.play_until, args=(done,)) for phone in phones]
    try:
        for thread in threads:
            thread.start()
        time.sleep(1)
        postgres("stop")
        time.sleep(OUTAGE_SECONDS)
        postgres("start")
        # The very next poll answers as always.
        watcher = phones[0]
        status, _ = watcher.request(f"/nights/{night.pk}/live/?version=x")
        assert status == 200
        time.sleep(0.5)
        done.set()
        for thread in threads:
            thread.join(30)
    finally:
        done.set()
        process.terminate()
        process.wait(10)

    statuses = [status for phone in phones for status in phone.statuses]
    assert 500 not in statuses and 503 in statuses, sorted(set(statuses))
    with psycopg.connect(port=port, dbname=name) as database:
        rows = database.execute(
            "SELECT r.number, s.name, e.points FROM scorekeeper_entry e"
            " JOIN scorekeeper_round r ON r.id = e.round_id"
            " JOIN scorekeeper_seat s ON s.id = e.seat_id WHERE r.night_id = %s",
            [night.pk],
        ).fetchall()
    subprocess.run(["dropdb", "-p", str(port), "--if-exists", name], check=True)
    saved = [(number, seat) for number, seat, _ in rows]
    assert len(saved) == len(set(saved)), "a save was counted twice"
    for phone in phones:
        assert phone.acknowledged, "every phone saved something"
        for number in phone.acknowledged:
            assert (number, phone.name, points(number)[phone.name]) in rows
    assert max(number for phone in phones for number in phone.acknowledged) >= 3


@pytest.mark.django_db(transaction=True)
def test_redis_stopped_and_started_while_phones_poll_and_log_in():
    if connection.vendor != "sqlite":
        pytest.skip("once is enough: the SQLite pass of `make test` runs it")
    if shutil.which("redis-server") is None and not os.environ.get("OFCBOARD_TEST_CACHE_URL"):
        pytest.skip("needs redis-server (make test installs it)")
    night = make_night(PLAYERS, group=make_group(members=PLAYERS))
    cache_url = run_script("redis", dict(FAULT_REDIS))
    from tests.test_many_nodes import database_url

    env = server_env(
        database_url(), CACHE_URL=cache_url, CACHE_KEY_PREFIX=f"faults-{time.time_ns()}"
    )
    process, server_port = start_server(env)
    base = f"http://127.0.0.1:{server_port}"
    poll = f"/nights/{night.pk}/live/?version=x"
    try:
        before = Phone(base, night.pk)
        assert before.log_in("Anna") == 302  # its session is cached in Redis
        assert before.request(poll)[0] == 200
        run_script("redis", {**FAULT_REDIS, "_args": ["stop"]})
        during = Phone(base, night.pk)
        assert during.log_in("Bram") == 302
        for _ in range(5):
            assert before.request(poll)[0] == 200
            assert during.request(poll)[0] == 200
            time.sleep(0.2)
        # A logout while Redis is gone ends the session for good, also once it is back.
        token = CSRF.search(before.request(f"/nights/{night.pk}/")[1]).group(1)
        assert before.request("/logout/", {"csrfmiddlewaretoken": token})[0] == 302
        run_script("redis", dict(FAULT_REDIS))
        time.sleep(1.2)  # Redis is tried again once a second
        assert during.request(poll)[0] == 200
        after = Phone(base, night.pk)
        assert after.log_in("Chris") == 302
        assert after.request(poll)[0] == 200
        assert before.request(poll)[0] == 302  # to the login page
    finally:
        process.terminate()
        process.wait(10)
    statuses = before.statuses + during.statuses + after.statuses
    assert all(status < 500 for status in statuses), statuses


@pytest.mark.django_db(transaction=True)
def test_sqlite_locked_by_another_process_for_5_seconds_saves_wait_and_go_through():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's own lock")
    from tests.test_many_nodes import database_url

    night = make_night(PLAYERS, group=make_group(members=PLAYERS))
    process, server_port = start_server(server_env(database_url()))
    phones = phones_for(night, f"http://127.0.0.1:{server_port}")
    locked = threading.Event()

    def hold_the_lock() -> None:
        other = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        locked.set()
        time.sleep(5)
        other.execute("COMMIT")
        other.close()

    try:
        for phone in phones:
            phone.open_round()
        holder = threading.Thread(target=hold_the_lock)
        holder.start()
        locked.wait(5)
        started = time.monotonic()
        threads = [threading.Thread(target=phone.save, args=(1,)) for phone in phones]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        waited = time.monotonic() - started
        holder.join(30)
    finally:
        process.terminate()
        process.wait(10)
    assert waited > 3, "the saves waited for the lock"
    assert all(phone.acknowledged == [1] for phone in phones)
    assert all(status == 200 for phone in phones for status in phone.statuses[-1:])
    assert Entry.objects.filter(round__night=night, round__recorded_at__isnull=False).count() == 3
