"""The web server `make run` starts, with every setting it runs with: the benchmarks
and the tests start the very same one (``python -m ofcboard.serve --port N``).

One way to serve. With nginx and its Nchan module installed (``--front``: every
`make run` where they are, and every public site), nginx is the front
(ofcboard/front.py): it reads every request and its body whole within its deadlines,
limits each phone and each address, refuses what is too large or too much in the
phone's language, holds the phones' streams, and believes a TLS proxy or load
balancer only when it is named (OFCBOARD_TRUSTED_PROXY). The app then listens on
loopback, where only the front reaches it, and takes the phone's address and scheme
from the front's headers (:func:`believing_the_front`).

Without nginx, the server is for a table's own Wi-Fi, where everyone is trusted, and
says so when it starts: nothing holds off a stranger on the network, a proxy's
headers are believed from nobody, and the pages ask for changes every 2 s instead of
being told.

What stays here, front or no front, is what nginx cannot know: which post will hash
a password (half a second of a core, on purpose). Those run in a lane of their own
(ofcboard/lanes.py), so wrong passwords sent as fast as a script can
never keep polls and saves waiting for a thread; nginx lets an address ask 20 times
a second, which would be 10 s of hashing a second.

Granian: HTTP is read and written in Rust (hyper, on tokio's event loop) and only the
app itself runs in Python, in a few threads per process, so each open connection is
a task on the event loop, not a thread. Why WSGI and not Django's ASGI handler:
measured side by side on the 2-core machine (granian, one process, SQLite, wrk with
16 connections; two runs each, in two sittings), requests/s and p95:

    bare Django view  WSGI 999, 986, 1,221, 805 (p95 38-60 ms)
                      ASGI 264, 138, 245, 190 (p95 79-155 ms)
    the night page    WSGI 28, 28, 20, 17    ASGI 23, 21, 12, 16
    a poll (Django)   WSGI 218, 203, 160, 164    ASGI 90, 85, 85, 86

Django's ASGI handler runs each request's Django part on a thread made for that
request (asgiref's ThreadSensitiveContext), and a new thread means a new database
connection: at a fifth to a quarter of the bare view's rate, one process could not
hold the polls of the tables it serves.

``--workers N`` (or OFCBOARD_WORKERS) serves N processes on one port, each with its
own threads and database connections; `make run` keeps one, so whatever a process
keeps in memory is the table's. ``--threads N`` (or OFCBOARD_THREADS) changes each
process's threads that do the app's work from the 8 below.
"""

import argparse
import os
import resource
import shutil
import signal
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from ofcboard.front import Nginx
from ofcboard.front import find as find_front
from ofcboard.front_process import Front
from ofcboard.front_process import start as start_front
from ofcboard.lanes import HASHING_AT_ONCE, HASHING_WAITING, Lane, WSGIApp, in_lanes
from ofcboard.ready import (
    gettext_noop,
    in_settings_language,
    prepare,
    say_ready_once,
    settings_module,
)

# A phone on a bad Wi-Fi (or nginx, never) that starts a request and stalls is dropped
# after this long without its headers.
HEADER_READ_SECONDS = 10
# Open connections one process serves at once (without the front every phone keeps
# one open between its polls); more wait in the listening socket's backlog.
CONNECTION_LIMIT = 4000
THREADS = 8

# How long a thread may hold Python's lock before another gets it (Python's default:
# 5 ms). A poll waits for its database answer without the lock, then has to take it
# back from the threads busy with other requests: at 5 ms a turn, an unchanged poll
# that needs 0.3 ms of work waited hundreds of ms under load (p95 0.4-2 s with 16
# connections); at 0.5 ms the same server answered it 2.6x as often at p95 15 ms.
SWITCH_INTERVAL = 0.0005

# How long a server process has to finish its requests once the server is told to stop
# (Ctrl-C, or the tests' terminate) before it is killed: a stop never hangs for longer.
STOP_SECONDS = 5


def believing_the_front(app: WSGIApp) -> WSGIApp:
    """``app`` behind the front, which alone reaches it (on loopback): the phone's
    address is the one the front passes on (X-Forwarded-For, a single address: the
    front has already believed a trusted proxy's, or nobody's), for the hashing lane,
    the throttle and Django alike. The scheme the front passes on is read by Django
    itself (SECURE_PROXY_SSL_HEADER, set in settings.py behind the front)."""

    def served(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if address := environ.get("HTTP_X_FORWARDED_FOR", "").strip():
            environ["REMOTE_ADDR"] = address
        return app(environ, start_response)

    return served


def served(application: WSGIApp, *, threads: int, behind_the_front: bool) -> WSGIApp:
    """``application`` as a server process serves it: in its two lanes, and behind the
    front believing the front's address; without it, the address is the client's own
    and nobody's forwarded headers are read (Django reads none by itself)."""
    lanes = in_lanes(application, Lane(threads), Lane(HASHING_AT_ONCE, waiting=HASHING_WAITING))
    return believing_the_front(lanes) if behind_the_front else lanes


def app() -> WSGIApp:
    """What each server process serves (granian calls it once the process started)."""
    # A server process is forked with the main process's signal handlers, which do
    # nothing here, and takes granian's own only once this returns: a stop that came
    # while Django loads was lost, and the process served on for ever. Until granian's
    # take over, a stop ends the process at once.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.setswitchinterval(SWITCH_INTERVAL)
    from ofcboard.wsgi import application
    from scorekeeper.copies.backups_kept import start_hourly

    # Here, not in the app's start-up: only a running server keeps the hourly backups,
    # never a manage.py command or a test.
    start_hourly()
    threads = int(os.environ.get("OFCBOARD_THREADS") or THREADS)
    serving = served(application, threads=threads, behind_the_front=_behind_the_front())
    say_ready_once()
    return serving


def _behind_the_front() -> bool:
    return bool(os.environ.get("OFCBOARD_FRONT"))


def _allow_open_sockets(wanted: int) -> None:
    # One descriptor per connection: raise the soft limit as far as the system lets us.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def _refuse_a_port_in_use(host: str, port: int) -> None:
    """Stop with a plain message when something listens on the port already. granian
    binds with SO_REUSEPORT, so a second `make run` would otherwise share the port
    with the first without a word, each answering some of the phones."""
    try:
        socket.create_server((host, port)).close()
    except OSError:
        raise SystemExit(
            f"Port {port} is in use already: is OFC Board running in another window?"
            " Stop it, or start this one with PORT=8001 make run."
        ) from None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve OFC Board.")
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=int(os.environ.get("OFCBOARD_WORKERS", "1")))
    parser.add_argument("--threads", type=int, default=int(os.environ.get("OFCBOARD_THREADS", "0")))
    parser.add_argument(
        "--front",
        choices=["auto", "yes", "no"],
        default="no",
        help="serve behind nginx with Nchan (ofcboard/front.py): auto uses it when installed",
    )
    args = parser.parse_args(argv)
    threads = args.threads or THREADS
    os.environ["OFCBOARD_THREADS"] = str(threads)  # for app(), in each server process

    _refuse_a_port_in_use(args.host, args.port)
    _allow_open_sockets(args.workers * CONNECTION_LIMIT + 100)
    nginx = _the_front(args.front)
    host, port, front = args.host, args.port, None
    if nginx is not None:
        host, port = "127.0.0.1", _a_free_port()
        publish = f"127.0.0.1:{_a_free_port()}"
        # For app(), in each server process: what the front does, and where to publish.
        # A TLS proxy or load balancer before the front is the front's to believe; the
        # app believes the front alone, which passes on the phone's address.
        proxies = os.environ.get("OFCBOARD_TRUSTED_PROXY", "").split(",")
        os.environ.update(OFCBOARD_FRONT="1", OFCBOARD_PUSH_URL=f"http://{publish}/")
        # What the front checks the phones' passes and the pages' streams with
        # (scorekeeper/site/front_pass.py), drawn from SECRET_KEY as the app draws it: the
        # same at every start, so a page's stream outlives a restart. Read once the
        # environment is set (see _say_which_way).
        pass_secret = settings_module().FRONT_PASS_SECRET
        front = start_front(
            nginx,
            listen=f"{args.host}:{args.port}",
            apps=[f"{host}:{port}"],
            publish=publish,
            pass_secret=pass_secret,
            trusted_proxies=proxies,
        )
    _say_which_way(nginx)
    if front is not None:
        threading.Thread(target=keep_the_front, args=(front,), daemon=True).start()
    # After the port check above: a second `make run` must not see the first server
    # and say "Ready". Said by the first server process to load (ofcboard/ready.py).
    ready = prepare()
    try:
        _serve(args, host, port, threads)
    finally:
        shutil.rmtree(ready, ignore_errors=True)
        if front is not None:
            front.stop()


# Said in the terminal, in the settings' language (ofcboard/ready.py).
INSTALL_FRONT = "sudo apt install nginx libnginx-mod-nchan"
THROUGH_THE_FRONT = gettext_noop("Serving through nginx: changes are pushed to the phones.")
WITHOUT_A_FRONT = gettext_noop(
    "Serving without nginx, for a table's own Wi-Fi where everyone is trusted: nothing "
    "holds off a stranger on the network, and the phones ask for changes every 2 s. "
    "To serve anywhere else, and to push changes at once, install nginx with Nchan: "
    "%(command)s"
)
PROXY_WITHOUT_A_FRONT = gettext_noop(
    "OFCBOARD_TRUSTED_PROXY names a proxy, but only nginx in front believes one, and "
    "this server runs without it. Start it with --front yes (install nginx with Nchan: "
    "%(command)s)."
)
NO_FRONT_HERE = gettext_noop(
    "There is no nginx with its Nchan module here. Install them with: %(command)s"
)


FRONT_RESTARTED = gettext_noop(
    "nginx stopped (exit status %(status)s) and was started again: the phones may have "
    "had no answer for a moment."
)
FRONT_GIVEN_UP = gettext_noop(
    "nginx stopped %(count)s times within a minute (exit status %(status)s). OFC Board "
    "stops too, as the phones cannot reach it without nginx: see the lines above for "
    "why, then start it again."
)
# A front that dies this often in RESTARTS_WITHIN seconds is not started again.
RESTARTS = 3
RESTARTS_WITHIN = 60


def _stop_this_server() -> None:
    os.kill(os.getpid(), signal.SIGTERM)


def keep_the_front(
    front: Front,
    clock: Callable[[], float] = time.monotonic,
    stop_server: Callable[[], None] = _stop_this_server,
) -> None:
    """When nginx stops by itself, start it again and say so; when it keeps stopping,
    say so and stop the whole server (SIGTERM to this process: granian's own stop),
    rather than go on with phones that get no answer. On a thread of its own, which
    must outlive the nginx it started (nginx is told to stop when its starter ends)."""
    stopped: deque[float] = deque(maxlen=RESTARTS)
    while True:
        status = front.wait()
        if front.stopping:
            return
        stopped.append(clock())
        if len(stopped) == RESTARTS and stopped[-1] - stopped[0] < RESTARTS_WITHIN:
            said = in_settings_language(FRONT_GIVEN_UP) % {"count": RESTARTS, "status": status}
            print(said, file=sys.stderr, flush=True)
            stop_server()
            return
        front.restart()
        said = in_settings_language(FRONT_RESTARTED) % {"status": status}
        print(said, file=sys.stderr, flush=True)


def _the_front(wanted: str) -> Nginx | None:
    """nginx with Nchan when asked for and installed. Without it, a proxy named in
    OFCBOARD_TRUSTED_PROXY would be believed by nobody (every request then looks like
    plain HTTP to a site that sends plain HTTP on to HTTPS): the server stops and says
    why rather than send every phone round in circles."""
    nginx = None if wanted == "no" else find_front()
    if nginx is None and wanted == "yes":
        raise SystemExit(in_settings_language(NO_FRONT_HERE) % {"command": INSTALL_FRONT})
    if nginx is None and os.environ.get("OFCBOARD_TRUSTED_PROXY", "").strip():
        said = in_settings_language(PROXY_WITHOUT_A_FRONT) % {"command": INSTALL_FRONT}
        raise SystemExit(said)
    return nginx


def _say_which_way(nginx: Nginx | None) -> None:
    """How this server serves, and so where it may. Only once the environment is set
    for the app: reading the words reads the settings module, which the server
    processes then share as it was read (the app's PUSH_URL among them)."""
    if nginx is not None:
        said = in_settings_language(THROUGH_THE_FRONT)
    else:
        said = in_settings_language(WITHOUT_A_FRONT) % {"command": INSTALL_FRONT}
    print(said, flush=True)


def _a_free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(args: argparse.Namespace, host: str, port: int, threads: int) -> None:
    from granian.constants import HTTPModes, Interfaces
    from granian.http import HTTP1Settings
    from granian.log import LogLevels
    from granian.server import Server

    Server(
        "ofcboard.serve:app",
        factory=True,
        address=host,
        port=port,
        interface=Interfaces.WSGI,
        workers=args.workers,
        workers_kill_timeout=STOP_SECONDS,
        # The threads that may wait for the hashing lane come on top of those that do
        # the work.
        blocking_threads=threads + HASHING_AT_ONCE + HASHING_WAITING,
        backlog=2048,
        backpressure=CONNECTION_LIMIT,
        http=HTTPModes.http1,
        websockets=False,
        http1_settings=HTTP1Settings(header_read_timeout=HEADER_READ_SECONDS * 1000),
        # Its one warning says that this many threads is a lot for 2 cores: most of them
        # are there to wait for the hashing lane, on purpose; granian starts them only
        # when they are needed.
        log_level=LogLevels.error,
    ).serve()


if __name__ == "__main__":
    main()
