"""Cross-origin access to the API for an allow-list of frontend origins (off by default).

The original's web frontend may be served from another origin than its backend (a
development server on another port, say). Only the origins in STGY_CORS_ALLOWED_ORIGINS
are answered with CORS headers, preflights included, and only those are let past the
API's cross-site refusal (sns/api/authentication.py); every other origin is refused as
before.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse

API_PREFIXES = ("/api/", "/backend/")
ALLOWED_METHODS = "GET, POST, PUT, DELETE, HEAD, OPTIONS"
# Authorization: a frontend that signs in with a personal access token (sns/auth/token.py).
ALLOWED_HEADERS = "Content-Type, Authorization"
PREFLIGHT_MAX_AGE = "600"


def origin_allowed(origin: str | None) -> bool:
    return bool(origin) and origin in settings.STGY_CORS_ALLOWED_ORIGINS


def _allow_origin(response, origin: str) -> None:
    response["Access-Control-Allow-Origin"] = origin
    response["Access-Control-Allow-Credentials"] = "true"
    response["Vary"] = "Origin" if "Vary" not in response else response["Vary"] + ", Origin"


def add_cors_headers(request, response):
    """What this middleware adds to the answer of a request that is not a preflight
    (also sns/api/hot_reads.py)."""
    origin = request.META.get("HTTP_ORIGIN")
    if request.path.startswith(API_PREFIXES) and origin_allowed(origin):
        _allow_origin(response, origin)
    return response


class ApiCorsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        origin = request.META.get("HTTP_ORIGIN")
        if not request.path.startswith(API_PREFIXES) or not origin_allowed(origin):
            return self.get_response(request)
        preflight = request.method == "OPTIONS" and "HTTP_ACCESS_CONTROL_REQUEST_METHOD" in request.META
        response = HttpResponse(status=204) if preflight else self.get_response(request)
        _allow_origin(response, origin)
        if preflight:
            response["Access-Control-Allow-Methods"] = ALLOWED_METHODS
            response["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
            response["Access-Control-Max-Age"] = PREFLIGHT_MAX_AGE
        return response
