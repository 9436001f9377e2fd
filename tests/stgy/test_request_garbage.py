"""A request served by the handler gunicorn serves (stgy/lean_handler.py) leaves no
cycle behind: once the response is closed, neither the request (with what hangs off it:
the session, the user, the messages) nor the page's template context
(stgy/template_backend.py) is on a reference cycle, so reference counting frees them,
not the garbage collector."""

from __future__ import annotations

import gc

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.http import HttpRequest
from django.template.context import BaseContext

from stgy.lean_handler import LeanHandler
from tests.clients import APIClient
from tests.factories import make_post, make_user
from tests.sns.test_hot_reads import _Browser

pytestmark = pytest.mark.django_db


@pytest.fixture
def handler():
    # The connection kept across requests, as the test client keeps it (the test's
    # transaction holds it).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield LeanHandler()
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


def _cycles_through(browser: _Browser, path: str) -> list:
    """The requests and template contexts that lie on a reference cycle after one
    request for `path` (its status checked). One only reachable from someone else's
    cycle is not counted: on SQLite the header's ORM query catches an error of
    Django's (a JSON key look-up it retries as a transform), whose traceback's frames
    form a cycle holding everything down the stack."""
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
    return [o for o in garbage if isinstance(o, (HttpRequest, BaseContext)) and _on_a_cycle(o, garbage)]


def test_a_request_and_its_page_context_are_freed_without_the_collector(handler):
    reader, author = make_user(), make_user()
    post = make_post(author, content="hello")
    client = APIClient()
    client.force_login(reader)
    browser = _Browser(handler, {k: m.value for k, m in client.cookies.items()})
    visitor = _Browser(handler)
    paths = [(browser, "/"), (browser, f"/posts/{post.hex_id}"), (browser, f"/api/posts/{post.hex_id}"),
             (browser, "/api/posts?limit=3"), (visitor, "/login")]
    for who, path in paths:  # warm: first views load templates and modules
        who.request("GET", path)
    for who, path in paths:
        assert _cycles_through(who, path) == [], path
