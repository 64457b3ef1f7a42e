"""The front on a public site, attacked (issue 42): nginx's memory and a table's slowest
save under each attack, beside the same table with no attack. Run:
``.venv/bin/python bench/front_attacks.py`` (about a minute; ``--rounds 2`` for less).
Needs nginx with Nchan (``apt install nginx libnginx-mod-nchan``).

One server as `make run` starts it (``python -m ofcboard.serve --front yes``, one
process, SQLite), and a table of six phones signed in behind one router's address
(two nights of three players, as OFC seats four at most). Each round, every phone
saves its total at the same instant (a 503 is sent again after 0.2 s, as the phones'
queue does); the figure is the slowest save of all the rounds, from the tap to its
answer. nginx's memory is its processes' resident memory (master and worker,
/proc/<pid>/status VmRSS) at the end of the attack's rounds. The attacks, each for the
table's rounds only, each from addresses of its own (as tests/test_front_attacks.py):

- held bodies: 8 addresses x 256 posts announcing 1 MB, their first 128 KB sent;
- the router: a client on the table's own address holding 256 bodies back and asking
  for pages on 300 connections;
- static files: 300 connections asking for files under /static/ that are not there;
- wrong codes: join codes that match nothing, each from a new address (10,000
  addresses at most), on 8 threads.
"""

import argparse
import contextlib
import itertools
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.push import Server, Tables  # noqa: E402

ROUTER = "127.0.40.1"


def wrong_codes(port: int, stop: threading.Event, sent: list[int]) -> None:
    from tests.test_server_front import from_address

    addresses: Iterator[int] = itertools.count()
    lock = threading.Lock()

    def ask() -> None:
        while not stop.is_set():
            with lock:
                n = next(addresses) % 10_000
            address = f"127.41.{n // 250}.{n % 250 + 1}"
            with contextlib.suppress(OSError), from_address(address, port) as sock:
                sock.sendall(
                    b"GET /join/WRONGC0DE/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                )
                sock.recv(64)
                sent.append(1)

    threads = [threading.Thread(target=ask, daemon=True) for _ in range(8)]
    for thread in threads:
        thread.start()
    stop.wait()
    for thread in threads:
        thread.join(10)


class Attack:
    """An attack on for a ``with`` block."""

    def __init__(self, start: Callable[[int], object], port: int) -> None:
        self.start, self.port = start, port

    def __enter__(self) -> "Attack":
        self.running = self.start(self.port)
        time.sleep(1)  # every connection is in
        return self

    def __exit__(self, *problem: object) -> None:
        if self.running is not None:
            self.running.close()  # type: ignore[attr-defined]


class Together:
    """Several attacks' parts closed together."""

    def __init__(self, *parts: object) -> None:
        self.parts = parts

    def close(self) -> None:
        for part in self.parts:
            part.close()  # type: ignore[attr-defined]


class Codes:
    def __init__(self, port: int) -> None:
        self.stop, self.sent = threading.Event(), []
        self.thread = threading.Thread(target=wrong_codes, args=(port, self.stop, self.sent))
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(20)


def attacks() -> dict[str, Callable[[int], object]]:
    from tests.test_front import Flood
    from tests.test_front_attacks import BigHeldBodies, StaticFlood
    from tests.test_server_front import HeldBodies

    return {
        "no attack": lambda port: None,
        "held bodies, 8 addresses x 256": lambda port: BigHeldBodies(
            port, [f"127.0.42.{n}" for n in range(1, 9)], 8 * 256
        ),
        "the router: 256 held + 300 asking": lambda port: Together(
            HeldBodies(port, [ROUTER], 256), Flood(port, ROUTER, 300)
        ),
        "static files, 300 asking": lambda port: StaticFlood(port, "127.0.43.1", 300),
        "wrong codes, new address each": Codes,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    Tables()  # a throwaway database, as bench/push.py makes it

    from tests.helpers import make_night
    from tests.test_front import play_rounds
    from tests.test_front_attacks import megabytes, nginx_of
    from tests.test_server_front import phones_at

    print(
        f"The front attacked: {args.rounds} rounds of 6 phones saving at once"
        f" ({os.cpu_count()} cores)"
    )
    print(f"{'attack':<36} {'nginx MB':>9} {'slowest save':>13} {'p50 save':>9}")
    with Server(front=True, workers=1) as server:
        for number, (label, start) in enumerate(attacks().items()):
            nights = [
                make_night((f"A{number}", f"B{number}", f"C{number}")),
                make_night((f"D{number}", f"E{number}", f"F{number}")),
            ]
            tables = [phones_at(server.port, night, ROUTER) for night in nights]
            with Attack(start, server.port):
                waits = [
                    wait
                    for night, table in zip(nights, tables, strict=True)
                    for wait in play_rounds(table, night, args.rounds)
                ]
                memory = megabytes(nginx_of(server.process.pid))
            waits.sort()
            print(
                f"{label:<36} {memory:>9.0f} {waits[-1] * 1000:>10.0f} ms"
                f" {waits[len(waits) // 2] * 1000:>6.0f} ms",
                flush=True,
            )


if __name__ == "__main__":
    main()
