"""The publishing thread (scorekeeper/services/publisher.py): a channel told again before
its message went out is posted once, with the newer version; past the bound the
oldest waiting channel is dropped; the caller never waits on the front.

A stand-in front holds its first post until the test lets it go, so what waits behind
it is known exactly, without a sleep."""

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from scorekeeper.services import publisher as publishing
from scorekeeper.services.publisher import Publisher


class HeldFront:
    def __init__(self) -> None:
        self.posts: list[tuple[str, str]] = []
        self.first_in = threading.Event()  # the first post reached the front
        self.let_go = threading.Event()  # the front may answer it
        self.url = ""


@pytest.fixture
def front() -> Iterator[HeldFront]:
    held = HeldFront()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"])).decode()
            held.posts.append((self.path, body))
            held.first_in.set()
            held.let_go.wait(10)
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    held.url = f"http://127.0.0.1:{server.server_address[1]}"
    yield held
    held.let_go.set()
    server.shutdown()
    server.server_close()
    thread.join(10)


def held_behind_a_first_post(front: HeldFront) -> Publisher:
    """A publisher whose thread is posting to ``front``, which does not answer yet."""
    sender = Publisher()
    sender.send(front.url + "/night-1", "version 1")
    assert front.first_in.wait(10)
    return sender


def test_a_channel_told_twice_while_waiting_is_posted_once_with_the_newer_version(front):
    sender = held_behind_a_first_post(front)
    started = time.perf_counter()
    sender.send(front.url + "/group-1", "version 3-10-3")
    sender.send(front.url + "/night-2", "version 7")
    sender.send(front.url + "/group-1", "version 3-11-3")
    assert time.perf_counter() - started < 0.1  # the front holds the thread, not the caller
    front.let_go.set()
    assert sender.sent_within(10)
    assert front.posts == [
        ("/night-1", "version 1"),
        ("/night-2", "version 7"),
        ("/group-1", "version 3-11-3"),
    ]


def test_an_older_version_told_last_never_takes_the_place_of_a_newer_one_waiting(front):
    """Two saves a few milliseconds apart each read the night's version after their
    commit and make its message: the one that read the older version may be the last to
    hand it over. Its phones would show that version until their safety poll."""
    sender = held_behind_a_first_post(front)
    sender.send(front.url + "/night-2", "version 8\nthe live part at 8", version=8)
    sender.send(front.url + "/night-2", "version 7\nthe live part at 7", version=7)
    sender.send(front.url + "/night-3", "version 4", version=4)
    sender.send(front.url + "/night-3", "version 5", version=5)
    front.let_go.set()
    assert sender.sent_within(10)
    assert front.posts == [
        ("/night-1", "version 1"),
        ("/night-2", "version 8\nthe live part at 8"),
        ("/night-3", "version 5"),
    ]


def test_past_the_bound_the_oldest_waiting_channel_is_dropped(front, monkeypatch, caplog):
    monkeypatch.setattr(publishing, "WAITING_AT_MOST", 2)
    sender = held_behind_a_first_post(front)
    for night in (2, 3, 4):
        sender.send(front.url + f"/night-{night}", "version 1")
    front.let_go.set()
    assert sender.sent_within(10)
    assert [path for path, _ in front.posts] == ["/night-1", "/night-3", "/night-4"]
    assert "night-2 was dropped" in caplog.text
