"""A small web site on loopback that link previews fetch (allowed through
STGY_LINK_SNIPPET_ALLOW_PRIVATE and STGY_LINK_SNIPPET_ALLOW_ANY_PORT, which are off by
default); it counts the requests it serves."""

from __future__ import annotations

import time
from collections import Counter
from typing import ClassVar

import pytest

from tests.conftest import login_client
from tests.loopback_http import QuietHandler, serving

ARTICLE = (
    b"<!doctype html><html><head><meta charset='utf-8'>"
    b"<title>Plain title</title>"
    b"<meta property='og:title' content='  The &amp; Open\n Graph   title '>"
    b"<meta property='og:title' content='second og title, ignored'>"
    b"<meta name='description' content='Meta description'>"
    b"<meta property='og:description' content='OG description'>"
    b"<meta property='og:site_name' content='Example Site'>"
    b"<meta property='og:image' content='/img/card.png'>"
    b"<script>var s = \"<meta property='og:title' content='from a script'>\";</script>"
    b"</head><body><p>body</p></body></html>"
)
TWITTER = (
    b"<html><head><title>Fallback</title><meta name='twitter:title' content='Tweet title'>"
    b"<meta name='twitter:image' content='https://images.example.org/t.jpg#frag'>"
    b"</head></html>"
)
EVIL = (
    b"<html><head><meta property='og:title' content='&lt;img src=x onerror=alert(1)&gt;'>"
    b"<meta property='og:image' content='https://x.example/a.png\" onerror=\"alert(2)'>"
    b"<meta property='og:site_name' content='\"><script>alert(3)</script>'></head></html>"
)
TITLE_ONLY = "<html><head><title> Caf\xe9 &lt;menu&gt; </title></head></html>".encode("latin-1")


class Handler(QuietHandler):
    counts: ClassVar[Counter] = Counter()
    redirect_to = ""

    def do_GET(self):  # http.server's naming
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
        if path == "/late":  # a page that takes a second to answer, then answers well
            time.sleep(1.0)
            self.answer(200, {"Content-Type": "text/html"}, ARTICLE)
            return
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


@pytest.fixture
def member(human):
    """A signed-in API client: only a signed-in caller makes the site fetch a page."""
    return login_client(human)


def resolve(client, url) -> dict:
    """The card POST /link-snippets/resolve answers (which must be a 200)."""
    response = client.post("/api/link-snippets/resolve", {"url": url}, format="json")
    assert response.status_code == 200, response.content
    return response.json()
