"""A link preview's fetch (docs/api.md, "Link previews"), the work of the task
`sns.fetch_link_snippet` (sns/tasks.py): through sns/core/netfetch.py's guarded door, with
the site-wide, per-host and per-address limits, the card read from the page's head and
cached. The request side is sns/linksnippets/service.py."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache

from sns.core import netfetch
from sns.core.errors import TooManyRequests

from . import extract, store
from .records import limits, snippet

USER_AGENT = ("Mozilla/5.0 (compatible; STGY link preview; "
              "+https://github.com/estraier/stgy)")
# How long a fetch refused by a site-wide, host or address limit answers 429 for its URL.
LIMITED_SECONDS = 60


def _before_request(host: str, address: str) -> None:
    allowed = [
        store.consume("global", settings.STGY_LINK_SNIPPET_GLOBAL_FETCH_LIMIT_PER_MIN, 60),
        store.consume(f"host:{store.digest(host)}", settings.STGY_LINK_SNIPPET_HOST_FETCH_LIMIT_PER_MIN, 60),
        store.consume(f"address:{store.digest(address)}",
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


def refresh(url: str, site_host: str, *, keep_old: bool = False) -> dict:
    """Fetch `url` now and cache the card. A failed fetch is cached as `fetch_failed`
    (unless `keep_old`: then it raises and the stale card stays)."""
    rules = policy(site_host)
    try:
        fetched = netfetch.get(url, rules)
    except netfetch.FetchError:
        if keep_old:
            raise
        ttl = settings.STGY_LINK_SNIPPET_FAILURE_TTL_SEC
        host = extract.truncate(urlsplit(url).hostname or "", limits()["site_name"]) or None
        record = snippet(url, "fetch_failed", site_name=host, ttl=ttl)
        cache.set(store.key(url, "value"), record, ttl)
        return record
    meta = _metadata(fetched, rules.own_hosts)
    ttl = settings.STGY_LINK_SNIPPET_TTL_SEC
    record = snippet(url, "ready" if meta.title else "unavailable", title=meta.title,
                     description=meta.description, site_name=meta.site_name,
                     image_url=meta.image_url, ttl=ttl)
    cache.set(store.key(url, "value"), record, max(ttl, settings.STGY_LINK_SNIPPET_STALE_TTL_SEC))
    cache.delete(store.key(url, "backoff"))
    return record


def fetch(url: str, site_host: str, token: str, keep_old: bool) -> None:
    """The task's work: fetch `url`, cache its card, unlock it. A refresh that fails
    keeps the stale card and backs off; a fetch refused by a site-wide, host or address
    limit is remembered as such for a minute (its requests answer 429)."""
    try:
        refresh(url, site_host, keep_old=keep_old)
    except TooManyRequests as exc:
        cache.set(store.key(url, "limited"), exc.message, LIMITED_SECONDS)
        if keep_old:
            cache.set(store.key(url, "backoff"), 1, settings.STGY_LINK_SNIPPET_FAILURE_TTL_SEC)
    except netfetch.FetchError:
        cache.set(store.key(url, "backoff"), 1, settings.STGY_LINK_SNIPPET_FAILURE_TTL_SEC)
    finally:
        store.unlock(url, token)
