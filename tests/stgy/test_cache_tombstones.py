"""Deletes of session and auth-record keys that Redis missed are written to the database
and applied by any process before it reads Redis (stgy/cache.py, sns/auth/tombstones.py);
the whole story with gunicorn restarts is tests/integration/test_logout_outage.py."""

from __future__ import annotations

import pytest
from django.contrib.sessions.backends.cached_db import KEY_PREFIX

from sns.models import CacheTombstone
from stgy import cache as stgy_cache
from stgy.cache import FailSoftRedisCache
from tests.redis_server import own_redis, requires_redis_server  # noqa: F401

pytestmark = [requires_redis_server, pytest.mark.django_db]
TIMEOUT = 0.3
SESSION = KEY_PREFIX + "abcdefghijklmnopqrstuvwxyz012345"
RECORD = "auth-record:v2:42"


def site_cache(settings, url: str) -> FailSoftRedisCache:
    """A fresh process's view of the site's cache at `url`."""
    settings.CACHES = {**settings.CACHES, "default": {**settings.CACHES["default"], "LOCATION": url}}
    stgy_cache._outages.pop(url, None)
    return FailSoftRedisCache(
        url, {"OPTIONS": {"socket_connect_timeout": TIMEOUT, "socket_timeout": TIMEOUT}}
    )


def test_a_missed_delete_of_a_session_is_recorded_and_applied_by_the_next_process(
    settings, own_redis
):
    settings.STGY_CACHE_RETRY_SECONDS = 30  # this process never tries again by itself
    dying = site_cache(settings, own_redis.url)
    for key in (SESSION, RECORD, "ranking:today"):
        dying.set(key, "cached")
    own_redis.pause()
    try:
        # The read that finds Redis away (its command still reaches Redis later, from
        # the socket's buffer; the deletes after it are never sent).
        assert dying.get("ranking:today") is None
        dying.delete(SESSION)
        dying.delete_many([RECORD, "ranking:today"])
    finally:
        own_redis.resume()
    # Only the keys whose stale copy would let a request in are kept beyond the process.
    assert sorted(CacheTombstone.objects.values_list("key", flat=True)) == [RECORD, SESSION]
    raw = own_redis.client()
    assert raw.exists(dying.make_key(SESSION), dying.make_key(RECORD)) == 2

    # The process is gone with its memory; a new one reads Redis for the first time.
    fresh = site_cache(settings, own_redis.url)
    assert fresh.get(SESSION) is None
    assert fresh.get(RECORD) is None
    assert fresh.get("ranking:today") == "cached"  # a soft copy, left to expire
    assert not CacheTombstone.objects.exists()


def test_deletes_that_reach_redis_leave_no_tombstone(settings, own_redis):
    cache_ = site_cache(settings, own_redis.url)
    cache_.set(SESSION, "cached")
    cache_.delete(SESSION)
    assert cache_.get(SESSION) is None
    assert not CacheTombstone.objects.exists()


def test_a_cache_other_than_the_sites_records_nothing(settings, own_redis):
    other = FailSoftRedisCache(
        own_redis.url, {"OPTIONS": {"socket_connect_timeout": TIMEOUT, "socket_timeout": TIMEOUT}}
    )
    settings.STGY_CACHE_RETRY_SECONDS = 30
    other.set(SESSION, "cached")
    own_redis.pause()
    try:
        assert other.get(SESSION) is None
        other.delete(SESSION)
    finally:
        own_redis.resume()
    assert not CacheTombstone.objects.exists()
