"""POST /link-snippets/resolve (docs/api.md, "Link previews"): the card shown under a
link. External pages are fetched through sns/netfetch.py and kept in the cache, shared
by all readers: fresh for STGY_LINK_SNIPPET_TTL_SEC, then served stale while one
background refresh runs, kept for STGY_LINK_SNIPPET_STALE_TTL_SEC; a failure is
remembered for STGY_LINK_SNIPPET_FAILURE_TTL_SEC. One fetch per URL at a time (a lock in
the cache); fetches are limited per client, per remote host, per remote address and in
all. Links to this site's users, posts and public posts are answered from the database,
as the viewer may see them. Like the original, no table: the cache is the store."""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache

from sns import netfetch
from sns.errors import TooManyRequests

from . import extract, internal, urls
from .records import limits, present, snippet

CACHE_PREFIX = "link-snippet:v1:"
USER_AGENT = ("Mozilla/5.0 (compatible; STGY link preview; "
              "+https://github.com/estraier/stgy)")
_WAIT_SECONDS = 2.0
def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def _key(url: str, part: str) -> str:
    return f"{CACHE_PREFIX}{_digest(url)}:{part}"


def _cache_up() -> bool:
    return getattr(cache, "is_available", lambda: True)()


def cached(url: str) -> dict | None:
    record = cache.get(_key(url, "value"))
    return record if isinstance(record, dict) and record.get("status") in (
        "ready", "unavailable", "fetch_failed") else None


def link_snippet_resolve(url_text: str, *, viewer, client_key: str, site_origin: str) -> dict:
    """The card for `url_text` (an http(s) URL or a path of this site); InvalidInput with
    the original's reason for a URL it refuses, TooManyRequests over a fetch limit."""
    own_origins = [site_origin, *settings.STGY_CORS_ALLOWED_ORIGINS]
    target = urls.classify(url_text, own_origins)
    if isinstance(target, urls.Internal):
        return internal.resolve(target, viewer)
    return _external(target, client_key, urlsplit(site_origin).netloc)


def _external(url: str, client_key: str, site_host: str) -> dict:
    record = cached(url)
    if record is not None and record["_expires"] > time.time():
        return present(record, stale=False, refreshing=False)
    if record is not None:
        if cache.get(_key(url, "backoff")):
            return present(record, stale=True, refreshing=False)
        token = _lock(url)
        if token is not None:
            threading.Thread(target=_refresh_in_background, name="stgy-link-snippet",
                             args=(url, client_key, site_host, token), daemon=True).start()
        return present(record, stale=True, refreshing=True)
    token = _lock(url)
    if token is None:
        record = _wait_for(url)
        if record is not None:
            return present(record, stale=False, refreshing=False)
        host = extract.truncate(urlsplit(url).hostname or "", limits()["site_name"]) or None
        return present(snippet(url, "pending", site_name=host), stale=False, refreshing=True)
    try:
        return present(refresh(url, client_key, site_host), stale=False, refreshing=False)
    finally:
        _unlock(url, token)


def _lock(url: str) -> str | None:
    """A token if this process may fetch `url` now; without a cache, always."""
    token = secrets.token_hex(8)
    if not _cache_up():
        return token
    timeout = settings.STGY_LINK_SNIPPET_FETCH_TIMEOUT_MS / 1000 + 5
    return token if cache.add(_key(url, "lock"), token, timeout) else None


def _unlock(url: str, token: str) -> None:
    if cache.get(_key(url, "lock")) == token:
        cache.delete(_key(url, "lock"))


def _wait_for(url: str) -> dict | None:
    deadline = time.monotonic() + _WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(0.1)
        if (record := cached(url)) is not None:
            return record
    return None


def _refresh_in_background(url: str, client_key: str, site_host: str, token: str) -> None:
    try:
        refresh(url, client_key, site_host, keep_old=True)
    except Exception:  # noqa: BLE001 - a failed refresh keeps the stale card and backs off
        cache.set(_key(url, "backoff"), 1, settings.STGY_LINK_SNIPPET_FAILURE_TTL_SEC)
    finally:
        _unlock(url, token)


def _consume(name: str, limit: int, window: int) -> bool:
    """Count one use in the current fixed window; False once over `limit` (0: no limit).
    Without a cache the limit is not kept (fail-soft, docs/operations.md)."""
    if limit <= 0:
        return True
    key = f"{CACHE_PREFIX}limit:{name}:{int(time.time() // window)}"
    cache.add(key, 0, window * 2)
    try:
        return cache.incr(key) <= limit
    except ValueError:
        return True


def _before_request(host: str, address: str) -> None:
    allowed = [
        _consume("global", settings.STGY_LINK_SNIPPET_GLOBAL_FETCH_LIMIT_PER_MIN, 60),
        _consume(f"host:{_digest(host)}", settings.STGY_LINK_SNIPPET_HOST_FETCH_LIMIT_PER_MIN, 60),
        _consume(f"address:{_digest(address)}",
                 settings.STGY_LINK_SNIPPET_ADDRESS_FETCH_LIMIT_PER_MIN, 60),
    ]
    if not all(allowed):
        raise TooManyRequests("link snippet fetch rate limit exceeded")


def policy(site_host: str) -> netfetch.Policy:
    return netfetch.Policy(
        label="remote", timeout=settings.STGY_LINK_SNIPPET_FETCH_TIMEOUT_MS / 1000,
        max_redirects=settings.STGY_LINK_SNIPPET_MAX_REDIRECTS,
        max_bytes=settings.STGY_LINK_SNIPPET_MAX_HTML_BYTES,
        allow_private=settings.STGY_LINK_SNIPPET_ALLOW_PRIVATE,
        allowed_networks=netfetch.networks(settings.STGY_LINK_SNIPPET_ALLOWED_NETWORKS),
        default_ports_only=not settings.STGY_LINK_SNIPPET_ALLOW_ANY_PORT,
        own_hosts=netfetch.own_hosts(site_host),
        accept="text/html,application/xhtml+xml;q=0.9,*/*;q=0.1", user_agent=USER_AGENT,
        extra_headers={"Accept-Language": "en-US,en;q=0.9"},
        before_request=_before_request, enough=extract.head_complete,
    )


def _metadata(fetched: netfetch.Fetched, own_hosts: frozenset) -> extract.Metadata:
    kind = fetched.content_type
    if kind not in extract.HTML_TYPES and not extract.looks_like_html(fetched.body):
        host = extract.truncate(urlsplit(fetched.url).hostname or "", limits()["site_name"])
        return extract.Metadata(None, None, host or None, None)
    html = extract.decode(fetched.body, fetched.headers.get("Content-Type"))
    return extract.extract(html, fetched.url, limits(), own_hosts)


def refresh(url: str, client_key: str, site_host: str, *, keep_old: bool = False) -> dict:
    """Fetch `url` now and cache the card. A failed fetch is cached as `fetch_failed`
    (unless `keep_old`: then it raises and the stale card stays)."""
    if not _consume(f"client:{_digest(client_key)}",
                    settings.STGY_LINK_SNIPPET_CLIENT_FETCH_LIMIT_PER_HOUR, 3600):
        raise TooManyRequests("too many link snippet requests")
    rules = policy(site_host)
    try:
        fetched = netfetch.get(url, rules)
    except netfetch.FetchError:
        if keep_old:
            raise
        ttl = settings.STGY_LINK_SNIPPET_FAILURE_TTL_SEC
        host = extract.truncate(urlsplit(url).hostname or "", limits()["site_name"]) or None
        record = snippet(url, "fetch_failed", site_name=host, ttl=ttl)
        cache.set(_key(url, "value"), record, ttl)
        return record
    meta = _metadata(fetched, rules.own_hosts)
    ttl = settings.STGY_LINK_SNIPPET_TTL_SEC
    record = snippet(url, "ready" if meta.title else "unavailable", title=meta.title,
                     description=meta.description, site_name=meta.site_name,
                     image_url=meta.image_url, ttl=ttl)
    cache.set(_key(url, "value"), record, max(ttl, settings.STGY_LINK_SNIPPET_STALE_TTL_SEC))
    cache.delete(_key(url, "backoff"))
    return record

