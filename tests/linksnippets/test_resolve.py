"""POST /link-snippets/resolve against a real HTTP server on loopback: what is read from
a page, the limits of the fetch, the SSRF guards, the cache and the route's 4xx."""

from __future__ import annotations

import time

import pytest

from tests.linksnippets.conftest import Handler, resolve

pytestmark = pytest.mark.django_db
URL = "/api/link-snippets/resolve"


def test_open_graph_fields_are_read_and_cleaned(member, site):
    card = resolve(member, site + "/article#section")
    assert card["url"] == site + "/article"  # the fragment is not part of the URL
    assert card["status"] == "ready" and card["stale"] is False and card["refreshing"] is False
    assert card["title"] == "The & Open Graph title"  # entities decoded, spaces folded, first wins
    assert card["description"] == "OG description"
    assert card["siteName"] == "Example Site"
    # Relative images resolve against the page, but only https images are offered.
    assert card["imageUrl"] is None
    assert card["fetchedAt"].endswith("Z") and card["expiresAt"] > card["fetchedAt"]
    assert set(card) == {"url", "status", "title", "description", "siteName", "imageUrl",
                         "fetchedAt", "expiresAt", "stale", "refreshing"}


def test_twitter_cards_titles_and_charsets(member, site):
    card = resolve(member, site + "/twitter")
    assert card["title"] == "Tweet title"
    assert card["imageUrl"] == "https://images.example.org/t.jpg"
    assert card["siteName"] == "127.0.0.1"  # no og:site_name: the host
    assert resolve(member, site + "/latin")["title"] == "Café <menu>"
    assert resolve(member, site + "/no-type")["title"] == "Sniffed"


def test_texts_are_cut_to_their_limits(member, site, settings):
    settings.STGY_LINK_SNIPPET_TITLE_LENGTH_LIMIT = 8
    settings.STGY_LINK_SNIPPET_DESCRIPTION_LENGTH_LIMIT = 4
    card = resolve(member, site + "/article")
    assert card["title"] == "The & O…" and card["description"] == "OG …"


def test_non_html_is_not_read(member, site):
    for path in ("/json", "/png"):
        card = resolve(member, site + path)
        assert card["status"] == "unavailable" and card["title"] is None, path
        assert card["siteName"] == "127.0.0.1"


def test_redirects_are_followed_within_the_limit(member, site, settings):
    assert resolve(member, site + "/moved")["title"] == "The & Open Graph title"
    assert resolve(member, site + "/loop")["status"] == "fetch_failed"
    settings.STGY_LINK_SNIPPET_MAX_REDIRECTS = 0
    assert resolve(member, site + "/moved?again")["status"] == "fetch_failed"


def test_http_errors_fail(member, site):
    card = resolve(member, site + "/gone")
    assert card["status"] == "fetch_failed" and card["title"] is None
    assert card["siteName"] == "127.0.0.1"


def test_a_slow_page_times_out_as_a_whole(member, site, settings):
    settings.STGY_LINK_SNIPPET_FETCH_TIMEOUT_MS = 800
    started = time.monotonic()
    card = resolve(member, site + "/slow")
    assert card["status"] == "fetch_failed"
    assert time.monotonic() - started < 3  # the page would take 4 s


def test_only_the_first_bytes_are_read(member, site, settings):
    settings.STGY_LINK_SNIPPET_MAX_HTML_BYTES = 4096
    card = resolve(member, site + "/huge")
    assert card["status"] == "ready" and card["title"] == "Huge"  # the late og:title unread


def test_a_second_request_is_served_from_the_cache(member, site):
    first = resolve(member, site + "/article")
    second = resolve(member, site + "/article")
    assert second == first and Handler.counts["/article"] == 1


def test_a_stale_card_is_served_while_it_is_refreshed(member, site, settings):
    settings.STGY_LINK_SNIPPET_TTL_SEC = 1
    resolve(member, site + "/article")
    time.sleep(1.1)
    stale = resolve(member, site + "/article")
    assert stale["status"] == "ready" and stale["stale"] is True and stale["refreshing"] is True
    for _ in range(50):
        if Handler.counts["/article"] == 2:
            break
        time.sleep(0.05)
    assert Handler.counts["/article"] == 2


def test_private_and_loopback_addresses_are_refused_by_default(member, site, settings):
    settings.STGY_LINK_SNIPPET_ALLOW_PRIVATE = False
    for url in (site + "/article", "http://localhost/", "http://[::1]/", "http://10.1.2.3/",
                "http://169.254.169.254/latest/meta-data", "http://[::ffff:127.0.0.1]/",
                "http://[2002:7f00:1::]/", "http://224.0.0.1/", "http://0.0.0.0/"):
        card = resolve(member, url)
        assert card["status"] == "fetch_failed", url
    assert Handler.counts["/article"] == 0


def test_a_redirect_to_a_private_address_is_refused(member, site, settings):
    """The operator allows the loopback network only (the test's server); a redirect
    from there to another private address is checked again and refused."""
    settings.STGY_LINK_SNIPPET_ALLOW_PRIVATE = False
    settings.STGY_LINK_SNIPPET_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    assert resolve(member, site + "/moved")["status"] == "ready"
    for target in ("http://10.0.0.1/admin", "http://[::1]/", "http://169.254.169.254/"):
        Handler.redirect_to = target
        assert resolve(member, site + f"/away?{target}")["status"] == "fetch_failed", target
    assert Handler.counts["/away"] == 3


def test_default_ports_only_by_default(api, site, settings):
    settings.STGY_LINK_SNIPPET_ALLOW_ANY_PORT = False
    response = api.post(URL, {"url": site + "/article"}, format="json")
    assert response.status_code == 400 and response.json() == {"error": "url port is not allowed"}


@pytest.mark.parametrize("body, error", [
    ({}, "url is required"),
    ({"url": "   "}, "url is required"),
    ({"url": 42}, "url is required"),
    ({"url": "ftp://example.com/"}, "only http and https urls are allowed"),
    ({"url": "javascript:alert(1)"}, "invalid url"),
    ({"url": "not a url"}, "invalid url"),
    ({"url": "http://user:pw@example.com/"}, "url credentials are not allowed"),
    ({"url": "http://example.com:8080/"}, "url port is not allowed"),
    ({"url": "http://example.com:99999/"}, "invalid url"),
    ({"url": "/settings"}, "self url path is not supported"),
    ({"url": "http://example.com/\x00"}, "url contains invalid characters"),
    ({"url": "http://testserver/settings"}, "self url path is not supported"),
])
def test_bad_input_is_400(api, body, error):
    response = api.post(URL, body, format="json")
    assert response.status_code == 400 and response.json() == {"error": error}
    non_object = api.post(URL, ["x"], format="json")
    assert non_object.status_code == 400 and non_object.json() == {"error": "url is required"}


def test_fetches_per_client_are_limited(member, site, settings):
    settings.STGY_LINK_SNIPPET_CLIENT_FETCH_LIMIT_PER_HOUR = 2
    resolve(member, site + "/article")
    resolve(member, site + "/twitter")
    resolve(member, site + "/article")  # cached: no fetch, not counted
    response = member.post(URL, {"url": site + "/latin"}, format="json")
    assert response.status_code == 429
    assert response.json() == {"error": "too many link snippet requests"}


def test_fetches_per_host_are_limited(member, site, settings):
    settings.STGY_LINK_SNIPPET_HOST_FETCH_LIMIT_PER_MIN = 1
    resolve(member, site + "/article")
    response = member.post(URL, {"url": site + "/twitter"}, format="json")
    assert response.status_code == 429
    assert response.json() == {"error": "link snippet fetch rate limit exceeded"}


def test_without_redis_a_card_is_pending_and_nothing_waits(member, site, settings):
    """Fail-soft (docs/operations.md): without a cache there is no lock, no limit and no
    way for a fetch to hand its card back, so nothing is fetched and nothing waits."""
    from tests.stgy.test_fail_soft_cache import dead_cache_settings

    dead_cache_settings(settings)
    settings.STGY_CACHE_RETRY_SECONDS = 30
    settings.STGY_LINK_SNIPPET_WAIT_MS = 30_000
    for _ in range(2):
        card = resolve(member, site + "/article")
        assert card["status"] == "pending" and card["refreshing"] is True
    assert Handler.counts["/article"] == 0
