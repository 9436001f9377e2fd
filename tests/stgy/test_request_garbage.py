"""A request served by the application gunicorn serves (stgy/wsgi.py, Django's handler)
leaves the garbage collector little to do: once the response is closed, the page's
template context (stgy/template_backend.py) is on no reference cycle, so the page's
posts and users are freed by reference counting, and a hot API read
(sns/api/hot_reads.py) leaves no cycle at all. What a page's request keeps on a cycle
(Django's messages storage and the lazy user point back at it) is left to the
collector's young passes (docs/architecture.md §9, "The lean path")."""

from __future__ import annotations

import gc

import pytest
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.http import HttpRequest
from django.template.context import BaseContext

from sns.models import Post, User
from tests.clients import APIClient
from tests.factories import make_post, make_user
from tests.sns.test_hot_reads_served import _Browser

pytestmark = pytest.mark.django_db


@pytest.fixture
def handler():
    # The connection kept across requests, as the test client keeps it (the test's
    # transaction holds it).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield get_wsgi_application()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _on_a_cycle(target, garbage: list) -> bool:
    """Whether `target` refers, through the objects of `garbage`, back to itself."""
    inside = {id(o) for o in garbage}
    seen, todo = set(), [r for r in gc.get_referents(target) if id(r) in inside]
    while todo:
        current = todo.pop()
        if current is target:
            return True
        if id(current) not in seen:
            seen.add(id(current))
            todo.extend(r for r in gc.get_referents(current) if id(r) in inside)
    return False


def _garbage_of(browser: _Browser, path: str) -> list:
    """What only the garbage collector would free after one request for `path` (its
    status checked)."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        status = browser.request("GET", path)[0]
        gc.collect()
        garbage = list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert status.startswith("200"), (path, status)
    return garbage


def _cycles(garbage: list, kinds: tuple) -> list:
    """The objects of `kinds` that lie on a reference cycle. One only reachable from
    someone else's cycle is not counted: on SQLite the header's ORM query catches an
    error of Django's (a JSON key look-up it retries as a transform), whose traceback's
    frames form a cycle holding everything down the stack."""
    return [o for o in garbage if isinstance(o, kinds) and _on_a_cycle(o, garbage)]


def test_a_page_context_and_a_hot_read_are_freed_without_the_collector(handler):
    reader, author = make_user(), make_user()
    post = make_post(author, content="hello")
    client = APIClient()
    client.force_login(reader)
    browser = _Browser(handler, {k: m.value for k, m in client.cookies.items()})
    visitor = _Browser(handler)
    pages = [(browser, "/"), (browser, f"/posts/{post.hex_id}"), (visitor, "/login")]
    hot_reads = [(browser, f"/api/posts/{post.hex_id}"), (browser, "/api/posts?limit=3")]
    for who, path in pages + hot_reads:  # warm: first views load templates and modules
        who.request("GET", path)
    for who, path in pages:
        garbage = _garbage_of(who, path)
        assert _cycles(garbage, (BaseContext, Post, User)) == [], path
    for who, path in hot_reads:
        assert _cycles(_garbage_of(who, path), (HttpRequest, BaseContext, Post, User)) == [], path
