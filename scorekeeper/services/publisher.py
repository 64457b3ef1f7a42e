"""Messages for the front's publisher, posted off the request by one thread per process.

A save's answer never waits on the front: :meth:`Publisher.send` only puts the message
in a small waiting list, and one daemon thread posts what waits, one at a time, each
with a short timeout. A channel told again before its last message went out keeps only
the newer one (a phone wants the version as it is now, not each step to it), so the
list holds at most one message per channel. Newer by the version a message names when
it names one: two saves a few milliseconds apart may each read the night's version and
make its message in either order, and the one told last may be the older, whose phones
would then show it until their safety poll; past :data:`WAITING_AT_MOST` channels the
oldest is dropped, and its phones' safety poll (30 s, static/ofcboard/live.js) brings
the change. A front that hangs holds up only this thread, never a save.
"""

import logging
import os
import threading
import urllib.request
from collections import OrderedDict

log = logging.getLogger(__name__)

# A post waits this long at most for the front to connect and to answer.
SECONDS = 1.0
# More channels than this waiting means the front is gone, not slow: keep the newest.
WAITING_AT_MOST = 1000


class Publisher:
    def __init__(self) -> None:
        self._reset()
        # A server forks its workers: each starts with an empty list and no thread, and
        # starts its own thread on its first message.
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._changed = threading.Condition()
        # url -> (its message's version if ordered, the body), the oldest first
        self._waiting: OrderedDict[str, tuple[int | None, bytes]] = OrderedDict()
        self._posting = False
        self._thread: threading.Thread | None = None

    def send(self, url: str, body: str, version: int | None = None) -> None:
        """Post ``body`` to ``url`` soon, from the publishing thread; returns at once.
        With ``version``, a message for ``url`` still waiting with a higher one stays."""
        with self._changed:
            waiting, _ = self._waiting.get(url, (None, b""))
            if version is not None and waiting is not None and waiting > version:
                return
            self._waiting.pop(url, None)  # the newer message takes the older one's place
            self._waiting[url] = (version, body.encode())
            while len(self._waiting) > WAITING_AT_MOST:
                dropped, _ = self._waiting.popitem(last=False)
                log.warning("Too much waits to be published: %s was dropped", dropped)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="publisher", daemon=True)
                self._thread.start()
            self._changed.notify_all()

    def sent_within(self, seconds: float) -> bool:
        """Whether everything sent so far was posted (or given up on) within ``seconds``:
        for a command, whose process ends when it returns and the thread with it, and
        for the tests, which read what the front was told."""
        with self._changed:
            return self._changed.wait_for(lambda: not self._waiting and not self._posting, seconds)

    def _run(self) -> None:
        while True:
            with self._changed:
                self._posting = False
                self._changed.notify_all()
                self._changed.wait_for(lambda: bool(self._waiting))
                url, (_version, body) = self._waiting.popitem(last=False)
                self._posting = True
            _post(url, body)


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
