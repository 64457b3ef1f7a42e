"""Django's Redis cache, which the app survives losing.

Sessions are ``cached_db``: the database holds every session and Redis only saves
reading it, so while Redis cannot be reached a read is a miss (the session comes from
the database) and a write goes to the database alone. The throttle's counts go to the
cache named by the ``FALLBACK`` option meanwhile (the database's cache), so logins
stay counted. A key written or deleted while Redis was gone is deleted from Redis
once it answers again, so it never serves a session that was changed or ended
meanwhile (a logout). It says so in the log once when Redis goes, and once when it is
back, not on every request; while it is gone it is tried again once a second.
"""

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.dummy import DummyCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError)
TRY_AGAIN_SECONDS = 1.0
# Keys remembered to delete once Redis is back; a longer outage than this many
# session writes forgets the oldest (their Redis copies expire with the session).
MOST_STALE_KEYS = 50_000
WRITES = {"add", "set", "touch", "delete", "incr", "set_many", "delete_many"}


@dataclass
class _Reach:
    """Whether this process reaches one Redis; shared by the threads' cache objects
    (Django makes one per thread)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    down: bool = False
    try_again_at: float = 0.0
    stale: dict[Any, None] = field(default_factory=dict)  # ordered, for forgetting the oldest


_REACH: dict[str, _Reach] = {}
_REACH_LOCK = threading.Lock()
_NOTHING = DummyCache("nothing", {})


def _keys_of(name: str, args: tuple) -> list:
    if not args or name == "clear":
        return []
    first = args[0]
    if name == "set_many":
        return list(first)
    if name in {"get_many", "delete_many"}:
        return list(first)
    return [first]


class RedisOrFallback(RedisCache):
    def __init__(self, server: str, params: dict) -> None:
        options = dict(params.get("OPTIONS") or {})
        self._fallback_alias = options.pop("FALLBACK", "")
        super().__init__(server, {**params, "OPTIONS": options})
        with _REACH_LOCK:
            self._reach = _REACH.setdefault(f"{server}|{self.key_prefix}", _Reach())

    def _fallback(self) -> Any:
        return caches[self._fallback_alias] if self._fallback_alias else _NOTHING

    def _either(self, name: str, *args: Any, **kwargs: Any) -> Any:
        reach = self._reach
        if reach.down and time.monotonic() < reach.try_again_at:
            return self._instead(name, args, kwargs)
        try:
            if reach.down:
                self._back()
            return getattr(RedisCache, name)(self, *args, **kwargs)
        except UNREACHABLE as error:
            self._gone(error)
            return self._instead(name, args, kwargs)

    def _instead(self, name: str, args: tuple, kwargs: dict) -> Any:
        if name in WRITES:
            with self._reach.lock:
                for key in _keys_of(name, args):
                    self._reach.stale[key] = None
                while len(self._reach.stale) > MOST_STALE_KEYS:
                    del self._reach.stale[next(iter(self._reach.stale))]
        return getattr(self._fallback(), name)(*args, **kwargs)

    def _gone(self, error: Exception) -> None:
        reach = self._reach
        with reach.lock:
            if not reach.down:
                instead = self._fallback_alias or "nothing: the database alone"
                logger.warning(
                    "Redis cannot be reached (%s): the cache falls back on %s until it is back.",
                    error,
                    instead,
                )
            reach.down = True
            reach.try_again_at = time.monotonic() + TRY_AGAIN_SECONDS

    def _back(self) -> None:
        """Redis answers again (or this raises): first forget what changed meanwhile."""
        reach = self._reach
        with reach.lock:
            stale = list(reach.stale)
        if stale:
            RedisCache.delete_many(self, stale)
        with reach.lock:
            for key in stale:
                reach.stale.pop(key, None)
            if reach.down:
                reach.down = False
                logger.warning("Redis answers again: sessions are cached in it again.")

    def add(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("add", *args, **kwargs)

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("get", *args, **kwargs)

    def set(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("set", *args, **kwargs)

    def touch(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("touch", *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("delete", *args, **kwargs)

    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("get_many", *args, **kwargs)

    def has_key(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("has_key", *args, **kwargs)

    def incr(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("incr", *args, **kwargs)

    def set_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("set_many", *args, **kwargs)

    def delete_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("delete_many", *args, **kwargs)

    def clear(self) -> Any:
        return self._either("clear")
