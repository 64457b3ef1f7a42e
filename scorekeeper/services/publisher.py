"""Messages for the front's publisher, made and posted off the request by one thread
per process.

A save's answer never waits on the front, nor on its message being made: the request
hands over a thing to make (:meth:`Publisher.make`: a function that reads what is to be
said and returns the messages to post), and one daemon thread makes what waits, just
before posting it, one at a time, each post with a short timeout. A channel told again
before its message was made keeps only the newer thing to make (a phone wants the
version as it is now, not each step to it), so a night saved twice while the thread was
busy costs one message, made once, for its newest version; the list holds at most one
item per channel, and past :data:`WAITING_AT_MOST` the oldest is dropped, and its
phones' safety poll (30 s, static/ofcboard/live.js) brings the change. A front that
hangs holds up only this thread, never a save.

The thread reads the database on a connection of its own, kept and checked as a
request's is (``close_old_connections`` before and after each making) and closed when
nothing waits, so an idle thread holds none.
"""

import logging
import os
import threading
import urllib.request
from collections import OrderedDict
from collections.abc import Callable

from django.db import close_old_connections, connections

log = logging.getLogger(__name__)

# A post waits this long at most for the front to connect and to answer.
SECONDS = 1.0
# More channels than this waiting means the front is gone, not slow: keep the newest.
WAITING_AT_MOST = 1000

# A thing to make: the messages to post, (address, body) each, read when it is made.
Make = Callable[[], list[tuple[str, str]]]


class Publisher:
    def __init__(self) -> None:
        self._reset()
        # A server forks its workers: each starts with an empty list and no thread, and
        # starts its own thread on its first message.
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._changed = threading.Condition()
        self._waiting: OrderedDict[str, Make] = OrderedDict()  # channel -> make, oldest first
        self._posting = False
        self._thread: threading.Thread | None = None

    def send(self, url: str, body: str) -> None:
        """Post ``body`` to ``url`` soon, from the publishing thread; returns at once."""
        self.make(url, lambda: [(url, body)])

    def make(self, channel: str, make: Make) -> None:
        """Call ``make`` soon on the publishing thread and post what it returns; returns
        at once. A ``channel`` still waiting is made once, by the newer ``make``."""
        with self._changed:
            self._waiting.pop(channel, None)  # the newer takes the older one's place
            self._waiting[channel] = make
            while len(self._waiting) > WAITING_AT_MOST:
                dropped, _ = self._waiting.popitem(last=False)
                log.warning("Too much waits to be published: %s was dropped", dropped)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="publisher", daemon=True)
                self._thread.start()
            self._changed.notify_all()

    def sent_within(self, seconds: float) -> bool:
        """Whether everything handed over so far was made and posted (or given up on)
        within ``seconds``: for the tests, which read what the front was told."""
        with self._changed:
            return self._changed.wait_for(lambda: not self._waiting and not self._posting, seconds)

    def _run(self) -> None:
        while True:
            with self._changed:
                idle = not self._waiting
            if idle:
                connections.close_all()  # this thread's own: nothing to read until told
            with self._changed:
                self._posting = False
                self._changed.notify_all()
                self._changed.wait_for(lambda: bool(self._waiting))
                channel, make = self._waiting.popitem(last=False)
                self._posting = True
            for url, body in _made(channel, make):
                _post(url, body.encode())


def _made(channel: str, make: Make) -> list[tuple[str, str]]:
    """What ``make`` says, read on a checked connection as a request reads; nothing when
    it fails (logged: the change is saved, and the phones' safety poll shows it)."""
    close_old_connections()
    try:
        return make()
    except Exception:
        log.exception("Could not make the message of %s", channel)
        return []
    finally:
        close_old_connections()


def _post(url: str, body: bytes) -> None:
    request = urllib.request.Request(
        url, data=body, method="POST", headers={"Content-Type": "text/plain"}
    )
    try:
        with urllib.request.urlopen(request, timeout=SECONDS) as answer:
            answer.read()
    except Exception as problem:
        # Whatever went wrong, the thread lives on for the next message; the change is
        # saved, and the phones' safety poll shows it within 30 s.
        log.warning("Could not publish %s to the front: %s", url, problem)


publisher = Publisher()
