"""API authentication: the same Django session as the pages (cookie `session_id`).

Why no CSRF token for the API: the session cookie is SameSite=Strict, so browsers
never send it on a cross-site request; on top of that, an unsafe request is refused
outright when the browser marks it cross-site (Sec-Fetch-Site) or its Origin names
another host — unless the operator allowed that origin (sns/api/cors.py) — and it must
prove it is not a form or a no-cors fetch of another site, whatever its body:

* `Content-Type: application/json`, which no cross-site page can send without a CORS
  preflight we grant only to allowed origins (the original's frontend sends it on every
  call, bodiless likes and deletes too); or
* no body and an Origin of this site or an allowed one: a browser sends Origin on every
  request other than GET and HEAD, and a page of another site cannot write it; or
* no body, no content type and no Origin at all: no browser sends that (a form or a
  beacon always names its content type, and the browser adds Origin), but a script
  does — the original's `user-actions.py` likes, follows and blocks that way.

So a session's POST, PUT or DELETE that names a content type other than JSON (text/plain,
form-encoded, multipart) and comes without an Origin is refused (403) even when its body
is empty — the shape a cross-site form or beacon takes; without a session there is
nothing to forge, and a login-only route answers 401 as before. A non-JSON body is 415
for everyone.

A request with `Authorization: Bearer …` is a personal access token's (sns/auth/token.py)
and is judged by the token alone, whatever cookie it carries: it needs no cross-site
check, since a browser never adds the header by itself. A read token may only read.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication

from sns.auth.token import TOKEN_PREFIX, token_user

from .cors import origin_allowed

_SAFE = {"GET", "HEAD", "OPTIONS"}
NOT_JSON = "request refused: send Content-Type: application/json"


def refuse_cross_site(request, *, has_session: bool) -> None:
    if request.method in _SAFE:
        return
    origin = request.META.get("HTTP_ORIGIN")
    if not origin_allowed(origin) and _foreign(request, origin):
        raise exceptions.PermissionDenied("cross-site request refused")
    content_type = request.META.get("CONTENT_TYPE", "")
    if content_type.startswith("application/json"):
        return
    if int(request.META.get("CONTENT_LENGTH") or 0) > 0:
        raise exceptions.UnsupportedMediaType(content_type)
    # An Origin that got here is this site's or an allowed one; with neither an Origin
    # nor a content type the request cannot be a browser's (see above).
    if has_session and not origin and content_type:
        raise exceptions.PermissionDenied(NOT_JSON)


def _foreign(request, origin: str | None) -> bool:
    if request.META.get("HTTP_SEC_FETCH_SITE", "") == "cross-site" or origin == "null":
        return True
    return bool(origin) and urlsplit(origin).netloc.lower() != request.get_host().lower()


class TokenRefused(exceptions.AuthenticationFailed):
    """401 `invalid token`: unknown, revoked, or its user deleted."""

    default_detail = "invalid token"


def bearer_secret(request) -> str | None:
    """The secret of an `Authorization: Bearer stgy_pat_…` header, or None without one.
    Another bearer value is not a personal access token and is left to the route that
    knows it (the metrics scraper's STGY_METRICS_TOKEN, stgy/ops/access.py)."""
    scheme, _, secret = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    secret = secret.strip()
    return secret if scheme.lower() == "bearer" and secret.startswith(TOKEN_PREFIX) else None


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
        user = getattr(request._request, "user", None)
        has_session = user is not None and user.is_authenticated
        refuse_cross_site(request, has_session=has_session)
        return (user, None) if has_session else None

    def authenticate_header(self, request):
        return "Bearer" if bearer_secret(request) is not None else "Session"
