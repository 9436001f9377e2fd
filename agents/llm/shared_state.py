"""Small values every process must agree on (the circuit breaker's counters and flags),
kept in the Django cache — Redis in production — with process memory as the fallback.

The cache is what makes one worker's knowledge that the model is down reach the web
workers. But the cache may be down as well, and an outage of it must not turn into an
outage of the site: every method here returns normally. On a cache error the store
uses this process's own copy (every write goes to both) and leaves the cache alone for
a few seconds, so a dead Redis costs one failed round trip per few seconds, not one per
call.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache import cache

log = logging.getLogger(__name__)
T = TypeVar("T")
CACHE_RETRY_SECONDS = 5.0


def _always() -> bool:
    return True


class _Unreachable(Exception):
    """The cache failed just now or recently; use the process copy."""


class SharedState:
    def __init__(self, *, cache_retry_seconds: float = CACHE_RETRY_SECONDS) -> None:
        self._lock = threading.Lock()
        self._local: dict[str, tuple[Any, float | None]] = {}
        self._cache_retry_seconds = cache_retry_seconds
        self._cache_down_until = 0.0

    # -- the shared copy

    def _shared(self, op: Callable[[Any], T]) -> T:
        if time.monotonic() < self._cache_down_until:
            raise _Unreachable()
        try:
            result = op(cache)
            # The site's Redis cache (stgy/cache.py) answers a failure with a miss rather
            # than an error; a miss then would read as "breaker closed".
            if not getattr(cache, "is_available", _always)():
                raise ConnectionError("the cache reports Redis unreachable")
            return result
        except Exception as exc:  # any cache failure at all: fall back, never raise
            self._cache_down_until = time.monotonic() + self._cache_retry_seconds
            log.warning(
                "cache unreachable (%s: %s); using in-process state for %.0f s",
                type(exc).__name__,
                exc,
                self._cache_retry_seconds,
            )
            raise _Unreachable() from exc

    # -- the process copy

    def _local_get(self, key: str) -> Any:
        found = self._local.get(key)
        if found is None:
            return None
        value, expires = found
        if expires is not None and time.time() >= expires:
            del self._local[key]
            return None
        return value

    def _local_set(self, key: str, value: Any, timeout: float | None) -> None:
        self._local[key] = (value, None if timeout is None else time.time() + timeout)

    # -- the interface

    def get_many(self, keys: Iterable[str]) -> dict[str, Any]:
        keys = list(keys)
        try:
            return self._shared(lambda c: c.get_many(keys))
        except _Unreachable:
            with self._lock:
                found = {key: self._local_get(key) for key in keys}
            return {key: value for key, value in found.items() if value is not None}

    def get(self, key: str) -> Any:
        return self.get_many([key]).get(key)

    def set(self, key: str, value: Any, timeout: float | None = None) -> None:
        with self._lock:
            self._local_set(key, value, timeout)
        try:
            self._shared(lambda c: c.set(key, value, timeout=timeout))
        except _Unreachable:
            pass

    def add(self, key: str, value: Any, timeout: float | None = None) -> bool:
        """Set `key` only if it is absent; True if this call set it."""
        try:
            added = self._shared(lambda c: c.add(key, value, timeout=timeout))
        except _Unreachable:
            with self._lock:
                if self._local_get(key) is not None:
                    return False
                self._local_set(key, value, timeout)
                return True
        if added:
            with self._lock:
                self._local_set(key, value, timeout)
        return added

    def incr(self, key: str) -> int:
        """Add one to a counter (created at 0, no expiry); the new value."""

        def shared_incr(c) -> int:
            try:
                return c.incr(key)
            except ValueError:  # no such key yet
                c.add(key, 0, timeout=None)
                return c.incr(key)

        try:
            value = self._shared(shared_incr)
        except _Unreachable:
            with self._lock:
                value = int(self._local_get(key) or 0) + 1
                self._local_set(key, value, None)
            return value
        with self._lock:
            self._local_set(key, value, None)
        return value

    def delete_many(self, keys: Iterable[str]) -> None:
        keys = list(keys)
        with self._lock:
            for key in keys:
                self._local.pop(key, None)
        try:
            self._shared(lambda c: c.delete_many(keys))
        except _Unreachable:
            pass

    def forget_local(self) -> None:
        """Drop the process copy and retry the cache at once (tests, operators)."""
        with self._lock:
            self._local.clear()
        self._cache_down_until = 0.0
