"""A small web site on loopback that link previews fetch (allowed through
STGY_LINK_SNIPPET_ALLOW_PRIVATE and STGY_LINK_SNIPPET_ALLOW_ANY_PORT, which are off by
default); it counts the requests it serves."""

from __future__ import annotations

import time
from collections import Counter

import pytest

from tests.loopback_http import QuietHandler, serving

ARTICLE = (
    "<!doctype html><html><head><meta charset='utf-8'>"
    "<title>Plain title</title>"
    "<meta property='og:title' content='  The &amp; Open\n Graph   title '>"
    "<meta property='og:title' content='second og title, ignored'>"
    "<meta name='description' content='Meta description'>"
    "<meta property='og:description' content='OG description'>"
    "<meta property='og:site_name' content='Example Site'>"
    "<meta property='og:image' content='/img/card.png'>"
    "<script>var s = \"<meta property='og:title' content='from a script'>\";</script>"
    "</head><body><p>body</p></body></html>"
).encode()
TWITTER = (
    "<html><head><title>Fallback</title><meta name='twitter:title' content='Tweet title'>"
    "<meta name='twitter:image' content='https://images.example.org/t.jpg#frag'>"
    "</head></html>"
).encode()
EVIL = (
    b"<html><head><meta property='og:title' content='&lt;img src=x onerror=alert(1)&gt;'>"
    b"<meta property='og:image' content='https://x.example/a.png\" onerror=\"alert(2)'>"
    b"<meta property='og:site_name' content='\"><script>alert(3)</script>'></head></html>"
)
TITLE_ONLY = "<html><head><title> Caf\xe9 &lt;menu&gt; </title></head></html>".encode("latin-1")


class Handler(QuietHandler):
    counts: Counter = Counter()
    redirect_to = ""

    def do_GET(self):  # noqa: N802 - http.server's naming
        path = self.path.split("?", 1)[0]
        self.counts[path] += 1
        routes = {
            "/article": (200, {"Content-Type": "text/html; charset=utf-8"}, ARTICLE),
            "/twitter": (200, {"Content-Type": "text/html"}, TWITTER),
            "/latin": (200, {"Content-Type": "text/html; charset=iso-8859-1"}, TITLE_ONLY),
            "/no-type": (200, {}, b"<!DOCTYPE html><title>Sniffed</title>"),
            "/json": (200, {"Content-Type": "application/json"}, b'{"title": "not html"}'),
            "/png": (200, {"Content-Type": "image/png"}, b"\x89PNG\r\n\x1a\n" + b"\0" * 64),
            "/moved": (302, {"Location": "/article"}, b""),
            "/loop": (302, {"Location": "/loop"}, b""),
            "/away": (302, {"Location": self.redirect_to}, b""),
            "/evil": (200, {"Content-Type": "text/html"}, EVIL),
            "/gone": (404, {"Content-Type": "text/html"}, b"<title>Not found</title>"),
        }
        if path == "/slow":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            for _ in range(40):  # a byte every 0.1 s: each read is quick, the whole is not
                try:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.1)
            return
        if path == "/huge":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            body = b"<html><head><title>Huge</title>" + b"<!-- padding -->" * 20000
            try:
                self.wfile.write(body + b"<meta property='og:title' content='Too late'></head>")
            except OSError:
                pass
            return
        self.answer(*routes.get(path, (404, {}, b"no")))


@pytest.fixture
def site(settings):
    """The base URL of the loopback site, with private addresses and any port allowed."""
    Handler.counts = Counter()
    settings.STGY_LINK_SNIPPET_ALLOW_PRIVATE = True
    settings.STGY_LINK_SNIPPET_ALLOW_ANY_PORT = True
    with serving(Handler) as base_url:
        yield base_url


def resolve(client, url) -> dict:
    """The card POST /link-snippets/resolve answers (which must be a 200)."""
    response = client.post("/api/link-snippets/resolve", {"url": url}, format="json")
    assert response.status_code == 200, response.content
    return response.json()
