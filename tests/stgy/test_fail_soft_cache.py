"""stgy/cache.py against a real Redis server that stops answering or is not there."""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache

from sns.core import throttle
from stgy.cache import FailSoftRedisCache
from tests.redis_server import free_port, own_redis, requires_redis_server  # noqa: F401

TIMEOUT = 0.3
pytestmark = requires_redis_server


def backend(url: str) -> FailSoftRedisCache:
    return FailSoftRedisCache(
        url, {"OPTIONS": {"socket_connect_timeout": TIMEOUT, "socket_timeout": TIMEOUT}}
    )


def dead_cache_settings(settings) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "stgy.cache.FailSoftRedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
            "OPTIONS": {"socket_connect_timeout": TIMEOUT, "socket_timeout": TIMEOUT},
        }
    }


def timed(fn):
    started = time.monotonic()
    result = fn()
    return result, time.monotonic() - started


def test_a_hanging_redis_is_a_miss_then_left_alone(settings, own_redis):
    settings.STGY_CACHE_RETRY_SECONDS = 30
    cache_ = backend(own_redis.url)
    cache_.set("greeting", "hello")
    assert cache_.get("greeting") == "hello"
    own_redis.pause()
    try:
        value, first = timed(lambda: cache_.get("greeting", "missed"))
        assert value == "missed"
        assert first < TIMEOUT * 4
        # Within the retry interval nothing waits on the socket again.
        value, second = timed(lambda: cache_.get("greeting", "missed"))
        assert value == "missed" and second < TIMEOUT / 2
        assert cache_.set("other", 1) is None
        assert cache_.add("fresh", 1) is False
        assert cache_.get_many(["greeting", "other"]) == {}
        assert cache_.has_key("greeting") is False
        with pytest.raises(ValueError):
            cache_.incr("counter")
        assert not cache_.is_available()
    finally:
        own_redis.resume()


def test_keys_changed_during_an_outage_are_dropped_when_redis_answers(settings, own_redis):
    settings.STGY_CACHE_RETRY_SECONDS = 0.2
    cache_ = backend(own_redis.url)
    cache_.set("session-a", {"user": 1})
    cache_.set("session-b", {"user": 2})
    cache_.set("untouched", "kept")
    raw = own_redis.client()
    own_redis.pause()
    cache_.delete("session-a")  # a logout during the outage
    cache_.set("session-b", {"user": 2, "changed": True})  # a save that did not reach Redis
    own_redis.resume()
    # No further cache call: the process's watcher drops the stale copies by itself.
    deadline = time.monotonic() + 10
    while raw.exists(cache_.make_key("session-a"), cache_.make_key("session-b")):
        assert time.monotonic() < deadline, "stale keys were never dropped"
        time.sleep(0.05)
    assert cache_.get("untouched") == "kept"
    assert cache_.is_available()
    cache_.set("session-b", "new")
    assert cache_.get("session-b") == "new"


def test_no_redis_at_all(settings):
    settings.STGY_CACHE_RETRY_SECONDS = 30
    cache_ = backend(f"redis://127.0.0.1:{free_port()}/0")
    assert cache_.get("anything", 7) == 7
    assert cache_.set_many({"a": 1, "b": 2}) == ["a", "b"]
    assert cache_.delete("a") is False
    assert cache_.clear() is False


def test_write_throttles_fail_open_without_redis(settings, human):
    dead_cache_settings(settings)
    settings.STGY_HOURLY_LIKES_COUNT_LIMIT = 2
    for _ in range(5):
        throttle.throttle_check(human, throttle.LIKES)
    assert cache.get("anything", "gone") == "gone"


def test_a_full_redis_refusing_writes_does_not_fail_the_caller(settings, own_redis):
    settings.STGY_CACHE_RETRY_SECONDS = 30
    cache_ = backend(own_redis.url)
    raw = own_redis.client()
    raw.config_set("maxmemory-policy", "noeviction")
    raw.config_set("maxmemory", 1)  # every write now answers "OOM command not allowed"
    try:
        assert cache_.set("k", "v" * 1000) is None
        assert cache_.get("k", "missed") == "missed"
    finally:
        raw.config_set("maxmemory", 0)


def test_count_up_starts_a_counter_with_its_expiry_and_adds_to_it(own_redis):
    cache_ = backend(own_redis.url)
    assert cache_.count_up("hits", 3, 120) == 3
    assert cache_.count_up("hits", 2, 120) == 5
    assert cache_.get("hits") == 5  # the same value add + incr would leave
    assert cache_.get_many(["hits"]) == {"hits": 5}
    full_key = cache_.make_and_validate_key("hits")
    assert 0 < own_redis.client().ttl(full_key) <= 120  # set by the first count, kept by the next


def test_count_up_without_redis_counts_nothing_and_does_not_fail(settings):
    settings.STGY_CACHE_RETRY_SECONDS = 30
    cache_ = backend(f"redis://127.0.0.1:{free_port()}/0")
    assert cache_.count_up("hits", 1, 120) is None


def test_read_counts_reads_what_count_up_and_set_left_in_order(own_redis):
    cache_ = backend(own_redis.url)
    cache_.count_up("a", 3, 120)
    cache_.count_up("c", 1, 120)
    cache_.count_up("c", 4, 120)
    cache_.set("b", 2, 120)
    cache_.set("v2", 9, 120, version=2)
    assert cache_.read_counts(["a", "missing", "c", "b", "v2"]) == [3, 0, 5, 2, 0]
    assert cache_.read_counts(["v2", "a"], version=2) == [9, 0]
    assert cache_.read_counts([]) == []


def test_read_counts_without_redis_reads_zeros(settings):
    settings.STGY_CACHE_RETRY_SECONDS = 30
    cache_ = backend(f"redis://127.0.0.1:{free_port()}/0")
    assert cache_.read_counts(["a", "b"]) == [0, 0]
