"""The poll over HTTP, through the server as `make run` starts it. Run: ``make bench``
or ``.venv/bin/python bench/server.py`` (``DATABASE_URL=postgres://...`` for PostgreSQL;
SQLite in a throwaway file otherwise).

Starts ``python -m ofcboard.serve`` (every server setting is in ofcboard/serve.py)
with the app's settings plus one bare Django view, and drives it with wrk:

1. An unchanged poll (the 204 every phone gets almost every time) against the bare
   view that answers 204 without a query, both through the same middleware, as fast
   as 16 connections can ask: the ratio of their requests per second.
2. What a phone downloads: the night page's first load with its stylesheet and
   scripts, and a rendered poll (someone else's total came in), compressed as the
   server sends them to a browser that accepts brotli and gzip.
3. Phones: as many connections as phones, each polling about every 2 s, for the 95th
   percentile of the answers' latency (wrk runs on the same machine and uses some of it).
"""

import argparse
import http.client
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QUICK = os.environ.get("OFCBOARD_BENCH_QUICK") == "1"
SECONDS = 2 if QUICK else 10
THREADS = 2  # wrk's


def server_env() -> dict[str, str]:
    database = os.environ.get("DATABASE_URL") or (f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3")
    return {
        **os.environ,
        "DATABASE_URL": database,
        "DEBUG": "0",
        "OFCBOARD_TABLE": "1",
        "DJANGO_SETTINGS_MODULE": "bench.settings",
    }


def a_polling_phone() -> tuple[str, str]:
    """A night with a few rounds and a member's session: (poll path, session cookie)."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from bench.tables import a_group, a_night, play
    from scorekeeper.models import User

    call_command("migrate", verbosity=0)
    suffix = str(time.time_ns())[-8:]
    users = [User.objects.create_user(name=f"{n}{suffix}", password=None) for n in "AB"]
    night = a_night(a_group(f"Bench {suffix}", users), users)
    play(night, users[0], [(number, -number) for number in range(1, 6)])
    seats = list(night.seats.all())
    client = Client()
    client.force_login(users[0])
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    return f"/nights/{night.pk}/live/?version={night.version}&round=6&seat={seats[0].pk}", cookie


def transferred(port: int, path: str, cookie: str) -> tuple[int, str, str]:
    """(bytes on the wire, their encoding, the decoded body if it is text) of one GET."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path, headers={"Cookie": cookie, "Accept-Encoding": "br, gzip"})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    assert response.status == 200, (path, response.status)
    encoding = response.getheader("Content-Encoding", "")
    if encoding == "gzip":
        import gzip

        text = gzip.decompress(body).decode()
    elif encoding == "br":
        import brotli

        text = brotli.decompress(body).decode()
    else:
        text = body.decode()
    return len(body), encoding or "none", text


def first_load(port: int, poll: str, cookie: str) -> None:
    night = poll.split("live/")[0]
    size, encoding, page = transferred(port, night, cookie)
    total, parts = size, [f"page {size / 1024:.1f} KB {encoding}"]
    for asset in re.findall(r'(?:href|src)="(/static/[^"]+)"', page):
        size, encoding, _ = transferred(port, asset, cookie)
        total += size
        parts.append(f"{asset.rsplit('/', 1)[-1]} {size / 1024:.1f} KB {encoding}")
    print(f"  night page, first load: {total / 1024:.1f} KB (goal: under 30 KB)")
    print(f"    {', '.join(parts)}")
    changed = re.sub(r"version=\d+", "version=0", poll)
    size, encoding, _ = transferred(port, changed, cookie)
    print(f"  a rendered poll: {size / 1024:.2f} KB {encoding} (goal: under 2 KB)")


def wait_for(port: int, server: subprocess.Popen) -> None:
    for _ in range(200):
        if server.poll() is not None:
            raise SystemExit("The server did not start.")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("The server did not answer.")


def wrk(url: str, cookie: str, *, connections: int, script: str, seconds: int) -> dict:
    command = (
        f"ulimit -n {connections + 1000} 2>/dev/null; wrk -t{THREADS} -c{connections} -d{seconds}s"
        f" --timeout 5s -H 'Cookie: {cookie}' -s {ROOT / 'bench' / script} '{url}'"
        f" -- {connections // THREADS}"
    )
    out = subprocess.run(command, shell=True, capture_output=True, text=True, check=True).stdout
    figures: dict = {"errors": 0}
    for line in out.splitlines():
        words = line.split()
        if line.startswith("Requests/sec:"):
            figures["rate"] = float(words[1])
        elif words and words[0] in ("P95_MS", "P50_MS"):
            figures[words[0]] = float(words[1])
        elif "Non-2xx" in line or "Socket errors" in line:
            figures["errors"] += sum(int(w.strip(",")) for w in words if w.strip(",").isdigit())
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, default=100 if QUICK else 2000)
    parser.add_argument("--port", type=int, default=18431)
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="server processes (default: one per core, the issue's one 2-core server)",
    )
    args = parser.parse_args()

    env = server_env()
    os.environ.update(env)
    path, cookie = a_polling_phone()
    # As `make run` does: the static files with their brotli and gzip copies.
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    base = f"http://127.0.0.1:{args.port}"
    command = [sys.executable, "-m", "ofcboard.serve", "--host", "127.0.0.1"]
    server = subprocess.Popen(
        [*command, "--port", str(args.port), "--workers", str(args.workers)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(args.port, server)
        engine = env["DATABASE_URL"].split(":")[0]
        processes = "as `make run` starts it" if args.workers == 1 else f"{args.workers} processes"
        print(f"Through the server ({processes}), on {engine}")
        rates = {}
        for label, url in (("bare Django view", "/bench/bare/"), ("unchanged poll", path)):
            wrk(base + url, cookie, connections=16, script="p95.lua", seconds=1)  # warm up
            figures = wrk(base + url, cookie, connections=16, script="p95.lua", seconds=SECONDS)
            rates[label] = figures["rate"]
            print(
                f"  {label:<18} {figures['rate']:8,.0f} req/s"
                f"  p95 {figures['P95_MS']:6.1f} ms  errors {figures['errors']}"
            )
        ratio = rates["unchanged poll"] / rates["bare Django view"]
        print(f"  poll / bare view   {ratio:8.2f}  (goal: 0.50 or more)")
        first_load(args.port, path, cookie)
        phones = wrk(
            base + path, cookie, connections=args.phones, script="phones.lua", seconds=SECONDS * 3
        )
        print(
            f"  {args.phones:,} phones polling every 2 s: {phones['rate']:,.0f} req/s,"
            f" p50 {phones['P50_MS']:.1f} ms, p95 {phones['P95_MS']:.1f} ms"
            f" (goal: under 100 ms), errors {phones['errors']}"
        )
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
