"""The rules of /geo/encode and /geo/decode (docs/api.md, "Geo"): who may ask, the daily
time budget, and the process-wide geocoder.

Callers without a session are let in when they send `X-STGY-QueryHash`, the SHA-1 of
the query string put in a canonical form: a speed bump for scripts, not a secret (the
original's frontend computes it in the browser). They then share one daily budget as
the all-zero user. Everyone but admins has STGY_DAILY_GEO_TIMER_LIMIT_MS of geocoder
time per day (in STGY_DEFAULT_TIMEZONE); the budget lives in the cache and, like the
hourly throttles, is not counted while the cache is away.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import parse_qsl, quote
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.cache import cache

from sns.core.errors import Forbidden

from .geocoder import GeoCoder

log = logging.getLogger(__name__)

QUERY_HASH_HEADER = "X-STGY-QueryHash"
ANONYMOUS_ID = "0000000000000000"
BUDGET_RETENTION_SECONDS = 2 * 24 * 3600
# What JavaScript's encodeURIComponent leaves as it is.
_URI_COMPONENT_SAFE = "-_.!~*'()"


@dataclass(frozen=True)
class GeoCaller:
    id: str
    is_admin: bool


def canonical_query(query_string: str) -> str:
    pairs = parse_qsl(query_string, keep_blank_values=True, errors="replace")
    return "&".join(sorted(
        f"{quote(k, safe=_URI_COMPONENT_SAFE)}={quote(v, safe=_URI_COMPONENT_SAFE)}" for k, v in pairs
    ))


def query_hash(query_string: str) -> str:
    return hashlib.sha1(canonical_query(query_string).encode("utf-8")).hexdigest()


def geo_caller(user, query_string: str, header: str | None) -> GeoCaller:
    """The logged-in user, or the shared anonymous caller when the query hash is right."""
    if user is not None and getattr(user, "is_authenticated", False):
        return GeoCaller(id=f"{user.id:016X}", is_admin=bool(user.is_admin))
    if not header or not hmac.compare_digest(header.strip().lower(), query_hash(query_string)):
        raise Forbidden("invalid queryhash")
    return GeoCaller(id=ANONYMOUS_ID, is_admin=False)


def _budget_key(caller: GeoCaller) -> str:
    day = datetime.now(ZoneInfo(settings.STGY_DEFAULT_TIMEZONE)).strftime("%Y-%m-%d")
    return f"dtt:geo:{day}:{caller.id}"


def check_budget(caller: GeoCaller) -> None:
    if caller.is_admin:
        return
    used = cache.get(_budget_key(caller)) or 0
    if used >= settings.STGY_DAILY_GEO_TIMER_LIMIT_MS:
        raise Forbidden("too often operations")


def spend_budget(caller: GeoCaller, elapsed_ms: int) -> None:
    if caller.is_admin or elapsed_ms <= 0:
        return
    key = _budget_key(caller)
    try:
        if not cache.add(key, elapsed_ms, timeout=BUDGET_RETENTION_SECONDS):
            cache.incr(key, elapsed_ms)
    except ValueError:  # expired between add and incr, or the cache is away
        cache.set(key, elapsed_ms, timeout=BUDGET_RETENTION_SECONDS)


_lock = threading.Lock()
_loaded: dict[tuple[str, ...], GeoCoder] = {}


def geocoder() -> GeoCoder:
    """Loaded once per process and file list, at the first request that needs it."""
    files = tuple(settings.STGY_GEO_STATIC_JSON_FILES)
    with _lock:
        found = _loaded.get(files)
        if found is None:
            started = time.monotonic()
            found = _loaded[files] = GeoCoder(list(files))
            log.info("geocoder: %d places from %s in %.1fs", len(found.places), ", ".join(files),
                     time.monotonic() - started)
        return found


def timed(caller: GeoCaller, run):
    """Run a lookup and charge its time (not the first load's) to the caller's budget."""
    coder = geocoder()
    started = time.perf_counter()
    try:
        return run(coder)
    finally:
        spend_budget(caller, int((time.perf_counter() - started) * 1000))
