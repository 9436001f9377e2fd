"""A link preview never holds the request: the fetch runs as a task, the
request answers from the cache or `pending` within STGY_LINK_SNIPPET_WAIT_MS, and a
signed-out caller never makes the site fetch. Here tasks run on the process's
background threads, as in the embedded mode (agents/runner.py), not inline as elsewhere
in the tests; the remote site is a real server on loopback that dribbles its headers."""

from __future__ import annotations

import hashlib
import time

import pytest
from django.core.cache import cache

from tests.linksnippets.conftest import Handler, resolve
from tests.loopback_http import QuietHandler, serving

pytestmark = pytest.mark.django_db
URL = "/api/link-snippets/resolve"


class Dribbler(QuietHandler):
    """Sends its status line, then a header byte every 0.1 s for 4 s."""

    served = 0

    def do_GET(self):  # http.server's naming
        type(self).served += 1
        try:
            self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
            for _ in range(40):
                self.wfile.write(b"a")
                self.wfile.flush()
                time.sleep(0.1)
            self.wfile.write(b"\r\nContent-Type: text/html\r\n\r\n<title>Too late</title>")
        except OSError:
            pass


@pytest.fixture
def dribbler(settings):
    Dribbler.served = 0
    settings.STGY_LINK_SNIPPET_ALLOW_PRIVATE = True
    settings.STGY_LINK_SNIPPET_ALLOW_ANY_PORT = True
    with serving(Dribbler) as base_url:
        yield base_url


@pytest.fixture
def background_tasks(settings):
    settings.STGY_EAGER_TASKS_INLINE = False


def wait_for(predicate, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_a_dribbling_host_gets_a_pending_answer_and_its_fetch_ends_at_the_deadline(
        member, dribbler, settings, background_tasks):
    settings.STGY_LINK_SNIPPET_WAIT_MS = 200
    settings.STGY_LINK_SNIPPET_FETCH_TIMEOUT_MS = 1000
    card = resolve(member, dribbler + "/slow")
    assert card["status"] == "pending" and card["refreshing"] is True
    assert Dribbler.served == 1 or wait_for(lambda: Dribbler.served == 1)
    # Asked again while the task still reads: pending at once, no second fetch.
    assert resolve(member, dribbler + "/slow")["status"] == "pending"
    # The task gives up at its deadline, long before the headers would end, and the
    # failure is what the next request reads.
    failed = wait_for(lambda: (c := resolve(member, dribbler + "/slow"))["status"] != "pending" and c)
    assert failed["status"] == "fetch_failed"
    assert Dribbler.served == 1


def test_a_prompt_page_is_answered_within_the_wait(member, site, settings, background_tasks):
    settings.STGY_LINK_SNIPPET_WAIT_MS = 5000
    card = resolve(member, site + "/article")
    assert card["status"] == "ready" and card["title"] == "The & Open Graph title"
    assert Handler.counts["/article"] == 1


def test_a_signed_out_caller_gets_cached_cards_and_never_a_fetch(api, member, site):
    refused = api.post(URL, {"url": site + "/article"}, format="json")
    assert (refused.status_code, refused.json()) == (401, {"error": "login required to fetch a link preview"})
    assert Handler.counts["/article"] == 0
    assert resolve(member, site + "/article")["status"] == "ready"  # a member's view fetches it
    card = resolve(api, site + "/article")
    assert card["status"] == "ready" and card["title"] == "The & Open Graph title"
    assert Handler.counts["/article"] == 1
    # Links to this site need no fetch and stay open to everyone.
    assert resolve(api, "/pub/0000000000000001")["status"] == "unavailable"


def test_a_stale_card_is_not_refreshed_for_a_signed_out_caller(api, member, site):
    resolve(member, site + "/article")
    key = f"link-snippet:v1:{hashlib.sha256((site + '/article').encode()).hexdigest()}:value"
    cache.set(key, {**cache.get(key), "_expires": time.time() - 1})  # past its fresh life
    stale = resolve(api, site + "/article")
    assert stale["stale"] is True and stale["refreshing"] is False
    assert Handler.counts["/article"] == 1
