"""The app in two lanes of threads: posts that will hash a password in a lane of their
own, everything else in the lane that answers polls, pages and saves (ofcboard/serve.py
wraps the app in them, front or no front: nginx cannot tell a post that will hash from
one that will not, and lets an address ask 20 times a second, which would be 10 s of
hashing a second). A lane full past its waiting room answers 503 at once, in the
phone's language."""

import functools
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ofcboard.refusals import BUSY

# Posts that check or set a password (scorekeeper/urls.py names their pages: the login
# page, the open sign-up, an invitation link's sign-up and login). Hashing one takes
# half a second of a core on purpose; they run HASHING_AT_ONCE at a time in a lane of
# their own, and at most HASHING_WAITING more wait for their turn (503 past that). Only
# a post that will hash takes a place in it: one with a password, a CSRF token Django
# takes, and an address the throttle does not refuse
# (scorekeeper/site/password_gate.py); so junk sent from a few addresses cannot fill
# the lane and turn a member's login away.
HASHING_AT_ONCE = 1
HASHING_WAITING = 16

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def _answer(
    start_response: Callable[..., Any], status: str, *extra: tuple[str, str], words: bytes = b""
) -> list[bytes]:
    headers = [
        ("Content-Type", "text/plain; charset=utf-8"),
        ("Content-Length", str(len(words))),
        ("Connection", "close"),
    ]
    start_response(status, [*headers, *extra])
    return [words] if words else []


def _in_their_language(environ: dict[str, Any], message: str) -> str:
    """``message`` in the language Django would have answered in (the cookie, then
    Accept-Language)."""
    from django.http import HttpRequest, parse_cookie
    from django.utils import translation

    asking = HttpRequest()
    asking.META, asking.COOKIES = environ, parse_cookie(environ.get("HTTP_COOKIE", ""))
    with translation.override(translation.get_language_from_request(asking)):
        return translation.gettext(message)


def _busy(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
    words = _in_their_language(environ, BUSY)
    return _answer(
        start_response,
        "503 Service Unavailable",
        ("Retry-After", "2"),
        words=f"{words}\n".encode(),
    )


class Lane:
    """``threads`` requests in the app at a time, the others waiting their turn in the
    order they came; with ``waiting``, at most that many wait, and :meth:`enter` turns
    the next one away at once.

    First come, first served: a turn is handed straight to the request that waited
    longest. With threading's Semaphore a request that just came in could take a turn
    before those already waiting. Measured with bench/server.py (one process, two runs each): 16
    connections, p95 of the bare view 22 and 20 ms, of the poll 104 and 102 ms, where
    the Semaphore with the 16 spare threads of before had 51 and 51, 221 and 202 ms;
    1,000 phones, five times what the poll could answer, 0 and 0 of wrk's 5 s timeouts
    against 4 and 271 (and against 418 and 479 with the Semaphore and 145 waiting)."""

    def __init__(self, threads: int, waiting: int | None = None) -> None:
        self._lock = threading.Lock()
        self._free = threads
        self._queue: deque[threading.Lock] = deque()
        self._most_waiting = waiting

    def enter(self) -> bool:
        with self._lock:
            if self._free and not self._queue:
                self._free -= 1
                return True
            if self._most_waiting is not None and len(self._queue) >= self._most_waiting:
                return False
            turn = threading.Lock()
            turn.acquire()
            self._queue.append(turn)
        turn.acquire()  # until leave() hands this request its turn
        return True

    def leave(self) -> None:
        with self._lock:
            if self._queue:
                self._queue.popleft().release()
            else:
                self._free += 1


class _Releasing:
    """An answer's body, handing its lane's turn on when the server closes it (a
    streamed export is still work while it is sent)."""

    def __init__(self, answer: Iterable[bytes], release: Callable[[], None]) -> None:
        self._answer = answer
        self._release = release
        self._released = False

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._answer)

    def close(self) -> None:
        try:
            if hasattr(self._answer, "close"):
                self._answer.close()
        finally:
            if not self._released:  # a second close must not hand on a second turn
                self._released = True
                self._release()


@functools.cache
def password_paths() -> tuple[str, ...]:
    """Where the addresses of the posts that hash a password start, as the app's URLs
    say (asked once Django is loaded, at the first post)."""
    from scorekeeper.urls import password_paths

    return password_paths()


def posts_to_a_password_page(environ: dict[str, Any]) -> bool:
    return environ.get("REQUEST_METHOD") == "POST" and environ.get("PATH_INFO", "").startswith(
        password_paths()
    )


def _will_hash(environ: dict[str, Any]) -> bool:
    from scorekeeper.site.password_gate import will_hash_a_password

    return will_hash_a_password(environ)


def in_lanes(
    app: WSGIApp,
    work: Lane,
    hashing: Lane,
    will_hash: Callable[[dict[str, Any]], bool] = _will_hash,
) -> WSGIApp:
    """``app`` run in two lanes: posts that will hash a password (``will_hash``, asked
    of posts to the password pages only) in ``hashing``, everything else in ``work``.
    That question is asked in the work lane, as it may read the throttle's counts from
    the database. The threads waiting for the hashing lane never add to the threads
    fighting over Python's lock or to the database's connections at work."""

    def served(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if not work.enter():
            return _busy(environ, start_response)
        lane: Lane | None = work
        try:
            if posts_to_a_password_page(environ) and will_hash(environ):
                work.leave()
                lane = None
                if not hashing.enter():
                    return _busy(environ, start_response)
                lane = hashing
            answer = app(environ, start_response)
        except BaseException:
            if lane is not None:
                lane.leave()
            raise
        return _Releasing(answer, lane.leave)

    return served
