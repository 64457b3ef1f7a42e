"""The Redis cache the app survives losing (scorekeeper/site/redis_cache.py), against a
Redis that is not there: reads miss, counts go on in the fallback, said once."""

import logging

from django.core.cache.backends.locmem import LocMemCache

from scorekeeper.site import redis_cache
from scorekeeper.site.redis_cache import RedisOrFallback

NOBODY_LISTENS = "redis://127.0.0.1:9/0"  # the discard port: refused at once


def gone_redis(monkeypatch, fallback: str = "") -> RedisOrFallback:
    counts = LocMemCache("counts-while-redis-is-gone", {})
    monkeypatch.setattr(redis_cache, "caches", {"counts": counts})
    params = {"KEY_PREFIX": f"gone-{id(counts)}", "OPTIONS": {"socket_connect_timeout": 1}}
    if fallback:
        params["OPTIONS"]["FALLBACK"] = fallback
    return RedisOrFallback(NOBODY_LISTENS, params)


def test_without_redis_a_session_read_misses_and_a_write_fails_nothing(monkeypatch, caplog):
    cache = gone_redis(monkeypatch)
    with caplog.at_level(logging.WARNING, logger="scorekeeper.site.redis_cache"):
        for _ in range(20):
            cache.set("django.contrib.sessions.cached_dbabc", {"user": 1})
            assert cache.get("django.contrib.sessions.cached_dbabc") is None
            assert "django.contrib.sessions.cached_dbabc" not in cache
            cache.delete("django.contrib.sessions.cached_dbabc")
    said = [record for record in caplog.records if "cannot be reached" in record.getMessage()]
    assert len(said) == 1, "said once, not once a request"


def test_without_redis_the_throttle_counts_go_on_in_the_fallback(monkeypatch):
    cache = gone_redis(monkeypatch, fallback="counts")
    assert cache.add("tries", 0) is True
    for _ in range(3):
        cache.incr("tries")
    assert cache.get("tries") == 3
    assert cache.get_many(["tries"]) == {"tries": 3}
