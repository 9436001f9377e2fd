"""The answer of POST /link-snippets/resolve, as the original shapes it (docs/api.md,
"Link previews"), and the length limits of its texts."""

from __future__ import annotations

import time
from datetime import datetime, timezone

from django.conf import settings

from ..core.isotime import iso as iso_time

_FIELDS = ("url", "status", "title", "description", "siteName", "imageUrl", "fetchedAt",
           "expiresAt")


def iso(epoch: float | None) -> str | None:
    if epoch is None:
        return None
    return iso_time(datetime.fromtimestamp(epoch, timezone.utc))


def limits() -> dict:
    return {"title": settings.STGY_LINK_SNIPPET_TITLE_LENGTH_LIMIT,
            "description": settings.STGY_LINK_SNIPPET_DESCRIPTION_LENGTH_LIMIT,
            "site_name": settings.STGY_LINK_SNIPPET_SITE_NAME_LENGTH_LIMIT}


def snippet(url, status, *, title=None, description=None, site_name=None, image_url=None,
            ttl: float | None = None) -> dict:
    """One card as cached; `ttl` None means "not cached" (expiresAt null). `_expires`
    (epoch seconds) stays inside: present() leaves it out."""
    now = time.time()
    expires = None if ttl is None else now + max(1, ttl)
    return {"url": url, "status": status, "title": title, "description": description,
            "siteName": site_name, "imageUrl": image_url,
            "fetchedAt": None if status == "pending" else iso(now),
            "expiresAt": iso(expires), "_expires": expires}


def present(record: dict, *, stale: bool, refreshing: bool) -> dict:
    return {**{k: record.get(k) for k in _FIELDS}, "stale": stale, "refreshing": refreshing}
