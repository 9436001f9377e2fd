"""POST /link-snippets/resolve (docs/api.md, "Link previews"): the card shown under a
link, answered within a bound and never fetched inside the request.

Links to this site's users, posts and public posts are answered from the database, as
the viewer may see them. An external page's card comes from the cache, shared by all
readers: fresh for STGY_LINK_SNIPPET_TTL_SEC, then served stale while one background
refresh runs, kept for STGY_LINK_SNIPPET_STALE_TTL_SEC; a failure is remembered for
STGY_LINK_SNIPPET_FAILURE_TTL_SEC. A page not in the cache is fetched by the task
`sns.fetch_link_snippet` (sns/linksnippets/fetching.py), one fetch per URL at a time; the
request waits for its card at most STGY_LINK_SNIPPET_WAIT_MS, then answers `pending`, and
the caller asks again. Only a signed-in caller makes the site fetch (per client, per
remote host, per remote address and in all within limits); anyone gets what is cached.
"""

from __future__ import annotations

import time
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache

from sns.core.errors import LoginRequired, TooManyRequests
from sns.extensions import submit_task

from . import extract, internal, store, urls
from .records import limits, present, snippet
from .tasks import fetch_link_snippet

cached = store.cached  # sns/web/link_cards.py draws cached cards


def link_snippet_resolve(url_text: str, *, viewer, client_key: str, site_origin: str) -> dict:
    """The card for `url_text` (an http(s) URL or a path of this site); InvalidInput with
    the original's reason for a URL it refuses, TooManyRequests over a fetch limit,
    LoginRequired for a signed-out caller whose page is not in the cache."""
    own_origins = [site_origin, *settings.STGY_CORS_ALLOWED_ORIGINS]
    target = urls.classify(url_text, own_origins)
    if isinstance(target, urls.Internal):
        return internal.resolve(target, viewer)
    return _external(target, viewer, client_key, urlsplit(site_origin).netloc)


def _pending(url: str) -> dict:
    host = extract.truncate(urlsplit(url).hostname or "", limits()["site_name"]) or None
    return present(snippet(url, "pending", site_name=host), stale=False, refreshing=True)


def _external(url: str, viewer, client_key: str, site_host: str) -> dict:
    record = store.cached(url)
    if record is not None and record["_expires"] > time.time():
        return present(record, stale=False, refreshing=False)
    if record is not None:
        refreshing = (viewer is not None and not cache.get(store.key(url, "backoff"))
                      and _start_fetch(url, client_key, site_host, keep_old=True))
        return present(record, stale=True, refreshing=refreshing)
    if viewer is None:
        raise LoginRequired("login required to fetch a link preview")
    _refuse_if_limited(url)
    if not store.cache_up():
        return _pending(url)  # no lock, no limits, and no way for the task to hand the card back
    if not _start_fetch(url, client_key, site_host, keep_old=False):
        return _pending(url)  # another request is fetching it
    record = _wait_for(url, settings.STGY_LINK_SNIPPET_WAIT_MS / 1000)
    if record is not None:
        return present(record, stale=False, refreshing=False)
    _refuse_if_limited(url)
    return _pending(url)


def _refuse_if_limited(url: str) -> None:
    message = cache.get(store.key(url, "limited"))
    if message:
        raise TooManyRequests(message)


def _start_fetch(url: str, client_key: str, site_host: str, *, keep_old: bool) -> bool:
    """Lock `url` and hand its fetch to the task; False when another request holds the
    lock (or a refresh finds the client over its limit). A new fetch over the client's
    limit is TooManyRequests."""
    token = store.lock(url)
    if token is None:
        return False
    if not store.consume(f"client:{store.digest(client_key)}",
                         settings.STGY_LINK_SNIPPET_CLIENT_FETCH_LIMIT_PER_HOUR, 3600):
        store.unlock(url, token)
        if keep_old:
            return False
        raise TooManyRequests("too many link snippet requests")
    submit_task(fetch_link_snippet, url, site_host, token, keep_old)
    return True


def _wait_for(url: str, seconds: float) -> dict | None:
    """The card once the task has cached it, or None when the task ended without one (a
    limit refused it) or `seconds` have passed."""
    deadline = time.monotonic() + seconds
    while True:
        if (record := store.cached(url)) is not None:
            return record
        if not store.locked(url) or time.monotonic() >= deadline:
            return None
        time.sleep(0.05)
