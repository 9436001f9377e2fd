"""The link previews' cache (docs/api.md, "Link previews"): the cards, one lock per URL,
and the fixed-window counters of the fetch limits. The cache is the store, as in the
original (no table)."""

from __future__ import annotations

import hashlib
import secrets
import time

from django.conf import settings
from django.core.cache import cache

CACHE_PREFIX = "link-snippet:v1:"
# How long a fetch stays locked for its URL beyond its own deadline: time for its task
# to wait in the queue.
_LOCK_SLACK_SECONDS = 30


def digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def key(url: str, part: str) -> str:
    return f"{CACHE_PREFIX}{digest(url)}:{part}"


def cache_up() -> bool:
    return getattr(cache, "is_available", lambda: True)()


def cached(url: str) -> dict | None:
    record = cache.get(key(url, "value"))
    return record if isinstance(record, dict) and record.get("status") in (
        "ready", "unavailable", "fetch_failed") else None


def lock(url: str) -> str | None:
    """A token if the caller may fetch `url` now; without a cache, always."""
    token = secrets.token_hex(8)
    if not cache_up():
        return token
    timeout = settings.STGY_LINK_SNIPPET_FETCH_TIMEOUT_MS / 1000 + _LOCK_SLACK_SECONDS
    return token if cache.add(key(url, "lock"), token, timeout) else None


def locked(url: str) -> bool:
    return cache.get(key(url, "lock")) is not None


def unlock(url: str, token: str) -> None:
    if cache.get(key(url, "lock")) == token:
        cache.delete(key(url, "lock"))


def consume(name: str, limit: int, window: int) -> bool:
    """Count one use in the current fixed window; False once over `limit` (0: no limit).
    Without a cache the limit is not kept (fail-soft, docs/operations.md)."""
    if limit <= 0:
        return True
    counter = f"{CACHE_PREFIX}limit:{name}:{int(time.time() // window)}"
    cache.add(counter, 0, window * 2)
    try:
        return cache.incr(counter) <= limit
    except ValueError:
        return True
