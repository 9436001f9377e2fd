"""Which URLs a link preview may be asked for, in the original's words (docs/api.md,
"Link previews"): http(s) only, no credentials, only the default port (unless
STGY_LINK_SNIPPET_ALLOW_ANY_PORT), no fragment; a path of this site or a URL of one of
its own origins names a user, a post or a public post, which are read from the database
instead of being fetched."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from django.conf import settings

from sns.core.errors import InvalidInput

_INTERNAL_PATH = re.compile(r"/(users|posts|pub)/([0-9a-fA-F]{16})/?")
# What a URL may keep unescaped in its path and query (the rest is percent-encoded).
_URL_SAFE = "/%:@!$&'()*+,;=-._~?"


@dataclass(frozen=True)
class Internal:
    kind: str  # "user", "post" or "pub"
    hex_id: str
    url: str  # as the answer names it


def _host(parts) -> str:
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        raise InvalidInput("invalid url")
    if ":" in host:
        return f"[{host}]"
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        raise InvalidInput("invalid url") from None


def normalize(text: str) -> str:
    """The URL as fetched and cached: scheme and host lower-cased, default port and
    fragment dropped, unsafe characters percent-encoded; InvalidInput with the reason."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        raise InvalidInput("invalid url") from None
    scheme = parts.scheme.lower()
    if not scheme or not parts.netloc:
        raise InvalidInput("invalid url")
    if scheme not in ("http", "https"):
        raise InvalidInput("only http and https urls are allowed")
    if parts.username is not None or parts.password is not None:
        raise InvalidInput("url credentials are not allowed")
    default = 443 if scheme == "https" else 80
    if port not in (None, default) and not settings.STGY_LINK_SNIPPET_ALLOW_ANY_PORT:
        raise InvalidInput("url port is not allowed")
    netloc = _host(parts) + (f":{port}" if port not in (None, default) else "")
    path = quote(parts.path or "/", safe=_URL_SAFE)
    query = f"?{quote(parts.query, safe=_URL_SAFE)}" if parts.query else ""
    return f"{scheme}://{netloc}{path}{query}"


def _internal(path: str, url: str) -> Internal:
    match = _INTERNAL_PATH.fullmatch(path)
    if match is None:
        raise InvalidInput("self url path is not supported")
    kind = {"users": "user", "posts": "post", "pub": "pub"}[match.group(1)]
    return Internal(kind, match.group(2).upper(), url)


def classify(text: str, own_origins: list[str]) -> Internal | str:
    """An Internal target, or the normalised external URL to fetch."""
    text = text.strip()
    if text.startswith("/") and not text.startswith("//"):
        parts = urlsplit(text.split("#", 1)[0])
        return _internal(parts.path, parts.path + (f"?{parts.query}" if parts.query else ""))
    url = normalize(text)
    parts = urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}"
    if origin in {o.rstrip("/").lower() for o in own_origins}:
        return _internal(parts.path, url)
    return url
