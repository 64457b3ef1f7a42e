"""The front, measured: nginx with Nchan (what ofcboard/front.py writes) against Pushpin
(GRIP), side by side on this machine, in one run. Run:
``.venv/bin/python bench/fronts.py`` (a few minutes; ``--streams 1000`` for a quick
look). Needs nginx with Nchan (``apt install nginx libnginx-mod-nchan``) and Pushpin
(``apt install pushpin``); a front that is missing is said so and skipped.

Each front runs from a temporary folder with a configuration written here: nginx's is
ofcboard.front.config() as the app writes it; Pushpin's is its Debian defaults with its
runtime files, logs and ports moved into the folder (and its own zurl, which Debian's
package expects as a system service). Pushpin runs twice: as Debian configures it, and
with message_rate=0 (its publish limiter off: see the note printed after the table).
Behind both, a tiny threaded origin of this
script's own answers ``GET /stream/<channel>`` as the app does for its front
(X-Accel-Redirect to /_streams/<channel> for Nchan; Grip-Hold: stream and
Grip-Channel for Pushpin) and records each ``POST``: when it arrived and how long its
handler thread sat reading the body.

The client is asyncio on raw sockets, in two processes, the same for both fronts. The
phones come from many loopback addresses (127.20.x.y, 100 streams each), as phones
behind many routers would: nginx limits each address (limit_conn, limit_req), and one
address could never hold 10,000 streams.

1. Idle: 10,000 streams on 1,000 channels held for 30 s: the CPU time of all the
   front's processes (/proc/<pid>/stat: nginx's master and workers; Pushpin's runner,
   condure, zurl, pushpin-proxy and pushpin-handler) as a share of the whole machine
   (every core), and their memory (PSS, /proc/<pid>/smaps_rollup) with the streams
   held, minus before; and how busy the whole machine was meanwhile (/proc/stat), since
   anything else running spoils the CPU figures.
2. Fan-out: with the 10,000 held, one message published to each of the 1,000 channels,
   spread evenly over 10 s (one HTTP connection to the front's publishing port, as the
   app publishes): received against expected, and the delay from publishing to each
   subscriber's receipt (p50, p95, max).
3. Bodies held back: 200 connections (4 addresses) send ``POST /x`` headers announcing
   100 bytes and never send them: does the origin get the request before the body is
   whole (and a thread of it sit reading), and does the front cut them off (when)?
   Then the per-address limits: 300 streams asked at once from one address, and 300
   asked at 15 a second (under nginx's rate, so only the connection limit counts).
"""

import argparse
import asyncio
import contextlib
import http.client
import json
import multiprocessing
import os
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ofcboard.settings")
# Read only for the languages of the refusal pages; a key so that no file is written.
os.environ.setdefault("SECRET_KEY", "bench-fronts-" + os.urandom(16).hex())

STREAMS = 10_000
CHANNELS = 1_000
PER_ADDRESS = 100  # streams from one phone address (127.20.x.y)
HOLD_SECONDS = 30
SPREAD_SECONDS = 10
BODIES = 200
BODY_ADDRESSES = 4
BODY_WATCH_SECONDS = 45
LIMIT_PROBE = 300
LIMIT_PACE = 15  # a second
OPEN_AT_ONCE = 50  # connections being opened at once, per client process
RETRIES = 5
CLIENTS = 2
VERSION = 7


# ---------------------------------------------------------------- the front's processes


def _children() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    return children


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    children = _children()
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def names(pids: list[int]) -> str:
    out = []
    for pid in pids:
        with contextlib.suppress(OSError):
            out.append(Path(f"/proc/{pid}/comm").read_text().strip())
    return ", ".join(sorted(out))


TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICK


def machine_busy() -> tuple[int, int]:
    """Busy and total ticks of the whole machine (/proc/stat): how much else ran."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def pss_kib(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            text = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue
        match = re.search(r"^Pss:\s+(\d+) kB", text, re.M)
        total += int(match.group(1)) if match else 0
    return total


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port} after {seconds} s")


# ------------------------------------------------------------------------------ origin


class Origin(ThreadingHTTPServer):
    """The app's part, as little of it as the fronts need."""

    daemon_threads = True
    request_queue_size = 4096

    def __init__(self, mode: str) -> None:
        super().__init__(("127.0.0.1", 0), OriginHandler)
        self.mode = mode  # "nchan" or "grip"
        self.lock = threading.Lock()
        self.streams = 0
        self.posts = 0
        self.reading = 0
        self.most_reading = 0
        self.first_post: float | None = None
        self.reads: list[tuple[float, int]] = []  # (seconds reading, bytes read)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def port(self) -> int:
        return self.server_address[1]

    def posts_now(self) -> tuple[int, int]:
        with self.lock:
            return self.posts, self.reading

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


class OriginHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: Origin

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        match = re.fullmatch(r"/stream/([a-z]+-[0-9]+)", self.path)
        if match is None:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        channel = match.group(1)
        with self.server.lock:
            self.server.streams += 1
        self.send_response(200)
        self.send_header("Cache-Control", "no-store")
        if self.server.mode == "nchan":
            # As the app handed a stream to its nginx before its pages signed their own.
            self.send_header("X-Accel-Redirect", f"/_streams/{channel}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        # GRIP (pushpin.org/docs/protocols/grip/): hold the response open as a stream,
        # subscribed to the channel; a comment every 30 s of quiet, as Nchan's ping.
        body = b": stream open\n\n"
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Grip-Hold", "stream")
        self.send_header("Grip-Channel", channel)
        self.send_header("Grip-Keep-Alive", r":\n\n; format=cstring; timeout=30")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        server = self.server
        started = time.monotonic()
        with server.lock:
            server.posts += 1
            server.reading += 1
            server.most_reading = max(server.most_reading, server.reading)
            if server.first_post is None:
                server.first_post = started
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = self.rfile.read(length)
        except OSError:
            body = b""
        with server.lock:
            server.reading -= 1
            server.reads.append((time.monotonic() - started, len(body)))
        if len(body) < length:
            self.close_connection = True
            return
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")


# ------------------------------------------------------------------------------ fronts


@dataclass
class Running:
    name: str
    process: subprocess.Popen
    folder: Path
    port: int
    publish: "callable"
    limits: list[str]
    buffering: list[str]
    version: str
    notes: list[str] = field(default_factory=list)

    def pids(self) -> list[int]:
        return process_tree(self.process.pid)

    def stop(self) -> None:
        pids = self.pids()
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        time.sleep(0.5)
        for pid in pids[1:]:  # a sub-process its parent left behind (ours: we started it)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if os.environ.get("FRONTS_KEEP"):
            print(f"  kept {self.folder}")
        else:
            shutil.rmtree(self.folder, ignore_errors=True)


def start_nginx(origin: Origin) -> Running | str:
    from ofcboard import front

    nginx = front.find()
    if nginx is None:
        return "nginx with Nchan's module is not installed (apt install nginx libnginx-mod-nchan)"
    folder = Path(tempfile.mkdtemp(prefix="fronts-nginx-"))
    folder.chmod(0o755)  # nginx's workers run as another user when started as root
    port, publish_port = free_port(), free_port()
    try:
        text = front.config(
            nginx,
            folder=folder,
            listen=f"127.0.0.1:{port}",
            apps=[f"127.0.0.1:{origin.port}"],
            publish=f"127.0.0.1:{publish_port}",
        )
        (folder / "nginx.conf").write_text(text)
        front.refusal_pages(folder)
    except Exception:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    command = [nginx.binary, "-p", str(folder), "-e", "stderr", "-c", str(folder / "nginx.conf")]
    checked = subprocess.run([*command, "-t", "-q"], capture_output=True, text=True)
    if checked.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        return f"nginx refuses ofcboard.front.config(): {checked.stderr.strip()}"
    process = subprocess.Popen(
        [*command, "-g", "daemon off;"],
        stdout=open(folder / "nginx.log", "w"),  # noqa: SIM115 (closed with the process)
        stderr=subprocess.STDOUT,
    )
    wait_for_port(port)
    wait_for_port(publish_port)
    version = subprocess.run([nginx.binary, "-v"], capture_output=True, text=True).stderr.strip()
    nchan = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Version}", "libnginx-mod-nchan"],
        capture_output=True,
        text=True,
    ).stdout
    connection = http.client.HTTPConnection("127.0.0.1", publish_port, timeout=10)

    def publish(channel: str) -> int:
        connection.request("POST", f"/{channel}", body=f"version {VERSION}".encode())
        answer = connection.getresponse()
        answer.read()
        return answer.status

    limits = [
        f"limit_conn {front.PER_ADDRESS} requests at once per address"
        " (limit_conn_zone $binary_remote_addr; a held stream is one)",
        f"limit_req {front.ASKS_PER_SECOND} r/s per address, burst {front.ASKS_BURST} nodelay",
    ]
    buffering = [
        f"client_body_timeout {front.BODY_SECONDS}s, client_header_timeout"
        f" {front.HEADER_SECONDS}s, client_max_body_size {front.MAX_BODY}",
        "proxy_request_buffering on (nginx's default): the body is read whole"
        " before the app is asked",
    ]
    return Running(
        "nginx+Nchan",
        process,
        folder,
        port,
        publish,
        limits,
        buffering,
        f"{version.removeprefix('nginx version: ')}, libnginx-mod-nchan {nchan or '?'}",
    )


PUSHPIN_CONF = """\
# Written by bench/fronts.py: Debian's /etc/pushpin/pushpin.conf, with its runtime
# files, logs and ports moved into this folder, and its own zurl.
[global]
include={{libdir}}/internal.conf
rundir={folder}/run
ipc_prefix=bench-
port_offset=0
stats_connection_ttl=120

[runner]
services=condure,zurl,pushpin-proxy,pushpin-handler
http_port=127.0.0.1:{port}
logdir={folder}/log
# 1 = warnings: no line per request (nginx here has access_log off)
log_level=1
client_buffer_size=8192
client_maxconn=50000
condure_bin={condure}
zurl_bin={zurl}

[proxy]
routesfile=routes
# Debian's internal.conf expects the system's zurl service; this one starts its own.
zurl_out_specs=ipc://{{rundir}}/{{ipc_prefix}}zurl-in
zurl_out_stream_specs=ipc://{{rundir}}/{{ipc_prefix}}zurl-in-stream
zurl_in_specs=ipc://{{rundir}}/{{ipc_prefix}}zurl-out
debug={debug}
auto_cross_origin=false
accept_x_forwarded_protocol=false
set_x_forwarded_protocol=proto-only
x_forwarded_for=
x_forwarded_for_trusted=
orig_headers_need_mark=
accept_pushpin_route=false
log_from=false
log_user_agent=false
sig_iss=pushpin
sig_key=bench-{key}
upstream_key=
updates_check=off
organization_name=

[handler]
push_in_spec=tcp://127.0.0.1:{push_in}
push_in_sub_specs=tcp://127.0.0.1:{push_sub}
push_in_sub_connect=false
push_in_http_addr=127.0.0.1
push_in_http_port={publish}
push_in_http_max_headers_size=10000
push_in_http_max_body_size=1000000
stats_spec=ipc://{{rundir}}/{{ipc_prefix}}stats
command_spec=tcp://127.0.0.1:{command}
message_rate={message_rate}
message_hwm=25000
message_wait=5000
id_cache_ttl=60
connection_subscription_max=20
subscription_linger=60
stats_subscription_ttl=60
stats_report_interval=10
stats_format=tnetstring
"""


def start_pushpin(origin: Origin, message_rate: int = 2500) -> Running | str:
    """Pushpin as Debian configures it; ``message_rate`` 0 turns its publish limiter off."""
    binary = shutil.which("pushpin")
    if binary is None:
        return "Pushpin is not installed (apt install pushpin)"
    condure, zurl = shutil.which("condure"), shutil.which("zurl")
    if condure is None or zurl is None:
        return "Pushpin's condure or zurl is missing (apt install condure zurl)"
    folder = Path(tempfile.mkdtemp(prefix="fronts-pushpin-"))
    (folder / "run").mkdir()
    (folder / "log").mkdir()
    port, publish_port = free_port(), free_port()
    (folder / "pushpin.conf").write_text(
        PUSHPIN_CONF.format(
            folder=folder,
            port=port,
            publish=publish_port,
            push_in=free_port(),
            push_sub=free_port(),
            command=free_port(),
            condure=condure,
            zurl=zurl,
            key=os.urandom(8).hex(),
            debug="true" if os.environ.get("FRONTS_KEEP") else "false",
            message_rate=message_rate,
        )
    )
    (folder / "routes").write_text(f"* 127.0.0.1:{origin.port}\n")
    process = subprocess.Popen(
        [binary, "--config", str(folder / "pushpin.conf")],
        stdout=open(folder / "log" / "runner.log", "w"),  # noqa: SIM115
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for_port(port)
        wait_for_port(publish_port)
    except RuntimeError as error:
        process.terminate()
        process.wait()
        log = (folder / "log" / "runner.log").read_text()[-2000:]
        shutil.rmtree(folder, ignore_errors=True)
        return f"Pushpin did not start: {error}\n{log}"
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
    versions = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Package} ${Version}\n", "pushpin", "condure", "zurl"],
        capture_output=True,
        text=True,
    ).stdout.split("\n")
    connection = http.client.HTTPConnection("127.0.0.1", publish_port, timeout=10)

    def publish(channel: str) -> int:
        item = {
            "channel": channel,
            "formats": {"http-stream": {"content": f"data: version {VERSION}\n\n"}},
        }
        connection.request(
            "POST",
            "/publish/",
            body=json.dumps({"items": [item]}).encode(),
            headers={"Content-Type": "application/json"},
        )
        answer = connection.getresponse()
        answer.read()
        return answer.status

    limits = [
        "none: pushpin.conf has client_maxconn (all clients together, passed to"
        " condure as --stream-maxconn) and message_rate (publishing); the routes file"
        " has no limit option (src/proxy/domainmap.cpp), condure no per-address option"
        " (condure --help)",
    ]
    buffering = [
        "pushpin-proxy reads a body up to 100,000 bytes before it asks the origin"
        " (MAX_SHARED_REQUEST_BODY, src/proxy/requestsession.cpp); no deadline for it"
        " in pushpin.conf, and the runner starts condure with --listen, --buffer-size"
        " and --stream-maxconn only (src/runner/condureservice.cpp), so condure's"
        " default --stream-timeout (1800 s) is the only client timeout",
        "new requests wait for zurl on a ZeroMQ socket with a high-water mark of 100"
        " (OUT_HWM, src/corelib/zhttpmanager.cpp); when it is full pushpin-proxy"
        " answers 502 (ErrorUnavailable, src/corelib/zhttprequest.cpp)",
    ]
    notes = [
        f"message_rate={message_rate}: deliveries go through a limiter"
        " (src/handler/ratelimiter.cpp) that, with a rate, runs in batches on a 25 ms"
        " timer (MIN_BATCH_INTERVAL) which each new publish restarts (setup() calls"
        " QTimer::setInterval on the running timer): while publishes come less than"
        " 25 ms apart, nothing is sent; message_rate=0 sends at once"
    ]
    return Running(
        "Pushpin",
        process,
        folder,
        port,
        publish,
        limits,
        buffering,
        f"{version}; Debian: {', '.join(v for v in versions if v)}",
        notes,
    )


# ------------------------------------------------------------------------------ client


class Stream(asyncio.Protocol):
    """One phone's EventSource, as raw bytes: the answer's status, then whether a
    "version" message came and when."""

    def __init__(self, channel: str, request: bytes) -> None:
        self.channel = channel
        self.source = ""
        self.request = request
        self.head = b""
        self.tail = b""
        self.status: int | None = None
        self.got: float | None = None
        self.closed_at: float | None = None
        self.transport: asyncio.Transport | None = None
        self.ready = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        if self.status is None:
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                return
            first = self.head[: self.head.find(b"\r\n")]
            try:
                self.status = int(first.split(b" ", 2)[1])
            except (IndexError, ValueError):
                self.status = -1
            data = self.head[end + 4 :]
            self.head = b""
            if not self.ready.done():
                self.ready.set_result(self.status)
            if self.status != 200:
                return
        if self.got is None:
            text = self.tail + data
            if b"version " in text:
                self.got = time.monotonic()
            else:
                self.tail = text[-16:]

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed_at = time.monotonic()
        if not self.ready.done():
            self.ready.set_result(None)

    @property
    def held(self) -> bool:
        return self.status == 200 and self.closed_at is None

    def close(self) -> None:
        if self.transport is not None and self.closed_at is None:
            self.transport.abort()


def stream_request(channel: str) -> bytes:
    return (
        f"GET /stream/{channel} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n"
        "Cache-Control: no-cache\r\nUser-Agent: bench/fronts.py\r\n\r\n"
    ).encode()


async def open_streams(
    port: int, specs: list[tuple[str, str]], at_once: int, pace: float = 0
) -> tuple[list[Stream], dict[str, int]]:
    """Streams for ``specs`` [(channel, source address)]; the outcome of each."""
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(at_once)
    streams: list[Stream] = []
    outcomes: dict[str, int] = {}

    async def one(channel: str, source: str) -> None:
        async with gate:
            try:
                _, stream = await loop.create_connection(
                    lambda: Stream(channel, stream_request(channel)),
                    "127.0.0.1",
                    port,
                    local_addr=(source, 0),
                )
            except OSError as error:
                key = f"connect: {error.strerror or error}"
                outcomes[key] = outcomes.get(key, 0) + 1
                stream = Stream(channel, b"")
                stream.status = -1
            stream.source = source
            streams.append(stream)
            if stream.status == -1:
                return
            try:
                status = await asyncio.wait_for(asyncio.shield(stream.ready), 60)
            except TimeoutError:
                status = "no answer in 60 s"
            key = str(status) if status is not None else "closed before answering"
            outcomes[key] = outcomes.get(key, 0) + 1

    if pace:
        tasks = []
        for channel, source in specs:
            tasks.append(asyncio.create_task(one(channel, source)))
            await asyncio.sleep(1 / pace)
        await asyncio.gather(*tasks)
    else:
        await asyncio.gather(*(one(channel, source) for channel, source in specs))
    return streams, outcomes


class Body(asyncio.Protocol):
    """A request whose body is announced and never sent."""

    def __init__(self) -> None:
        self.answer = b""
        self.closed_at: float | None = None
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        transport.write(  # type: ignore[attr-defined]
            b"POST /x HTTP/1.1\r\nHost: bench\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n"
            b"User-Agent: bench/fronts.py\r\n\r\n"
        )

    def data_received(self, data: bytes) -> None:
        self.answer += data[:200]

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed_at = time.monotonic()


async def hold_bodies(port: int, sources: list[str], watch: float) -> dict:
    loop = asyncio.get_running_loop()
    bodies: list[Body] = []
    started = time.monotonic()
    refused = 0
    for index in range(BODIES):
        try:
            _, body = await loop.create_connection(
                Body, "127.0.0.1", port, local_addr=(sources[index % len(sources)], 0)
            )
            bodies.append(body)
        except OSError:
            refused += 1
    sent = time.monotonic()
    while time.monotonic() < started + watch and any(b.closed_at is None for b in bodies):
        await asyncio.sleep(0.1)
    cut = [b.closed_at - sent for b in bodies if b.closed_at is not None]
    statuses: dict[str, int] = {}
    for body in bodies:
        line = body.answer.split(b"\r\n", 1)[0].decode(errors="replace")
        key = " ".join(line.split(" ")[1:2]) or "no answer"
        statuses[key] = statuses.get(key, 0) + 1
    for body in bodies:
        if body.transport is not None and body.closed_at is None:
            body.transport.abort()
    return {"refused": refused, "cut": cut, "open": len(bodies) - len(cut), "statuses": statuses}


async def client_loop(pipe) -> None:
    loop = asyncio.get_running_loop()
    streams: list[Stream] = []
    while True:
        command, *args = await loop.run_in_executor(None, pipe.recv)
        if command == "open":
            port, specs = args
            started = time.monotonic()
            streams, outcomes = await open_streams(port, specs, OPEN_AT_ONCE)
            # A refused stream is asked again a second later, as live.js does (after
            # 5 s there): the idle and fan-out parts want every stream held.
            retried = 0
            for _ in range(RETRIES):
                failed = [(s.channel, s.source) for s in streams if s.status != 200]
                if not failed:
                    break
                retried += len(failed)
                for stream in streams:
                    if stream.status != 200:
                        stream.close()
                streams = [stream for stream in streams if stream.status == 200]
                await asyncio.sleep(1)
                again, _ = await open_streams(port, failed, OPEN_AT_ONCE)
                streams += again
            pipe.send(
                {
                    "outcomes": outcomes,
                    "retried": retried,
                    "ok": sum(stream.held for stream in streams),
                    "seconds": time.monotonic() - started,
                }
            )
        elif command == "held":
            pipe.send(sum(stream.held for stream in streams))
        elif command == "await":
            (deadline,) = args
            waiting = [stream for stream in streams if stream.held]
            while time.monotonic() < deadline and any(
                s.got is None and s.closed_at is None for s in waiting
            ):
                await asyncio.sleep(0.05)
            pipe.send(
                {
                    "expected": len(waiting),
                    "received": [(s.channel, s.got) for s in waiting if s.got is not None],
                    "closed": sum(s.closed_at is not None and s.got is None for s in waiting),
                }
            )
        elif command == "close":
            for stream in streams:
                stream.close()
            streams = []
            await asyncio.sleep(0.5)
            pipe.send("closed")
        elif command == "limit":
            port, source, pace = args
            specs = [(f"limit-{index % 10}", source) for index in range(LIMIT_PROBE)]
            probe, outcomes = await open_streams(port, specs, LIMIT_PROBE, pace)
            await asyncio.sleep(1)
            held = sum(stream.held for stream in probe)
            for stream in probe:
                stream.close()
            await asyncio.sleep(0.5)
            pipe.send({"outcomes": outcomes, "held": held})
        elif command == "bodies":
            port, sources, watch = args
            pipe.send(await hold_bodies(port, sources, watch))
        elif command == "quit":
            pipe.send("bye")
            return


def client_main(pipe) -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    asyncio.run(client_loop(pipe))


class Clients:
    def __init__(self, count: int) -> None:
        context = multiprocessing.get_context("fork")
        self.pipes = []
        self.processes = []
        for _ in range(count):
            ours, theirs = context.Pipe()
            process = context.Process(target=client_main, args=(theirs,), daemon=True)
            process.start()
            self.pipes.append(ours)
            self.processes.append(process)

    def ask(self, command: tuple, only: int | None = None) -> list:
        pipes = self.pipes if only is None else [self.pipes[only]]
        for pipe in pipes:
            pipe.send(command)
        return [pipe.recv() for pipe in pipes]

    def send_each(self, commands: list[tuple]) -> list:
        for pipe, command in zip(self.pipes, commands, strict=True):
            pipe.send(command)
        return [pipe.recv() for pipe in self.pipes]

    def stop(self) -> None:
        self.ask(("quit",))
        for process in self.processes:
            process.join(5)


# --------------------------------------------------------------------------- measuring


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def phone_address(index: int) -> str:
    group = index // PER_ADDRESS
    return f"127.20.{group // 250}.{group % 250 + 1}"


def measure(name: str, starter, clients: Clients, streams: int) -> dict:
    result: dict = {"name": name}
    origin = Origin("nchan" if name.startswith("nginx") else "grip")
    front = starter(origin)
    if isinstance(front, str):
        origin.stop()
        print(f"{name}: skipped: {front}", flush=True)
        result["skipped"] = front
        return result
    try:
        result["version"] = front.version
        result["limits"] = front.limits
        result["buffering"] = front.buffering
        result["notes"] = front.notes
        time.sleep(2)
        pids = front.pids()
        result["processes"] = names(pids)
        before = pss_kib(pids)
        print(
            f"\n{name} ({front.version}): {len(pids)} processes ({result['processes']}),"
            f" PSS {before / 1024:.1f} MiB; load {os.getloadavg()[0]:.2f}",
            flush=True,
        )

        # 1. Idle streams.
        channels = [f"night-{index + 1}" for index in range(CHANNELS)]
        specs = [(channels[index % CHANNELS], phone_address(index)) for index in range(streams)]
        share = -(-len(specs) // len(clients.pipes))
        cpu = cpu_seconds(front.pids())
        opened = clients.send_each(
            [
                ("open", front.port, specs[i * share : (i + 1) * share])
                for i in range(len(clients.pipes))
            ]
        )
        result["open_cpu"] = cpu_seconds(front.pids()) - cpu
        outcomes: dict[str, int] = {}
        for answer in opened:
            for key, count in answer["outcomes"].items():
                outcomes[key] = outcomes.get(key, 0) + count
        result["open_seconds"] = max(answer["seconds"] for answer in opened)
        result["open_outcomes"] = outcomes
        result["open_retried"] = sum(answer["retried"] for answer in opened)
        result["open_ok"] = sum(answer["ok"] for answer in opened)
        result["origin_streams"] = origin.streams
        print(
            f"  opened {result['open_ok']} in {result['open_seconds']:.1f} s:"
            f" first answers {outcomes}, "
            f"{result['open_retried']} asked again (origin asked {origin.streams} times)",
            flush=True,
        )
        time.sleep(2)
        pids = front.pids()
        cpu, clock, busy = cpu_seconds(pids), time.monotonic(), machine_busy()
        time.sleep(HOLD_SECONDS)
        busy_after = machine_busy()
        result["machine_busy"] = (busy_after[0] - busy[0]) / max(1, busy_after[1] - busy[1]) * 100
        pids_after = front.pids()
        spent, wall = cpu_seconds(pids_after) - cpu, time.monotonic() - clock
        result["idle_cpu"] = spent / (wall * os.cpu_count()) * 100
        result["held"] = sum(clients.ask(("held",)))
        result["memory"] = (pss_kib(pids_after) - before) / 1024
        result["memory_total"] = pss_kib(pids_after) / 1024
        print(
            f"  held {result['held']} for {wall:.0f} s: CPU {spent:.2f} s ="
            f" {result['idle_cpu']:.2f} % of {os.cpu_count()} cores"
            f" (machine busy {result['machine_busy']:.1f} %); "
            f"PSS +{result['memory']:.1f} MiB (now {result['memory_total']:.1f})",
            flush=True,
        )

        # 2. Fan-out.
        deadline = time.monotonic() + SPREAD_SECONDS + 15
        for pipe in clients.pipes:
            pipe.send(("await", deadline))
        published: dict[str, float] = {}
        statuses: dict[int, int] = {}
        cpu = cpu_seconds(front.pids())
        start = time.monotonic() + 0.2
        slowest = 0.0
        for index, channel in enumerate(channels):
            due = start + index * SPREAD_SECONDS / CHANNELS
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            published[channel] = time.monotonic()
            status = front.publish(channel)
            slowest = max(slowest, time.monotonic() - published[channel])
            statuses[status] = statuses.get(status, 0) + 1
        publish_seconds = time.monotonic() - start
        answers = [pipe.recv() for pipe in clients.pipes]
        result["fanout_cpu"] = cpu_seconds(front.pids()) - cpu
        delays = [
            (got - published[channel]) * 1000
            for answer in answers
            for channel, got in answer["received"]
        ]
        result["expected"] = sum(answer["expected"] for answer in answers)
        result["received"] = len(delays)
        result["dropped"] = sum(answer["closed"] for answer in answers)
        result["publish_statuses"] = statuses
        result["publish_seconds"] = publish_seconds
        result["publish_slowest"] = slowest * 1000
        if delays:
            result["p50"] = percentile(delays, 0.5)
            result["p95"] = percentile(delays, 0.95)
            result["max"] = max(delays)
            result["mean"] = statistics.fmean(delays)
        print(
            f"  fan-out: {result['received']}/{result['expected']} received,"
            f" publishing took {publish_seconds:.1f} s (answers {statuses},"
            f" slowest {slowest * 1000:.0f} ms); delay ms p50 {result.get('p50', 0):.1f}"
            f" p95 {result.get('p95', 0):.1f} max {result.get('max', 0):.1f};"
            f" CPU {result['fanout_cpu']:.2f} s",
            flush=True,
        )
        clients.ask(("close",))
        time.sleep(1)

        # 3. Bodies held back.
        sources = [f"127.22.0.{index + 1}" for index in range(BODY_ADDRESSES)]
        clients.pipes[0].send(("bodies", front.port, sources, BODY_WATCH_SECONDS))
        samples = []
        begun = time.monotonic()
        for at in (2, 5, 15, BODY_WATCH_SECONDS - 1):
            pause = begun + at - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            samples.append((at, *origin.posts_now()))
        bodies = clients.pipes[0].recv()
        time.sleep(2)
        result["bodies"] = bodies
        result["origin_samples"] = samples
        result["origin_posts"] = origin.posts
        result["origin_most_reading"] = origin.most_reading
        result["origin_reading_after"] = origin.posts_now()[1]
        result["origin_reads"] = list(origin.reads)
        print(
            "  bodies: origin got/reading at "
            + ", ".join(f"{at} s {got}/{reading}" for at, got, reading in samples)
            + f"; front cut {len(bodies['cut'])} (answers {bodies['statuses']}),"
            f" {bodies['open']} still open at {BODY_WATCH_SECONDS} s; "
            f"origin threads reading 2 s after the client left: {result['origin_reading_after']}",
            flush=True,
        )

        # Per-address limits.
        result["limit_burst"] = clients.ask(("limit", front.port, "127.23.0.1", 0), only=0)[0]
        result["limit_paced"] = clients.ask(
            ("limit", front.port, "127.23.0.2", LIMIT_PACE), only=0
        )[0]
        print(
            f"  {LIMIT_PROBE} streams from one address at once: {result['limit_burst']};"
            f" at {LIMIT_PACE}/s: {result['limit_paced']}",
            flush=True,
        )
    finally:
        front.stop()
        origin.stop()
    return result


# ------------------------------------------------------------------------------- table


def table(results: list[dict], streams: int) -> str:
    measured = [r for r in results if "skipped" not in r]
    width = 40

    def row(label: str, cell) -> str:
        return f"{label:<{width}}" + "".join(f"{cell(r):>26}" for r in measured)

    def bodies_origin(r: dict) -> str:
        samples = r["origin_samples"]
        first = next((f"{at} s" for at, got, _ in samples if got), None)
        return f"{r['origin_posts']}/{BODIES}" + (f" by {first}" if first else "")

    def cut(r: dict) -> str:
        cut = r["bodies"]["cut"]
        if not cut:
            return f"no ({r['bodies']['open']} open at {BODY_WATCH_SECONDS} s)"
        text = f"{len(cut)} at {percentile(cut, 0.5):.1f}-{max(cut):.1f} s"
        return text + (f", {r['bodies']['open']} open" if r["bodies"]["open"] else "")

    def answers(r: dict) -> str:
        return ", ".join(f"{k} x{v}" for k, v in sorted(r["bodies"]["statuses"].items()))

    def limit(r: dict, key: str) -> str:
        outcomes = r[key]["outcomes"]
        return " ".join(f"{k}:{v}" for k, v in sorted(outcomes.items()))

    lines = [
        row("", lambda r: r["name"]),
        row(f"opened {streams:,} streams (s)", lambda r: f"{r['open_seconds']:.1f}"),
        row(
            f"  first answers ({OPEN_AT_ONCE * CLIENTS} at once)",
            lambda r: " ".join(f"{k}:{v}" for k, v in sorted(r["open_outcomes"].items())),
        ),
        row("  refused, asked again 1 s later", lambda r: f"{r['open_retried']:,}"),
        row("  front CPU to open them (s)", lambda r: f"{r['open_cpu']:.2f}"),
        row(f"held after {HOLD_SECONDS} s", lambda r: f"{r['held']:,}"),
        row(f"idle CPU, % of {os.cpu_count()} cores", lambda r: f"{r['idle_cpu']:.2f} %"),
        row("  whole machine busy meanwhile", lambda r: f"{r['machine_busy']:.1f} %"),
        row("memory held - before (PSS MiB)", lambda r: f"{r['memory']:.1f}"),
        row("  per stream (KiB)", lambda r: f"{r['memory'] * 1024 / max(r['held'], 1):.1f}"),
        row("  front's PSS with streams (MiB)", lambda r: f"{r['memory_total']:.1f}"),
        row("fan-out received / expected", lambda r: f"{r['received']:,}/{r['expected']:,}"),
        row("  delay p50 / p95 (ms)", lambda r: f"{r.get('p50', 0):.1f} / {r.get('p95', 0):.1f}"),
        row("  delay max (ms)", lambda r: f"{r.get('max', 0):.1f}"),
        row("  front CPU during fan-out (s)", lambda r: f"{r['fanout_cpu']:.2f}"),
        row("  slowest publish answer (ms)", lambda r: f"{r['publish_slowest']:.1f}"),
        row(f"{BODIES} bodies never sent: at origin", bodies_origin),
        row("  origin threads blocked reading (max)", lambda r: str(r["origin_most_reading"])),
        row("  front cut them off", cut),
        row("  front's answer", answers),
        row(f"{LIMIT_PROBE} streams, 1 address, at once", lambda r: limit(r, "limit_burst")),
        row(f"{LIMIT_PROBE} streams, 1 address, {LIMIT_PACE}/s", lambda r: limit(r, "limit_paced")),
    ]
    return "\n".join(lines)


def main() -> None:
    global CHANNELS
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=STREAMS)
    parser.add_argument("--only", choices=["nginx", "pushpin", "pushpin0"], action="append")
    args = parser.parse_args()
    CHANNELS = min(CHANNELS, max(1, args.streams // 10))
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if args.streams // CLIENTS + LIMIT_PROBE + BODIES + 100 > hard:
        raise SystemExit(
            f"{args.streams} streams need more open files than this machine allows ({hard})"
        )
    clients = Clients(CLIENTS)  # before any thread of ours: they fork
    print(
        f"{os.cpu_count()} cores, open files {hard}; {args.streams:,} streams on"
        f" {CHANNELS:,} channels from {-(-args.streams // PER_ADDRESS)} addresses,"
        f" {CLIENTS} client processes; load {os.getloadavg()}",
        flush=True,
    )
    fronts = [
        ("nginx+Nchan", start_nginx, "nginx"),
        ("Pushpin", start_pushpin, "pushpin"),
        ("Pushpin message_rate=0", lambda origin: start_pushpin(origin, 0), "pushpin0"),
    ]
    results = []
    try:
        for name, starter, key in fronts:
            if args.only and key not in args.only:
                continue
            results.append(measure(name, starter, clients, args.streams))
    finally:
        clients.stop()
    print()
    print(table(results, args.streams))
    print()
    for result in results:
        if "skipped" in result:
            print(f"{result['name']}: skipped: {result['skipped']}")
            continue
        print(f"{result['name']}: {result['version']}; processes: {result['processes']}")
        for line in result["limits"]:
            print(f"  per address: {line}")
        for line in result["buffering"]:
            print(f"  bodies: {line}")
        for line in result["notes"]:
            print(f"  publishing: {line}")


if __name__ == "__main__":
    main()
