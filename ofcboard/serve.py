"""The web server `make run` starts, with every setting it runs with: the benchmarks
start the very same one (``python -m ofcboard.serve --port N``).

Waitress, because a phone on a bad Wi-Fi (or someone on it who means harm) must not
be able to stall the table. Its I/O thread reads every request whole, headers and
body, before a worker thread sees it, so a client that drips its headers costs one
socket and no thread; a body declared larger than the app can use is refused (413)
from its Content-Length, before a byte of it is read. gunicorn's threaded worker read
the headers in its worker threads: 40 dripping clients held all of them and a normal
page waited for more than 30 s. Its gevent worker does not stall, but SQLite's busy
wait would then block every request of a worker at once, and Django's connections
would be one per request instead of one per thread.

Waitress is one process, and Python runs on one core at a time in it: with
``--workers N`` (or OFCBOARD_WORKERS) N processes serve one listening socket, forked
once it is open, each with its own threads and database connections. `make run`
keeps one, so whatever a process keeps in memory is the table's. ``--threads N`` (or
OFCBOARD_THREADS) changes each process's worker threads from the 8 below.
"""

import argparse
import contextlib
import os
import resource
import signal
import socket
import sys
from typing import Any

# The app takes forms of a few hundred bytes and no uploads.
MAX_REQUEST_BODY = 1024 * 1024

SETTINGS: dict[str, Any] = {
    # Worker threads: each keeps its own database connection open (CONN_MAX_AGE).
    "threads": 8,
    # Every phone keeps its connection open between polls; slow clients cost a socket each.
    "connection_limit": 4000,
    # select() stops at 1,024 sockets; poll() does not.
    "asyncore_use_poll": True,
    # A connection that sends nothing for this long is closed (a phone polls every 2 s).
    "channel_timeout": 30,
    # Bounds what a client dripping its headers can make the server hold and wait for.
    "max_request_header_size": 16 * 1024,
    "max_request_body_size": MAX_REQUEST_BODY,
    "backlog": 2048,
    "ident": "ofcboard",
}


def _behind_a_proxy() -> dict[str, Any]:
    """Behind a TLS proxy (OFCBOARD_TRUSTED_PROXY=its address, or * ): its
    X-Forwarded-Proto and -For are believed, from it only; waitress drops them otherwise."""
    proxy = os.environ.get("OFCBOARD_TRUSTED_PROXY", "")
    if not proxy:
        return {}
    return {
        "trusted_proxy": proxy,
        "trusted_proxy_headers": {"x-forwarded-proto", "x-forwarded-for"},
    }


def _allow_open_sockets(wanted: int) -> None:
    # One descriptor per connection: raise the soft limit as far as the system lets us.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


# How long a thread may hold Python's lock before another gets it (Python's default:
# 5 ms). A poll waits for its database answer without the lock, then has to take it
# back from the threads busy with other requests: at 5 ms a turn, an unchanged poll
# that needs 0.3 ms of work waited hundreds of ms under load (p95 0.4-2 s with 16
# connections); at 0.5 ms the same server answered it 2.6x as often at p95 15 ms.
SWITCH_INTERVAL = 0.0005


def _serve(sockets: list[socket.socket] | None = None, **where: Any) -> None:
    import waitress

    sys.setswitchinterval(SWITCH_INTERVAL)

    from ofcboard.wsgi import application

    options = {**SETTINGS, **_behind_a_proxy(), **where}
    if sockets is not None:
        options["sockets"] = sockets
    waitress.serve(application, **options)


def _serve_forked(host: str, port: int, workers: int) -> None:
    """``workers`` processes on one listening socket; the kernel hands each
    connection to one of them. Stopping this process stops them all."""
    listener = socket.create_server((host, port), backlog=SETTINGS["backlog"])
    children = []
    for _ in range(workers):
        pid = os.fork()
        if pid == 0:  # the app is imported after the fork: nothing is shared but the socket
            try:
                _serve(sockets=[listener])
            finally:
                os._exit(0)
        children.append(pid)

    def stop(signum: int, frame: object) -> None:
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"Serving on http://{host}:{port} with {workers} processes", flush=True)
    for pid in children:
        os.waitpid(pid, 0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve OFC Board.")
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=int(os.environ.get("OFCBOARD_WORKERS", "1")))
    parser.add_argument("--threads", type=int, default=int(os.environ.get("OFCBOARD_THREADS", "0")))
    args = parser.parse_args(argv)
    if args.threads:
        SETTINGS["threads"] = args.threads

    _allow_open_sockets(SETTINGS["connection_limit"] + 100)
    if args.workers > 1:
        _serve_forked(args.host, args.port, args.workers)
    else:
        _serve(host=args.host, port=args.port)


if __name__ == "__main__":
    main()
