"""API authentication: the same Django session as the pages (cookie `session_id`).

Why no CSRF token for the API: the session cookie is SameSite=Strict, so browsers
never send it on a cross-site request; on top of that, every unsafe request must be
JSON (a cross-site HTML form cannot send application/json without a CORS preflight,
which we never grant) and is refused outright when the browser marks it cross-site
(Sec-Fetch-Site) or its Origin names another host.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication

_SAFE = {"GET", "HEAD", "OPTIONS"}


def refuse_cross_site(request) -> None:
    if request.method in _SAFE:
        return
    if request.META.get("HTTP_SEC_FETCH_SITE", "") == "cross-site":
        raise exceptions.PermissionDenied("cross-site request refused")
    origin = request.META.get("HTTP_ORIGIN")
    if origin and origin != "null":
        if urlsplit(origin).netloc.lower() != request.get_host().lower():
            raise exceptions.PermissionDenied("cross-site request refused")
    elif origin == "null":
        raise exceptions.PermissionDenied("cross-site request refused")
    content_type = request.META.get("CONTENT_TYPE", "")
    has_body = int(request.META.get("CONTENT_LENGTH") or 0) > 0
    if has_body and not content_type.startswith("application/json"):
        raise exceptions.UnsupportedMediaType(content_type)


class SessionCookieAuthentication(BaseAuthentication):
    def authenticate(self, request):
        refuse_cross_site(request)
        user = getattr(request._request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        return (user, None)

    def authenticate_header(self, request):
        return "Session"
