"""A Redis cache that degrades to "no cache" when Redis cannot be reached.

Everything the site keeps in the cache — cached sessions, throttle buckets, ranking
caches, small markers — is either a copy of the database or a soft limit, so a person
can go on using the site without it (docs/operations.md, "When Redis is down"):

* a failed read is a miss (sessions then load from the database);
* a failed write or delete is skipped, and its key remembered: when Redis answers
  again, this process deletes those keys first, so a session saved or ended during
  the outage is never served from a stale cached copy afterwards;
* after a failure the backend stops trying for `STGY_CACHE_RETRY_SECONDS`, so an
  outage costs one connection timeout per process and interval, not one per call;
  meanwhile a background thread of the process tries again at that interval, so the
  stale keys are dropped as soon as Redis is back even if no request comes;
* a missed delete of a key whose stale copy would let a request in (an ended session,
  an outdated auth record: the prefixes `register_durable_deletes` was given) is also
  recorded in the database, because the process that remembers it may die before
  Redis returns; every process applies those records before its first read of Redis
  and after each outage it saw (sns/auth/tombstones.py, docs/architecture.md §9).

Any failure of Redis itself is absorbed (unreachable, timed out, out of memory,
read-only); a value that cannot be pickled still raises.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.db import connections
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# Unreachable, timed out, or refusing (out of memory, read-only replica, loading): for a
# cache that only holds copies and soft limits, all of these mean "do without it".
UNREACHABLE = (RedisError, OSError)
# Keys written or deleted while Redis was away; more than this and the oldest are
# dropped (their cached copies then live until their own expiry).
_PENDING_LIMIT = 10_000


class _DurableDeletes:
    """Who keeps the missed deletes of which keys (set once by the app that owns them)."""

    prefixes: tuple[str, ...] = ()
    record = None  # (keys) -> None: write them where they outlive the process
    apply = None  # (delete_many) -> None: delete the recorded keys with it, then the records


_durable = _DurableDeletes()


def register_durable_deletes(*, prefixes: tuple[str, ...], record, apply) -> None:
    """Deletes of keys starting with `prefixes`, missed while Redis was away, are handed
    to `record`; `apply` is called with a raw `delete_many` before a process first
    reads Redis and after each outage it saw. Only the site's cache (the default
    alias) keeps them."""
    _durable.prefixes, _durable.record, _durable.apply = tuple(prefixes), record, apply


class _Outage:
    """Per-process state of one Redis location, shared by the per-thread cache objects."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down_until = 0.0
        # Whether this process has applied the durable deletes since it started.
        self.checked = False
        self.pending: dict[tuple[str, int | None], None] = {}
        self.watcher: threading.Thread | None = None

    def is_down(self) -> bool:
        return time.monotonic() < self.down_until

    def mark_down(self, location: str, exc: Exception, recover) -> None:
        retry = retry_seconds()
        with self.lock:
            first = self.down_until == 0.0
            self.down_until = time.monotonic() + retry
            if self.watcher is None or not self.watcher.is_alive():
                self.watcher = threading.Thread(
                    target=self._watch, args=(recover,), name="stgy-cache-watch", daemon=True
                )
                self.watcher.start()
        if first:
            log.warning("cache %s unreachable (%s); serving without it, retrying every %ss",
                        location, exc, retry)

    def _watch(self, recover) -> None:
        while True:
            time.sleep(retry_seconds())
            with self.lock:
                if self.down_until == 0.0:
                    return
            try:
                recover()
                return
            except UNREACHABLE:
                with self.lock:
                    self.down_until = time.monotonic() + retry_seconds()
            except Exception:  # the watcher must never take the process down
                log.exception("cache recovery failed")
                return
            finally:
                # Applying the durable deletes may have opened a database connection
                # in this thread; nothing else would ever close it.
                connections.close_all()

    def remember(self, key: str, version: int | None) -> None:
        with self.lock:
            self.pending[(key, version)] = None
            while len(self.pending) > _PENDING_LIMIT:
                self.pending.pop(next(iter(self.pending)))

    def take_pending(self) -> list[tuple[str, int | None]]:
        with self.lock:
            keys, self.pending = list(self.pending), {}
            return keys


def retry_seconds() -> float:
    return max(0.05, float(getattr(settings, "STGY_CACHE_RETRY_SECONDS", 5)))


_outages_lock = threading.Lock()
_outages: dict[str, _Outage] = {}


def _outage_for(location: str) -> _Outage:
    with _outages_lock:
        return _outages.setdefault(location, _Outage())


class _ReusedClients(RedisCacheClient):
    """Django's client makes a new `redis.Redis` for every cache call, and redis-py's
    constructor (its response-callback table, its event dispatcher) costs about as much
    CPU as the call itself: on the API's hot reads, which read the session and the auth
    record, that was a fifth of the request. One client per connection pool is kept
    instead; a client is thread-safe, each command taking a connection from the pool."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(index))
        return client


class FailSoftRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _ReusedClients
        self._location = server if isinstance(server, str) else ",".join(server)
        self._outage = _outage_for(self._location)
        site = getattr(settings, "CACHES", {}).get("default", {}).get("LOCATION")
        self._keeps_durable_deletes = site == server

    # -- the guard ---------------------------------------------------------------

    def _call(
        self, operation, fallback, *, writes: list[tuple[str, int | None]] = (), deletes=False
    ):
        outage = self._outage
        if outage.is_down():
            self._missed(writes, deletes)
            return fallback
        try:
            if outage.down_until or not outage.checked:
                self._recover()
            return operation()
        except UNREACHABLE as exc:
            outage.mark_down(self._location, exc, self._recover)
            self._missed(writes, deletes)
            return fallback

    def _missed(self, writes, deletes: bool) -> None:
        for key, version in writes:
            self._outage.remember(key, version)
        if deletes and self._keeps_durable_deletes and _durable.prefixes:
            durable = [key for key, _ in writes if key.startswith(_durable.prefixes)]
            if durable:
                _durable.record(durable)

    def _recover(self) -> None:
        """First contact of the process, or after an outage: drop what may be stale,
        then carry on."""
        outage = self._outage
        was_down = outage.down_until != 0.0
        pending = outage.take_pending()
        try:
            self._cache.get_client(write=True).ping()
            for key, version in pending:
                super().delete(key, version=version)
            self._apply_durable_deletes()
        except UNREACHABLE:
            for key, version in pending:
                outage.remember(key, version)
            raise
        with outage.lock:
            outage.down_until = 0.0
            outage.checked = True
        if was_down:
            log.info("cache %s reachable again; %d stale keys dropped", self._location, len(pending))

    def _apply_durable_deletes(self) -> None:
        if not (self._keeps_durable_deletes and _durable.apply):
            return
        try:
            _durable.apply(lambda keys: RedisCache.delete_many(self, keys))
        except UNREACHABLE:
            raise
        except Exception as exc:  # noqa: BLE001 - a database error of any kind
            # The database is away (or not there yet): what it holds is applied after
            # the next outage this process sees, or by another process.
            log.warning("cache %s: could not apply the recorded deletes (%s)", self._location, exc)

    def validate_key(self, key):
        # Django's check walks every character of every key for memcached's limits
        # (length, control characters), a warning only; Redis takes any key, and the
        # walk was a visible part of each hot read (bench/hot_reads).
        return None

    def is_available(self) -> bool:
        """For status pages: did the last contact with Redis work?"""
        return not self._outage.is_down()

    # -- the cache API -----------------------------------------------------------

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call(lambda: super(FailSoftRedisCache, self).add(key, value, timeout, version),
                          False, writes=[(key, version)])

    def get(self, key, default=None, version=None):
        return self._call(lambda: super(FailSoftRedisCache, self).get(key, default, version), default)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call(lambda: super(FailSoftRedisCache, self).set(key, value, timeout, version),
                          None, writes=[(key, version)])

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call(lambda: super(FailSoftRedisCache, self).touch(key, timeout, version), False)

    def delete(self, key, version=None):
        return self._call(lambda: super(FailSoftRedisCache, self).delete(key, version),
                          False, writes=[(key, version)], deletes=True)

    def get_many(self, keys, version=None):
        return self._call(lambda: super(FailSoftRedisCache, self).get_many(keys, version), {})

    def has_key(self, key, version=None):
        return self._call(lambda: super(FailSoftRedisCache, self).has_key(key, version), False)

    def incr(self, key, delta=1, version=None):
        missing = object()
        result = self._call(lambda: super(FailSoftRedisCache, self).incr(key, delta, version),
                            missing, writes=[(key, version)])
        if result is missing:
            # What a vanished key gives; callers already handle it.
            raise ValueError(f"Key '{key}' not found (cache unavailable)")
        return result

    def count_up(self, key, amount: int, timeout, version=None):
        """`add(key, 0, timeout)` then `incr(key, amount)` — a counter that expires
        `timeout` seconds after its first count — in one round trip instead of three
        (Django's `incr` asks whether the key exists first). The new count, or None
        when Redis is away (nothing counted, as the two calls would do)."""
        full_key = self.make_and_validate_key(key, version=version)
        seconds = self.get_backend_timeout(timeout)

        def count():
            pipe = self._cache.get_client(full_key, write=True).pipeline(transaction=False)
            pipe.set(full_key, 0, ex=int(seconds), nx=True)
            pipe.incrby(full_key, amount)
            return pipe.execute()[-1]

        return self._call(count, None, writes=[(key, version)])

    def read_counts(self, keys, version=None) -> list[int]:
        """The counters at `keys` (as `count_up` keeps them), 0 where missing, in order:
        one MGET. `get_many` makes each key through three calls and builds a dict; the
        throttle windows read 60 or 120 buckets per write (sns/core/throttle.py), so that was
        most of a window's cost. Counters are stored as plain integers (Django's Redis
        serializer keeps ints unpickled). All zeros when Redis is away, as `get_many`'s
        empty dict reads."""
        # `make_key`'s own steps, once for all the keys.
        key_func, prefix = self.key_func, self.key_prefix
        version = self.version if version is None else version
        full_keys = [key_func(key, prefix, version) for key in keys]
        if not full_keys:
            return []

        def read():
            values = self._cache.get_client().mget(full_keys)
            return [0 if value is None else int(value) for value in values]

        return self._call(read, [0] * len(full_keys))

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        writes = [(key, version) for key in data]
        return self._call(
            lambda: super(FailSoftRedisCache, self).set_many(data, timeout, version), list(data),
            writes=writes,
        )

    def delete_many(self, keys, version=None):
        keys = list(keys)
        return self._call(lambda: super(FailSoftRedisCache, self).delete_many(keys, version), None,
                          writes=[(key, version) for key in keys], deletes=True)

    def clear(self):
        return self._call(lambda: super(FailSoftRedisCache, self).clear(), False)
