"""The security headers of every response the site sends: pages, the JSON API, Django
admin, the Agent activity pages, static files and error pages alike.

The policy forbids inline script and event handlers everywhere and loads nothing from
elsewhere except https images in posts (and map tiles from STGY_MAP_TILE_URL's host), so even a sanitiser bug could not run an
injected handler. A view that needs another policy (the API reference, whose renderer
injects styles and runs a search worker) sets its own header, which is kept.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings


def _storage_origin() -> str:
    """The image store's origin when it is not this site (S3/MinIO, docs/media.md): pages
    show images from it and the upload script posts files to it."""
    parts = urlsplit(settings.STGY_STORAGE_PUBLIC_URL_PREFIX.replace("{bucket}", "b"))
    return f" {parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def _tile_origin() -> str:
    """The map tiles' origin, only when STGY_MAP_TILE_URL is set (docs/media.md §10)."""
    parts = urlsplit(settings.STGY_MAP_TILE_URL.replace("{s}", "a"))
    return f" {parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else ""


CONTENT_SECURITY_POLICY = (
    f"default-src 'self'; img-src 'self' https: data:{_storage_origin()}{_tile_origin()}; "
    f"connect-src 'self'{_storage_origin()}; script-src 'self'; style-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
# Redoc, served from our own static files: styles it injects and its search worker.
API_DOCS_CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; font-src 'self' data:; script-src 'self'; "
    "style-src 'self' 'unsafe-inline'; worker-src 'self' blob:; object-src 'none'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def add_security_headers(response):
    """The headers above, where the view has not set its own (also sns/api/hot_reads.py)."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


class SecurityHeadersMiddleware:
    """Listed first, so it also sees the responses other middlewares answer with."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return add_security_headers(self.get_response(request))
