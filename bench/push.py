"""Changes pushed through the front against the 2 s poll, through the server as
`make run` starts it. Run: ``.venv/bin/python bench/push.py`` (the three parts, a few
minutes each), ``--only idle`` (or spread, requests) for one, ``--quick`` for small sizes.

Starts ``python -m ofcboard.serve --front yes`` (nginx with Nchan in front of the app
server: ofcboard/front.py) and, for each reference, the same server without
``--front``, where the pages poll every 2 s. A throwaway SQLite database with
bench/server.py's settings. The phones are asyncio connections in this process, each
from its table's own address on the loopback (127.10.x.y: nginx limits each address,
as it would the phones behind one router), with a session of one of the night's
group's members: a night's five phones are its four players and one more member. A
change is a real save: a player's total posted to the night page's save address, as
its form posts without the page's script (its CSRF token and a save key; the answer is
a redirect), so the app publishes it as it does any phone's.

1. Idle: 10,000 phones each holding its night's stream, nothing changing, for 30 s:
   the CPU time of nginx's and the app server's processes (/proc), as a share of the
   whole 2-core node, and their memory (PSS). Reference: the same server without the
   front with 1,000 phones polling every 2 s (10,000 cannot poll on one node).
2. Spread: 2,000 phones on 400 nights, each night saved every 10 s for 60 s: for every
   change and each of its night's phones, the time from the save's answer to the
   "version N" message (every message must come). Reference: the same with the pages
   polling every 2 s, at 200 phones on 40 nights (what one node can poll).
3. Requests per phone: 100 phones on 20 nights, a save every 10 s a night, for 60 s,
   each phone doing what static/ofcboard/live.js does (the stream, a fetch when it
   opens and for each version the page does not show, the safety poll every 30 s),
   against htmx's poll every 2 s: the requests that reach the app, per phone a minute.
4. After a restart: 10,000 phones opening their streams again at once on a server just
   started, each at the signed address its page names (scorekeeper/site/front_pass.py),
   which nginx checks and holds alone: the time until all of them stream. Before, each
   opening was a request to the app (its session, its user, a query, then the
   hand-over to nginx); the app has no stream view any more, so that figure is the one
   measured then, on this machine (BEFORE_RESTART_SECONDS).
5. Rates (``--only rates``, not run by default): the spread's saves through the front
   at a rising rate (``--rates``, saves a second over ``--rate-nights`` nights), each
   for ``--rate-seconds``, until the phones' p95 from the save's sending passes the
   goal (GOAL_P95_SECONDS): the saves a second the node holds within it.
"""

import argparse
import asyncio
import json
import os
import random
import re
import resource
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.server import server_env  # noqa: E402

HOST = "127.0.0.1"
CORES = os.cpu_count() or 1
PHONES_AT_A_NIGHT = 5  # its four players and one more member of the group
POLL_SECONDS = 2  # the pages' hx-trigger "every 2s"
SAFETY_POLL_SECONDS = 30  # live.js's SAFETY_POLL_MS
TICK = os.sysconf("SC_CLK_TCK")
# Phones opening their pages at once: more would only wait in the server's queue.
OPENING_AT_ONCE = 64
# Issue 44's goal: every other phone at the table shows each change within this, p95.
GOAL_P95_SECONDS = 0.3


# -- The database: nights, their phones' sessions -------------------------------------


@dataclass
class Phone:
    cookie: str  # "sessionid=..."
    seat: str  # its player's seat, "" for the member who is not playing


@dataclass
class Table:
    """One night and the phones at it, all behind the table's one address."""

    night: int
    version: int  # as last saved
    round: int
    address: str
    phones: list[Phone]
    player: str  # the name of the first seat's player, who saves (phones[0])
    csrf: tuple[str, str]  # (cookie, form token)
    saves: int = 0

    def poll_path(self, phone: Phone, version: int | None = None) -> str:
        shown = self.version if version is None else version
        return f"/nights/{self.night}/live/?version={shown}&round={self.round}&seat={phone.seat}"

    def save_body(self) -> bytes:
        """The next save: the first player's total, a different one each time."""
        self.saves += 1
        return urlencode(
            {
                "csrfmiddlewaretoken": self.csrf[1],
                "round": self.round,
                "seat": self.phones[0].seat,
                "points": self.saves % 9 + 1,  # never the total saved just before
                "fantasyland": "",
                "key": f"bench-{self.night}-{self.saves}-{secrets.token_hex(8)}",
            }
        ).encode()


def table_address(number: int) -> str:
    return f"127.{10 + number // 62_500}.{number // 250 % 250}.{number % 250 + 1}"


class Tables:
    """The throwaway database the servers started here serve, and its tables: made as
    they are first asked for, through the app's services (bench/tables.py)."""

    def __init__(self) -> None:
        env = server_env()
        # Not the checkout's own folders: the sessions' file cache and the static files.
        env["STATIC_ROOT"] = tempfile.mkdtemp(prefix="bench-static-")
        os.environ.update(env)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        # As `make run` does: the pages name the static files by their hashed names.
        call_command("collectstatic", interactive=False, verbosity=0)
        self._made: list[Table] = []

    def first(self, count: int) -> list[Table]:
        """The first ``count`` tables, their versions read again (a part before may have
        saved at them)."""
        from scorekeeper.models import Night

        if (more := count - len(self._made)) > 0:
            started = time.monotonic()
            self._make(more)
            print(
                f"  (made {more:,} nights and their phones' sessions in"
                f" {time.monotonic() - started:.0f} s)",
                flush=True,
            )
        tables = self._made[:count]
        versions = dict(
            Night.objects.filter(pk__in=[t.night for t in tables]).values_list("pk", "version")
        )
        for table in tables:
            table.version = versions[table.night]
        return tables

    def _make(self, count: int) -> None:
        from django.db import transaction
        from django.middleware.csrf import get_token
        from django.test import RequestFactory

        from bench.tables import a_group, a_night
        from scorekeeper.models import User

        made: list[tuple[int, list[User], object]] = []
        with transaction.atomic():
            for number in range(len(self._made), len(self._made) + count):
                users = [
                    User.objects.create_user(name=f"Phone {number}-{n}", password=None)
                    for n in range(PHONES_AT_A_NIGHT)
                ]
                group = a_group(f"Table {number}", users)
                made.append((number, users, a_night(group, users[:4])))
            cookies = iter(sessions([user for _, users, _ in made for user in users]))
        for number, users, night in made:
            seats = dict(night.seats.values_list("user_id", "pk"))
            request = RequestFactory().get("/")
            token = get_token(request)
            phones = [Phone(next(cookies), str(seats.get(user.pk, ""))) for user in users]
            self._made.append(
                Table(
                    night=night.pk,
                    version=night.version,
                    round=1,
                    address=table_address(number),
                    phones=phones,
                    player=users[0].name,
                    csrf=(request.META["CSRF_COOKIE"], token),
                )
            )

    def check(self, tables: list[Table]) -> str:
        """Whether the database holds the versions the saves' answers led us to expect."""
        from scorekeeper.models import Night

        versions = dict(
            Night.objects.filter(pk__in=[t.night for t in tables]).values_list("pk", "version")
        )
        wrong = [t.night for t in tables if versions[t.night] != t.version]
        return f"{len(wrong)} nights' versions not as expected" if wrong else ""


def sessions(users: list) -> list[str]:
    """A session cookie for each of ``users``, as logging in leaves it: the first one
    logged in for real (with the app's signals), the others written in bulk with the
    same keys (10,000 logins one by one take minutes). They are in the database only:
    a server's first request of each fills its cache, as after a restart."""
    from django.conf import settings
    from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, login
    from django.contrib.sessions.backends.base import VALID_KEY_CHARS
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.test import RequestFactory
    from django.utils.crypto import get_random_string

    request = RequestFactory().get("/")
    request.session = SessionStore()
    login(request, users[0], backend="django.contrib.auth.backends.ModelBackend")
    request.session.save()
    keys = [request.session.session_key]
    kept = dict(request.session)
    expires = request.session.get_expiry_date()
    store, rows = request.session, []
    for user in users[1:]:
        key = get_random_string(32, VALID_KEY_CHARS)
        data = {**kept, SESSION_KEY: str(user.pk), HASH_SESSION_KEY: user.get_session_auth_hash()}
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expires))
        keys.append(key)
    Session.objects.bulk_create(rows, batch_size=500)
    return [f"{settings.SESSION_COOKIE_NAME}={key}" for key in keys]


# -- The server ------------------------------------------------------------------------


def a_free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@dataclass
class Usage:
    cpu: dict[str, float]  # seconds of CPU by kind ("nginx", "app")
    memory: dict[str, float]  # MB of PSS by kind


class Server:
    """``python -m ofcboard.serve`` on a free port, with the front or without it, for a
    ``with`` block."""

    def __init__(self, *, front: bool, workers: int) -> None:
        self.front, self.workers = front, workers
        self.port = a_free_port()
        self._log = Path(tempfile.mkstemp(prefix="bench-serve-", suffix=".log")[1])

    def command(self) -> list[str]:
        return [
            *(sys.executable, "-m", "ofcboard.serve", "--host", HOST, "--port", str(self.port)),
            *("--workers", str(self.workers), "--front", "yes" if self.front else "no"),
        ]

    def __enter__(self) -> "Server":
        with self._log.open("w") as log:
            self.process = subprocess.Popen(
                self.command(), cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=os.environ
            )
        self._wait_until_it_answers()
        return self

    def __exit__(self, *problem: object) -> None:
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def _wait_until_it_answers(self) -> None:
        import http.client

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                connection = http.client.HTTPConnection(HOST, self.port, timeout=2)
                connection.request("GET", "/bench/bare/")
                if connection.getresponse().status == 204:
                    connection.close()
                    return
                connection.close()
            except OSError:
                pass
            time.sleep(0.1)
        log = self._log.read_text()[-2000:]
        raise SystemExit(f"The server did not start ({' '.join(self.process.args)}):\n{log}")

    def processes(self) -> dict[int, str]:
        """The server's processes (the app server's and, behind the front, nginx's),
        each with its kind: "nginx" or "app"."""
        children: dict[int, list[int]] = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                stat = _read(f"/proc/{entry}/stat")
                if stat:
                    fields = stat.rsplit(")", 1)[1].split()
                    if fields[0] != "Z":  # a process that ended, not yet waited for
                        children.setdefault(int(fields[1]), []).append(int(entry))
        found, todo = {}, [self.process.pid]
        while todo:
            pid = todo.pop()
            name = _read(f"/proc/{pid}/comm").strip()
            found[pid] = "nginx" if name.startswith("nginx") else "app"
            todo += children.get(pid, [])
        return found

    def usage(self, processes: dict[int, str]) -> Usage:
        cpu: dict[str, float] = {"nginx": 0.0, "app": 0.0}
        memory: dict[str, float] = {"nginx": 0.0, "app": 0.0}
        for pid, kind in processes.items():
            stat = _read(f"/proc/{pid}/stat")
            if not stat:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            cpu[kind] += (int(fields[11]) + int(fields[12])) / TICK
            rollup = _read(f"/proc/{pid}/smaps_rollup")
            pss = re.search(r"^Pss:\s+(\d+) kB", rollup, re.M)
            memory[kind] += int(pss.group(1)) / 1024 if pss else 0.0
        return Usage(cpu, memory)


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError:
        return ""


class Window:
    """The server's CPU time over a stretch of time, as a share of the whole node (and
    this process's: the phones)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.processes = server.processes()
        self.before = server.usage(self.processes)
        self.started = time.monotonic()
        self.phones = time.process_time()

    def close(self) -> tuple[dict[str, float], dict[str, float]]:
        after = self.server.usage(self.processes)
        seconds = time.monotonic() - self.started
        share = {
            kind: (after.cpu[kind] - self.before.cpu[kind]) / (seconds * CORES) * 100
            for kind in after.cpu
        }
        share["phones"] = (time.process_time() - self.phones) / (seconds * CORES) * 100
        return share, after.memory


# -- HTTP from the phones ----------------------------------------------------------------


async def read_answer(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(head[0].split()[1])
    headers = {}
    for line in head[1:]:
        name, _, value = line.partition(":")
        if name:
            headers[name.strip().lower()] = value.strip()
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        parts = []
        while size := int((await reader.readline()).split(b";")[0], 16):
            parts.append(await reader.readexactly(size))
            await reader.readline()
        await reader.readline()
        body = b"".join(parts)
    elif status in (204, 304):
        body = b""
    else:
        body = await reader.read()
    return status, headers, body


class Link:
    """One kept-alive connection of a phone, from its table's address."""

    def __init__(self, port: int, address: str) -> None:
        self.port, self.address = port, address
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def ask(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, bytes]:
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(
                    HOST, self.port, local_addr=(self.address, 0)
                )
            assert self.reader is not None
            lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}"]
            lines += [f"{name}: {value}" for name, value in headers.items()]
            if body:
                lines += ["Content-Type: application/x-www-form-urlencoded"]
                lines += [f"Content-Length: {len(body)}"]
            self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
            try:
                status, answer_headers, answer = await read_answer(self.reader)
            except (asyncio.IncompleteReadError, ConnectionError):
                # A kept-alive connection the server had closed: once more on a new one
                # (a save sent again keeps its key, and is recorded once).
                self.close()
                if attempt == 2:
                    raise
                continue
            if answer_headers.get("connection", "").lower() == "close":
                self.close()
            return status, answer
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def stream_path(table: "Table") -> str:
    """The signed address the night's pages name for its stream, as the servers started
    here sign it (the same SECRET_KEY, the same settings)."""
    from django.conf import settings

    from scorekeeper.services.push import night_channel
    from scorekeeper.site.front_pass import front_secret, signed_stream

    secret = front_secret(settings.SECRET_KEY)
    return signed_stream(secret, night_channel(table.night), time.time())


class Stream:
    """A phone's stream, opened at the signed address its page names (with the page's
    cookies, as a browser sends them) and held by the front alone, which sends
    "data: version N" down it for each change."""

    def __init__(
        self, port: int, table: Table, phone: Phone, told: Callable[[str, float], None]
    ) -> None:
        self.port, self.table, self.phone, self.told = port, table, phone, told
        self.carried: dict | None = None  # what the last message carried besides its version
        self.status = 0
        self.open = False
        self.opened_at = 0.0
        self.writer: asyncio.StreamWriter | None = None
        self.listening: asyncio.Task | None = None

    async def start(self) -> None:
        """Until the answer's head came: its status in ``status``."""
        reader, self.writer = await asyncio.open_connection(
            # A message may carry the night page's live part: a line of some kilobytes.
            HOST,
            self.port,
            local_addr=(self.table.address, 0),
            limit=2**20,
        )
        self.writer.write(
            (
                f"GET {stream_path(self.table)} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
                f"Accept: text/event-stream\r\nCookie: {self.phone.cookie}\r\n\r\n"
            ).encode()
        )
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        self.status = int(head.split()[1])
        self.open = self.status == 200 and "text/event-stream" in head
        self.opened_at = time.monotonic()
        self.reader = reader
        if self.open:
            self.listening = asyncio.create_task(self.listen())

    async def listen(self) -> None:
        """Each message's version (its first data line) and what it carries (the next
        one, if any), told once the message ends."""
        version: str | None = None
        try:
            while self.open:
                line = await self.reader.readline()
                if not line:
                    break
                if line.startswith(b"data: version "):
                    version, self.carried = line[14:].strip().decode(), None
                elif line.startswith(b"data: ") and version is not None:
                    self.carried = json.loads(line[6:])
                elif line.strip() == b"" and version is not None:
                    self.told(version, time.monotonic())
                    version = None
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self.open = False

    def close(self) -> None:
        self.open = False
        if self.writer is not None:
            self.writer.close()
        if self.listening is not None:
            self.listening.cancel()


async def open_streams(port: int, streams: list[Stream]) -> tuple[float, Counter]:
    """Every stream started (OPENING_AT_ONCE at a time) and listening: (seconds it took,
    the answers' statuses)."""
    started = time.monotonic()
    gate = asyncio.Semaphore(OPENING_AT_ONCE)

    async def one(stream: Stream) -> None:
        async with gate:
            try:
                await stream.start()
            except (OSError, asyncio.IncompleteReadError) as problem:
                stream.status = -1
                print(f"    a stream could not open: {problem!r}", flush=True)
                return

    await asyncio.gather(*(one(stream) for stream in streams))
    return time.monotonic() - started, Counter(stream.status for stream in streams)


def opening_rates(streams: list[Stream]) -> str:
    """How fast the first and the last tenth of the streams opened."""
    times = sorted(stream.opened_at for stream in streams if stream.open)
    tenth = len(times) // 10
    if tenth < 2:
        return ""
    first = (tenth - 1) / (times[tenth - 1] - times[0])
    last = (tenth - 1) / (times[-1] - times[-tenth])
    return f" (the first {tenth:,} at {first:,.0f}/s, the last {tenth:,} at {last:,.0f}/s)"


def poll_version(body: bytes) -> int | None:
    """The version a rendered poll brings: in its own next poll's address."""
    found = re.search(rb"/live/\?version=(\d+)&amp;round=(\d*)", body)
    return int(found.group(1)) if found else None


@dataclass
class Writer:
    """A table's first player saving a total every ``every`` seconds, from the table's
    address; what each save's answer said."""

    port: int
    table: Table
    every: float
    changes: list[tuple[int, float, float]] = field(default_factory=list)  # version, sent, answered
    refused: Counter = field(default_factory=Counter)
    saved: Callable[[int], None] = lambda version: None  # the saving phone's page told

    async def run(self, until: float) -> None:
        table, link = self.table, Link(self.port, self.table.address)
        headers = {"Cookie": f"{table.phones[0].cookie}; csrftoken={table.csrf[0]}"}
        await asyncio.sleep(random.uniform(0, self.every))
        next_save = time.monotonic()
        while next_save < until:
            sent = time.monotonic()
            path = f"/nights/{table.night}/entry/"
            status, _ = await link.ask("POST", path, headers, table.save_body())
            if status == 302:  # saved: the form's redirect to the night page
                table.version += 1
                self.changes.append((table.version, sent, time.monotonic()))
                self.saved(table.version)
            else:
                self.refused[status] += 1
            next_save += self.every
            await asyncio.sleep(max(0.0, next_save - time.monotonic()))
        link.close()


def pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def ms(seconds: float) -> str:
    if abs(seconds) < 0.1:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds * 1000:,.0f} ms"


def row(label: str, pushed: str, polled: str, after: str = "") -> None:
    """One line of figures: through the front, then its reference without it."""
    print(f"  {label:<34}{pushed:<36}{polled:<28}{after}".rstrip())


# -- 1. Idle streams -------------------------------------------------------------------


def quiet_streams(server: Server, tables: list[Table], phones: int) -> list[Stream]:
    """A stream for each of the first ``phones`` phones of ``tables``, not opened yet,
    whose messages are not looked at."""
    return [
        Stream(server.port, table, phone, lambda version, at: None)
        for table in tables
        for phone in table.phones
    ][:phones]


async def hold_streams(server: Server, tables: list[Table], phones: int, seconds: float) -> dict:
    streams = quiet_streams(server, tables, phones)
    took, statuses = await open_streams(server.port, streams)
    print(
        f"    {statuses[200]:,} streams open in {took:.0f} s{opening_rates(streams)};"
        f" answers {dict(statuses)}",
        flush=True,
    )
    await asyncio.sleep(5)  # the last openings' work done
    window = Window(server)
    await asyncio.sleep(seconds)
    cpu, memory = window.close()
    held = sum(stream.open for stream in streams)
    for stream in streams:
        stream.close()
    return {"held": held, "cpu": cpu, "memory": memory, "processes": window.processes}


async def poll_idle(server: Server, tables: list[Table], phones: int, seconds: float) -> dict:
    """``phones`` phones polling every 2 s, nothing changing: every answer a 204."""
    pairs = [(table, phone) for table in tables for phone in table.phones][:phones]
    answers: Counter = Counter()
    times: list[float] = []
    measuring = asyncio.Event()
    stop = time.monotonic() + 5 + seconds

    async def phone_polls(table: Table, phone: Phone) -> None:
        link = Link(server.port, table.address)
        path, headers = table.poll_path(phone), {"Cookie": phone.cookie}
        await asyncio.sleep(random.uniform(0, POLL_SECONDS))
        next_poll = time.monotonic()
        while next_poll < stop:
            sent = time.monotonic()
            try:
                status, _ = await link.ask("GET", path, headers)
            except (OSError, asyncio.IncompleteReadError):
                status = -1
                link.close()
            if measuring.is_set():
                answers[status] += 1
                times.append(time.monotonic() - sent)
            next_poll += POLL_SECONDS
            await asyncio.sleep(max(0.0, next_poll - time.monotonic()))
        link.close()

    tasks = [asyncio.create_task(phone_polls(table, phone)) for table, phone in pairs]
    await asyncio.sleep(5)  # every phone has polled once: their polls spread over the 2 s
    measuring.set()
    window = Window(server)
    await asyncio.sleep(seconds)
    cpu, memory = window.close()
    measuring.clear()
    await asyncio.gather(*tasks)
    return {"cpu": cpu, "memory": memory, "answers": answers, "times": times}


def part_idle(db: Tables, args: argparse.Namespace) -> None:
    phones, reference, seconds = args.idle_phones, args.idle_reference, args.idle_seconds
    nights = -(-max(phones, reference) // PHONES_AT_A_NIGHT)
    print(f"\n1. Idle: {phones:,} phones holding a stream on {nights:,} nights, nothing changing")
    tables = db.first(nights)
    with Server(front=True, workers=args.workers) as server:
        pushed = asyncio.run(hold_streams(server, tables, phones, seconds))
    with Server(front=False, workers=args.workers) as server:
        polled = asyncio.run(poll_idle(server, tables, reference, seconds))
    kinds = Counter(pushed["processes"].values())
    answered = sum(polled["answers"].values())
    print(
        f"  {seconds:.0f} s measured on {CORES} cores; the server: nginx ({kinds['nginx']}"
        f" processes) before the app server (granian, {kinds['app'] - 1} worker processes"
        " and its main one)"
    )
    row("", "streams, through the front", "reference: polls every 2 s,")
    row("", "", "same server without the front")
    row("phones", f"{pushed['held']:,} holding a stream", f"{reference:,} polling")
    row("", "", f"({phones:,} cannot poll on one node)")
    cpu, ref_cpu = pushed["cpu"], polled["cpu"]
    row(
        "CPU, share of the whole node",
        f"{cpu['nginx'] + cpu['app']:.1f} % (nginx {cpu['nginx']:.1f}, app {cpu['app']:.1f})",
        f"{ref_cpu['app']:.1f} % (app)",
        "goal: under 10 %",
    )
    memory, ref_memory = pushed["memory"], polled["memory"]
    row(
        "memory (PSS)",
        f"{memory['nginx'] + memory['app']:.0f} MB (nginx {memory['nginx']:.0f}, app"
        f" {memory['app']:.0f})",
        f"{ref_memory['app']:.0f} MB (app)",
        "goal: under 1 GB",
    )
    row(
        "polls answered a second, p95",
        "",
        f"{answered / seconds:,.0f} of {reference / POLL_SECONDS:,.0f},"
        f" p95 {ms(pct(polled['times'], 0.95))}",
    )
    row("answers", "", ", ".join(f"{n:,} {status}" for status, n in polled["answers"].items()))
    row(
        "this process (the phones)",
        f"{cpu['phones']:.1f} % of the node",
        f"{ref_cpu['phones']:.1f} % of the node",
    )


# -- 2. Spread -------------------------------------------------------------------------


async def spread_pushed(server: Server, tables: list[Table], seconds: float, every: float) -> dict:
    """The saves, each phone holding its stream: a phone has seen version N when it was
    told N or later (a night saved again before its message was made is told once, its
    newest version: services/publisher.py), as a poll bringing a later version does."""
    told: list[list[dict[int, float]]] = [[{} for _ in t.phones] for t in tables]
    first = [table.version for table in tables]
    streams = []
    for table, heard in zip(tables, told, strict=True):
        for phone, mine in zip(table.phones, heard, strict=True):

            def note(
                version: str, at: float, mine: dict[int, float] = mine, since: int = table.version
            ) -> None:
                for seen in range(since + 1, int(version) + 1):
                    mine.setdefault(seen, at)

            streams.append(Stream(server.port, table, phone, note))
    took, statuses = await open_streams(server.port, streams)
    print(f"    {statuses[200]:,} streams open in {took:.0f} s; answers {dict(statuses)}")
    writers = [Writer(server.port, table, every) for table in tables]
    window = Window(server)
    until = time.monotonic() + seconds
    await asyncio.gather(*(writer.run(until) for writer in writers))
    # The last saves' messages: a node that fell behind tells them late, and a change
    # told late counts with its delay, not as never told (a minute at most).
    saved = [
        (t.version, heard)
        for t, was, heard in zip(tables, first, told, strict=True)
        if t.version > was
    ]
    waited_until = time.monotonic() + 60
    await asyncio.sleep(3)
    while time.monotonic() < waited_until and not all(
        version in mine for version, heard in saved for mine in heard
    ):
        await asyncio.sleep(0.5)
    cpu, _ = window.close()
    still_open = sum(stream.open for stream in streams)
    for stream in streams:
        stream.close()
    return {"writers": writers, "heard": told, "cpu": cpu, "open": still_open}


async def spread_polled(server: Server, tables: list[Table], seconds: float, every: float) -> dict:
    """The same saves, the phones polling every 2 s: a phone has seen version N when a
    poll's answer brings N or later."""
    heard: list[list[dict[int, float]]] = [[{} for _ in t.phones] for t in tables]
    stop = time.monotonic() + seconds + 4

    async def phone_polls(table: Table, phone: Phone, mine: dict[int, float]) -> None:
        link, shown = Link(server.port, table.address), table.version
        headers = {"Cookie": phone.cookie}
        await asyncio.sleep(random.uniform(0, POLL_SECONDS))
        next_poll = time.monotonic()
        while next_poll < stop:
            status, body = await link.ask("GET", table.poll_path(phone, shown), headers)
            if status == 200 and (brought := poll_version(body)) is not None:
                now = time.monotonic()
                for version in range(shown + 1, brought + 1):
                    mine.setdefault(version, now)
                shown = max(shown, brought)
            next_poll += POLL_SECONDS
            await asyncio.sleep(max(0.0, next_poll - time.monotonic()))
        link.close()

    polls = [
        asyncio.create_task(phone_polls(table, phone, mine))
        for table, theirs in zip(tables, heard, strict=True)
        for phone, mine in zip(table.phones, theirs, strict=True)
    ]
    await asyncio.sleep(POLL_SECONDS)
    writers = [Writer(server.port, table, every) for table in tables]
    window = Window(server)
    await asyncio.gather(*(writer.run(time.monotonic() + seconds) for writer in writers))
    await asyncio.gather(*polls)
    cpu, _ = window.close()
    return {"writers": writers, "heard": heard, "cpu": cpu}


def delays(run: dict) -> dict:
    """For every change and each phone of its night: from the save's answer (and from
    its sending) to the phone hearing of it."""
    after_answer, after_sending, missing, changes = [], [], 0, 0
    for writer, heard in zip(run["writers"], run["heard"], strict=True):
        for version, sent, answered in writer.changes:
            changes += 1
            for mine in heard:
                if version in mine:
                    after_answer.append(mine[version] - answered)
                    after_sending.append(mine[version] - sent)
                else:
                    missing += 1
    refused = sum((writer.refused for writer in run["writers"]), Counter())
    return {
        "changes": changes,
        "expected": changes * PHONES_AT_A_NIGHT,
        "heard": len(after_answer),
        "missing": missing,
        "answer": after_answer,
        "sending": after_sending,
        "refused": dict(refused),
    }


def part_spread(db: Tables, args: argparse.Namespace) -> None:
    nights, reference = args.spread_phones // PHONES_AT_A_NIGHT, args.spread_reference
    seconds, every = args.spread_seconds, args.every
    print(
        f"\n2. Spread: {nights * PHONES_AT_A_NIGHT:,} phones on {nights:,} nights, each night"
        f" saved every {every:.0f} s for {seconds:.0f} s"
    )
    tables = db.first(nights)
    with Server(front=True, workers=args.workers) as server:
        pushed = asyncio.run(spread_pushed(server, tables, seconds, every))
    problem = db.check(tables)
    ref_tables = db.first(reference // PHONES_AT_A_NIGHT)
    with Server(front=False, workers=args.workers) as server:
        polled = asyncio.run(spread_polled(server, ref_tables, seconds, every))
    problem = problem or db.check(ref_tables)
    push, poll = delays(pushed), delays(polled)
    row("", "streams, through the front", "reference: polls every 2 s, no front,")
    row("", "", f"{len(ref_tables) * PHONES_AT_A_NIGHT} phones on {len(ref_tables)} nights")
    row(
        "changes saved (refused)",
        *(f"{d['changes']:,} ({d['refused'] or 'none'})" for d in (push, poll)),
    )
    row(
        "phones told: expected, told",
        *(f"{d['expected']:,}, {d['heard']:,}" for d in (push, poll)),
        "every change must be seen",
    )
    for label, key, share in (
        ("from the save's answer: p50", "answer", 0.5),
        ("                        p95", "answer", 0.95),
        ("                        max", "answer", 1.0),
        ("from the save's sending: p50", "sending", 0.5),
        ("                         p95", "sending", 0.95),
    ):
        goal = "goal: p95 under 500 ms" if label.endswith("p95") and key == "answer" else ""
        row(label, *(ms(pct(d[key], share)) if d[key] else "-" for d in (push, poll)), goal)
    row("from the save's answer: mean", *(ms(statistics.fmean(d["answer"])) for d in (push, poll)))
    cpu, ref_cpu = pushed["cpu"], polled["cpu"]
    row(
        "CPU, share of the whole node",
        f"{cpu['nginx'] + cpu['app']:.0f} % (nginx {cpu['nginx']:.1f}, app {cpu['app']:.0f})",
        f"{ref_cpu['app']:.0f} % (app)",
    )
    row("streams still open at the end", f"{pushed['open']:,}", "")
    if problem:
        print(f"  {problem}")


def part_rates(db: Tables, args: argparse.Namespace) -> None:
    nights, seconds = args.rate_nights, args.rate_seconds
    print(
        f"\n5. Rates: {nights * PHONES_AT_A_NIGHT:,} phones on {nights:,} nights, through the"
        f" front, {seconds:.0f} s a rate, until p95 from the save's sending passes"
        f" {ms(GOAL_P95_SECONDS)}"
    )
    tables = db.first(nights)
    held = 0.0
    with Server(front=True, workers=args.workers) as server:
        for rate in args.rates:
            pushed = asyncio.run(spread_pushed(server, tables, seconds, nights / rate))
            told = delays(pushed)
            if not told["sending"]:
                print(f"  {rate:5.0f} saves a second asked: no phone was told anything")
                break
            # A writer behind its schedule sends its next save at once: the rate held is
            # the saves over the time from the first sent to the last answered.
            changes = [change for writer in pushed["writers"] for change in writer.changes]
            took = max(answered for *_, answered in changes) - min(s for _, s, _ in changes)
            done = told["changes"] / max(took, seconds)
            p95 = pct(told["sending"], 0.95)
            print(
                f"  {rate:5.0f} saves a second asked, {done:5.1f} saved:"
                f" from the sending p50 {ms(pct(told['sending'], 0.5))}, p95 {ms(p95)};"
                f" from the answer p95 {ms(pct(told['answer'], 0.95))};"
                f" told {told['heard']:,} of {told['expected']:,};"
                f" CPU {pushed['cpu']['app']:.0f} % app, {pushed['cpu']['nginx']:.1f} % nginx",
                flush=True,
            )
            if p95 > GOAL_P95_SECONDS or told["missing"]:
                break
            held = done
    problem = db.check(tables)
    print(f"  held within p95 {ms(GOAL_P95_SECONDS)}: {held:.0f} saves a second")
    if problem:
        print(f"  {problem}")


# -- 3. Requests per phone ---------------------------------------------------------------


class LivePage:
    """One phone's night page as static/ofcboard/live.js and htmx run it.

    With the stream: it is opened with the page, and its first opening asks for the
    fragment at once (opened again after the front ended it, it asks nothing); a pushed
    version the page does not show is shown from the live part the message carries, or
    asked for when it carries none for this page; the page's own poll ticks every 2 s
    but goes out only when the element was last asked for or shown 30 s ago. Without
    it (no front: the page has no data-stream), every tick asks. A request under way
    takes the next trigger after it (htmx's queue, "last")."""

    def __init__(self, port: int, table: Table, phone: Phone, streaming: bool) -> None:
        self.port, self.table, self.phone, self.streaming = port, table, phone, streaming
        self.shown = table.version
        self.link = Link(port, table.address)
        self.asked: Counter = Counter()
        self.last_asked = 0.0  # live.js's lastAsked: none yet
        self.busy = False
        self.queued: str | None = None
        self.stream: Stream | None = None
        self.fetching: asyncio.Task | None = None

    async def run(self, until: float) -> None:
        if self.streaming:
            self.stream = Stream(self.port, self.table, self.phone, self.told)
            # nginx alone opens it (scorekeeper/site/front_pass.py): not a request of
            # the app's, which the "stream opened" line below counted before.
            self.asked["stream opened at the front"] += 1
            await self.stream.start()
            if self.stream.open:
                self.trigger("fetch when the stream opened")
            else:
                self.asked[f"stream answered {self.stream.status}"] += 1
        await asyncio.sleep(random.uniform(0, POLL_SECONDS))
        while time.monotonic() < until:
            if self.stream is not None and not self.stream.open:
                # The front ends a stream after a while: EventSource opens it again by
                # itself, and live.js asks nothing (the front's first word on it is the
                # channel's last message, if any came meanwhile).
                self.stream = Stream(self.port, self.table, self.phone, self.told)
                self.asked["stream opened at the front"] += 1
                await self.stream.start()
            open_ = self.stream is not None and self.stream.open
            if not open_ or time.monotonic() - self.last_asked >= SAFETY_POLL_SECONDS:
                self.trigger("safety poll" if self.streaming else "poll")
            await asyncio.sleep(POLL_SECONDS)
        if self.stream is not None:
            self.stream.close()
        while self.busy:
            await asyncio.sleep(0.05)
        self.link.close()

    def saw(self, version: int) -> None:
        self.shown = max(self.shown, version)

    def told(self, version: str, at: float) -> None:
        """As live.js: a version the page does not show is shown from what the message
        carried when that is the page's part at the round the page shows (the bench's
        writer keeps the round and nobody's seat changes), else asked for."""
        if version == str(self.shown):
            return
        carried = self.stream.carried if self.stream is not None else None
        usable = carried is not None and "en" in carried["in"]
        if usable and carried.get("round") == self.table.round:  # type: ignore[union-attr]
            self.shown = int(version)
            self.last_asked = time.monotonic()
            self.asked["shown from the message, not asked"] += 1
            return
        self.trigger("fetch for a pushed change")

    def trigger(self, why: str) -> None:
        if self.busy:
            self.queued = why
            return
        self.busy = True
        self.fetching = asyncio.create_task(self.fetch(why))

    async def fetch(self, why: str) -> None:
        while True:
            self.last_asked = time.monotonic()
            path = self.table.poll_path(self.phone, self.shown)
            status, body = await self.link.ask("GET", path, {"Cookie": self.phone.cookie})
            self.asked[why] += 1
            if status == 200 and (brought := poll_version(body)) is not None:
                self.shown = brought
                self.asked[why + ", bringing a change"] += 1
            if self.queued is None:
                break
            why, self.queued = self.queued, None
        self.busy = False


async def requests_run(
    server: Server, tables: list[Table], seconds: float, every: float, streaming: bool
) -> tuple[Counter, int]:
    until = time.monotonic() + seconds
    pages = [
        LivePage(server.port, table, phone, streaming) for table in tables for phone in table.phones
    ]
    # The save's answer brings the saving phone's page the new version with it.
    writers = [
        Writer(server.port, table, every, saved=page.saw)
        for table, page in zip(tables, pages[::PHONES_AT_A_NIGHT], strict=True)
    ]
    await asyncio.gather(
        *(page.run(until) for page in pages), *(writer.run(until) for writer in writers)
    )
    saved = sum(len(writer.changes) for writer in writers)
    return sum((page.asked for page in pages), Counter()), saved


def part_requests(db: Tables, args: argparse.Namespace) -> None:
    nights = args.requests_phones // PHONES_AT_A_NIGHT
    phones, seconds, every = nights * PHONES_AT_A_NIGHT, args.requests_seconds, args.every
    print(
        f"\n3. Requests per phone: {phones} phones on {nights} nights, a save every"
        f" {every:.0f} s a night, {seconds:.0f} s"
    )
    tables = db.first(nights)
    with Server(front=True, workers=args.workers) as server:
        pushed, saved = asyncio.run(requests_run(server, tables, seconds, every, True))
    with Server(front=False, workers=args.workers) as server:
        polled, saved_too = asyncio.run(requests_run(server, tables, seconds, every, False))
    problem = db.check(tables)
    minutes = seconds / 60

    def each(count: int) -> str:
        return f"{count / phones / minutes:6.2f}"

    reasons = ("stream opened", "fetch when the stream opened", "fetch for a pushed change")
    reasons += ("safety poll",)
    app_pushed = sum(pushed[why] for why in reasons)
    app_polled = polled["poll"]
    brought = sum(pushed[why + ", bringing a change"] for why in reasons)
    print(f"  {'requests reaching the app, per phone a minute':<50}{'streams':>8}{'polls':>8}")
    print(f"  {'all of them':<50}{each(app_pushed):>8}{each(app_polled):>8}")
    for why in reasons:
        print(f"  {'  ' + why:<50}{each(pushed[why]):>8}")
    print(f"  {'  poll every 2 s':<50}{'':>8}{each(polled['poll']):>8}")
    print(
        f"  {'  of which brought a change (200)':<50}{each(brought):>8}"
        f"{each(polled['poll, bringing a change']):>8}"
    )
    at_the_front = each(pushed["stream opened at the front"])
    print(f"  {'  (streams opened by nginx alone, not the app)':<50}{at_the_front:>8}")
    from_messages = each(pushed["shown from the message, not asked"])
    print(f"  {'  (changes shown from the message, not asked)':<50}{from_messages:>8}")
    for why in sorted(pushed):
        if why.startswith("stream answered"):
            print(f"  {'  ' + why + ' (not 200)':<50}{each(pushed[why]):>8}")
    ratio = app_polled / app_pushed if app_pushed else float("inf")
    empty_pushed = app_pushed - brought
    empty_polled = app_polled - polled["poll, bringing a change"]
    print(f"  streams: {ratio:.1f}x fewer requests (goal: 10x)")
    print(
        f"  the requests that brought nothing new: {empty_polled / max(empty_pushed, 1):.1f}x"
        f" fewer ({each(empty_polled).strip()} against {each(empty_pushed).strip()})"
    )
    print(
        "  a change at an unchanged round is shown from the message (views/pushed_parts.py);"
        " a new round costs each phone one fetch, for its new entry form (this writer keeps"
        " the round)"
    )
    print(
        f"  saves: {saved} and {saved_too} ({every:.0f} s apart a night), not counted above"
        f"{'; ' + problem if problem else ''}"
    )


# -- 4. After a restart ----------------------------------------------------------------


async def open_again(server: Server, tables: list[Table], phones: int) -> tuple[float, str, str]:
    """Every phone opening its stream at once on a server just started: (seconds until
    all stream, rates, answers)."""
    streams = quiet_streams(server, tables, phones)
    took, statuses = await open_streams(server.port, streams)
    rates = opening_rates(streams)
    for stream in streams:
        stream.close()
    return took, rates, ", ".join(f"{n:,} {s}" for s, n in statuses.items())


# Through the app, before the pages' streams were signed for nginx (issue 44): 10,000
# phones all streaming again in 34.8 s on an idle two-core node, 55.9 s on a busy one,
# sessions read from the database. The app has no stream view any more to measure again.
BEFORE_RESTART_SECONDS = 34.8


def part_restart(db: Tables, args: argparse.Namespace) -> None:
    phones = args.restart_phones
    tables = db.first(-(-phones // PHONES_AT_A_NIGHT))
    print(
        f"\n4. After a restart: {phones:,} phones opening their streams again, {OPENING_AT_ONCE}"
        " at a time, through the front (goal: all streaming within 30 s)"
    )
    with Server(front=True, workers=args.workers) as server:
        took, rates, answers = asyncio.run(open_again(server, tables, phones))
    label = "signed stream URL, nginx alone (now)"
    print(f"  {label:<40} all in {took:5.1f} s{rates}; answers {answers}", flush=True)
    before = "through the app (before, 10,000 phones)"
    print(f"  {before:<40} all in {BEFORE_RESTART_SECONDS:5.1f} s (measured then, idle node)")


# -- The command -------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--only", choices=["idle", "spread", "requests", "restart", "rates"], action="append"
    )
    parser.add_argument("--quick", action="store_true", help="small sizes, a minute or two")
    parser.add_argument(
        "--workers",
        type=int,
        default=CORES,
        help="app server processes (default: one per core, as bench/server.py)",
    )
    parser.add_argument("--idle-phones", type=int, default=10_000)
    parser.add_argument("--idle-reference", type=int, default=1_000, help="phones polling")
    parser.add_argument("--idle-seconds", type=float, default=30)
    parser.add_argument("--spread-phones", type=int, default=2_000)
    parser.add_argument("--spread-reference", type=int, default=200, help="phones polling")
    parser.add_argument("--spread-seconds", type=float, default=60)
    parser.add_argument("--requests-phones", type=int, default=100)
    parser.add_argument("--requests-seconds", type=float, default=60)
    parser.add_argument("--every", type=float, default=10, help="seconds between a night's saves")
    parser.add_argument("--restart-phones", type=int, default=10_000)
    parser.add_argument(
        "--rates",
        type=lambda text: [float(rate) for rate in text.split(",")],
        default=[10, 20, 40, 80, 120, 160, 200],
        help="saves a second to try in turn (the rates part)",
    )
    parser.add_argument("--rate-nights", type=int, default=400)
    parser.add_argument("--rate-seconds", type=float, default=30)
    args = parser.parse_args()
    if args.quick:
        args.idle_phones, args.idle_reference, args.idle_seconds = 500, 100, 10
        args.spread_phones, args.spread_reference, args.spread_seconds = 100, 50, 20
        args.requests_phones, args.requests_seconds = 20, 30
        args.restart_phones = 500
    # Every phone a socket: as many as this process may have.
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"Changes pushed through the front, against polls every 2 s ({CORES} cores, SQLite)")
    db = Tables()
    parts = (
        ("idle", part_idle),
        ("spread", part_spread),
        ("requests", part_requests),
        ("restart", part_restart),
        ("rates", part_rates),
    )
    for part, run in parts:
        if (not args.only and part != "rates") or (args.only and part in args.only):
            run(db, args)


if __name__ == "__main__":
    main()
