"""Title, description, site name and image of an HTML page (docs/api.md, "Link
previews"), read with the standard library's HTML parser: Open Graph first, then
Twitter cards, then <title> and <meta name=description>. Only the <head> is needed; the
fetcher stops reading once it has passed."""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

_SPACES = re.compile(r"\s+")
_HEAD_END = re.compile(rb"</head\s*>", re.IGNORECASE)
_META_CHARSET = re.compile(rb"<meta\b[^>]*\bcharset\s*=\s*[\"']?([^\s\"'/>;]+)", re.IGNORECASE)
_HTML_START = (b"<!doctype html", b"<html", b"<head", b"<meta", b"<title")
HTML_TYPES = ("text/html", "application/xhtml+xml")


@dataclass(frozen=True)
class Metadata:
    title: str | None
    description: str | None
    site_name: str | None
    image_url: str | None


def head_complete(data: bytes) -> bool:
    return _HEAD_END.search(data) is not None


def looks_like_html(data: bytes) -> bool:
    return data[:1024].lstrip().lower().startswith(_HTML_START)


def fold(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def truncate(text: str, limit: int) -> str:
    """Whitespace folded, cut to `limit` characters with "…" as the last one."""
    text = fold(text)
    if limit <= 0 or not text:
        return ""
    if len(text) <= limit:
        return text
    return "…" if limit == 1 else text[: limit - 1] + "…"


def decode(data: bytes, content_type_header: str | None) -> str:
    """Bytes to text: a byte-order mark, else the header's charset, else a <meta> one
    in the first 8 KB, else UTF-8; unknown names fall back to UTF-8."""
    for bom, name in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                      (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            return data.decode(name, errors="replace")
    charset = None
    match = re.search(r"charset\s*=\s*[\"']?([^;\s\"']+)", content_type_header or "", re.IGNORECASE)
    if match:
        charset = match.group(1)
    elif found := _META_CHARSET.search(data[:8192]):
        charset = found.group(1).decode("ascii", "replace")
    try:
        codecs.lookup(charset or "utf-8")
    except LookupError:
        charset = "utf-8"
    return data.decode(charset or "utf-8", errors="replace")


class _HeadParser(HTMLParser):
    """The first value of each <meta property|name> and the first <title>'s text.
    Script and style contents are never read as tags (the parser treats them as raw text)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.meta: dict[str, str] = {}
        self.title: str | None = None
        self._title_parts: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "meta":
            values: dict[str, str] = {}
            for name, value in attrs:
                values.setdefault(name.lower(), value or "")
            key = (values.get("property") or values.get("name") or "").strip().lower()
            content = fold(values.get("content", ""))
            if key and content:
                self.meta.setdefault(key, content)
        elif tag == "title" and self.title is None and self._title_parts is None:
            self._title_parts = []

    def handle_endtag(self, tag):
        if tag == "title" and self._title_parts is not None:
            self.title = fold("".join(self._title_parts))
            self._title_parts = None

    def handle_data(self, data):
        if self._title_parts is not None:
            self._title_parts.append(data)


def image_url(value: str, page_url: str, own_hosts: frozenset) -> str | None:
    """An https image URL on the default port, resolved against the page, that does not
    point at this site (the reader's browser loads it; the server never does)."""
    try:
        parts = urlsplit(urljoin(page_url, value.strip()))
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").rstrip(".").lower()
    if parts.scheme.lower() != "https" or port not in (None, 443) or not host:
        return None
    if parts.username is not None or parts.password is not None:
        return None
    if any(host == h or host.endswith("." + h) for h in own_hosts):
        return None
    return parts._replace(fragment="").geturl()


def extract(html: str, page_url: str, limits: dict, own_hosts: frozenset) -> Metadata:
    parser = _HeadParser()
    parser.feed(html)
    parser.close()
    if parser._title_parts is not None:  # a <title> cut off by the byte cap
        parser.handle_endtag("title")
    meta = parser.meta

    def first(*keys: str) -> str:
        return next((meta[k] for k in keys if meta.get(k)), "")

    title = first("og:title", "twitter:title") or (parser.title or "")
    description = first("og:description", "twitter:description", "description")
    site_name = first("og:site_name", "application-name") or urlsplit(page_url).hostname or ""
    image = first("og:image:secure_url", "og:image", "og:image:url", "twitter:image",
                  "twitter:image:src")
    return Metadata(
        title=truncate(title, limits["title"]) or None,
        description=truncate(description, limits["description"]) or None,
        site_name=truncate(site_name, limits["site_name"]) or None,
        image_url=image_url(image, page_url, own_hosts) if image else None,
    )
