"""Sliding session expiry without a session write on every request.

A session stays alive while it is used, as the original's TTL refresh on read did,
but it is written (database and cache) at most once per refresh interval instead of
on every read: `SESSION_SAVE_EVERY_REQUEST` cost three SQL statements and a cache
write on each page view and API call.
"""

from __future__ import annotations

import time

from django.conf import settings

_REFRESHED_AT = "_stgy_refreshed_at"


def refresh_interval() -> int:
    """Seconds between two writes of a used session: a tenth of its lifetime, at most an
    hour, so a session in use never comes closer than 90 % of its age to expiring."""
    return max(1, min(3600, settings.SESSION_COOKIE_AGE // 10))


class SlidingSessionMiddleware:
    """Marks a logged-in session modified when its last refresh is older than the
    interval; Django's SessionMiddleware (listed before this one, so it runs after it
    on the way out) then saves it with a fresh expiry and cookie."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        stamp_if_due(request)
        return response


def stamp_if_due(request) -> None:
    """The middleware's rule, for a request whose view has run (also sns/api/hot_reads.py)."""
    session = getattr(request, "session", None)
    if session is None or not session.accessed or session.is_empty():
        return
    now = int(time.time())
    # A session being saved anyway (a login, say) is stamped for free.
    if session.modified or now - int(session.get(_REFRESHED_AT, 0)) >= refresh_interval():
        session[_REFRESHED_AT] = now
