"""API authentication: the same Django session as the pages (cookie `session_id`).

Why no CSRF token for the API: the session cookie is SameSite=Strict, so browsers
never send it on a cross-site request; on top of that, every unsafe request must be
JSON (a cross-site HTML form cannot send application/json without a CORS preflight,
which we never grant) and is refused outright when the browser marks it cross-site
(Sec-Fetch-Site) or its Origin names another host — unless the operator allowed that
origin (sns/api/cors.py).

A request with `Authorization: Bearer …` is a personal access token's (sns/token_auth.py)
and is judged by the token alone, whatever cookie it carries: it needs no cross-site
check, since a browser never adds the header by itself. A read token may only read.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication

from sns.token_auth import token_user

from .cors import origin_allowed

_SAFE = {"GET", "HEAD", "OPTIONS"}


def refuse_cross_site(request) -> None:
    if request.method in _SAFE:
        return
    origin = request.META.get("HTTP_ORIGIN")
    if not origin_allowed(origin) and _foreign(request, origin):
        raise exceptions.PermissionDenied("cross-site request refused")
    content_type = request.META.get("CONTENT_TYPE", "")
    has_body = int(request.META.get("CONTENT_LENGTH") or 0) > 0
    if has_body and not content_type.startswith("application/json"):
        raise exceptions.UnsupportedMediaType(content_type)


def _foreign(request, origin: str | None) -> bool:
    if request.META.get("HTTP_SEC_FETCH_SITE", "") == "cross-site" or origin == "null":
        return True
    return bool(origin) and urlsplit(origin).netloc.lower() != request.get_host().lower()


class TokenRefused(exceptions.AuthenticationFailed):
    """401 `invalid token`: unknown, revoked, or its user deleted."""

    default_detail = "invalid token"


def bearer_secret(request) -> str | None:
    """The secret of an `Authorization: Bearer` header, or None without one."""
    scheme, _, secret = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    return secret.strip() if scheme.lower() == "bearer" else None


class SessionCookieAuthentication(BaseAuthentication):
    """The session's user, or a personal access token's when the request carries one
    (`request.auth` is then its `TokenGrant`)."""

    def authenticate(self, request):
        secret = bearer_secret(request)
        if secret is not None:
            found = token_user(secret)
            if found is None:
                raise TokenRefused()
            if not found[1].can_write and request.method not in _SAFE:
                raise exceptions.PermissionDenied("read-only token")
            return found
        refuse_cross_site(request)
        user = getattr(request._request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        return (user, None)

    def authenticate_header(self, request):
        return "Bearer" if bearer_secret(request) is not None else "Session"
