"""The application gunicorn serves (stgy/wsgi.py): Django's own handler, with the API's
hot reads answered by HotReadsMiddleware inside its chain (sns/api/hot_reads.py), driven
through WSGI and compared byte for byte with Django's handler on the full path (the same
middleware list without HotReadsMiddleware); and the place of HotReadsMiddleware in the
list, checked (docs/architecture.md §9, "The lean path")."""

from __future__ import annotations

import io
from datetime import timedelta
from http.cookies import SimpleCookie

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import OperationalError, close_old_connections, connection
from django.test import override_settings
from django.utils import timezone
from prometheus_client import REGISTRY

from sns.api.hot_reads import HotReadsMiddleware
from sns.auth.session import auth_record_forget
from sns.models import Post
from tests.clients import APIClient
from tests.sns import test_hot_reads
from tests.sns.test_hot_reads import LEAN, _full_middleware, _reads

pytestmark = pytest.mark.django_db

cast = test_hot_reads.cast  # the same cast of users and posts, a fixture

# The middlewares before HotReadsMiddleware: each leaves its mark on a hot read's answer
# (a header, a cookie, a refusal, the metrics), so the hot reads answer after all of them
# and before every other one. docs/architecture.md §9, "The lean path".
BEFORE_HOT_READS = [
    "stgy.security_headers.SecurityHeadersMiddleware",  # CSP and the rest, last on the way out
    "django.middleware.security.SecurityMiddleware",  # HTTPS redirect, HSTS, nosniff, referrer, COOP
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files, under the security headers
    "stgy.ops.middleware.RequestMetricsMiddleware",  # times the hot reads too
    "sns.api.cors.ApiCorsMiddleware",  # their CORS headers, preflights
    "django.contrib.sessions.middleware.SessionMiddleware",  # the session they read; Vary: Cookie
    "sns.auth.sliding.SlidingSessionMiddleware",  # the sliding refresh of that session
    "django.middleware.common.CommonMiddleware",  # hosts and user agents refused; Content-Length
    "django.middleware.csrf.CsrfViewMiddleware",  # a malformed CSRF cookie replaced
    "django.middleware.clickjacking.XFrameOptionsMiddleware",  # X-Frame-Options, where pages have it
]


def test_the_hot_reads_answer_right_after_the_middlewares_they_need(settings):
    """Fails when an edit to MIDDLEWARE would put work in front of the hot reads (a new
    middleware before them, theirs moved down): decide whether a hot read needs it and,
    if so, list it here, where the comparisons below then cover it."""
    at = settings.MIDDLEWARE.index(LEAN)
    assert settings.MIDDLEWARE[:at] == BEFORE_HOT_READS
    assert not settings.STATIC_URL.startswith(("/api", "/backend", "api", "backend"))  # WhiteNoise passes them on


def test_gunicorn_serves_djangos_own_handler():
    from stgy import wsgi

    assert type(wsgi.application) is WSGIHandler


class _Browser:
    """A WSGI client with a cookie jar, driving a handler as gunicorn does."""

    def __init__(self, handler, cookies=None):
        self.handler = handler
        self.cookies = dict(cookies or {})

    def request(self, method: str, path: str, headers: dict | None = None, host: str = "testserver"):
        target, _, query = path.partition("?")
        environ = {
            "REQUEST_METHOD": method, "PATH_INFO": target, "QUERY_STRING": query, "SCRIPT_NAME": "",
            "SERVER_NAME": "testserver", "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": host, "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(b""), "wsgi.errors": io.StringIO(), "wsgi.multithread": False,
            "wsgi.multiprocess": True, "wsgi.run_once": False, "wsgi.version": (1, 0),
        }
        for name, value in (headers or {}).items():
            environ["HTTP_" + name.upper().replace("-", "_")] = value
        if self.cookies:
            environ["HTTP_COOKIE"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        started = []
        chunks = self.handler(environ, lambda status, headers, exc_info=None: started.extend([status, headers]))
        try:
            body = b"".join(chunks)
        finally:
            chunks.close()
        status, headers = started
        for name, value in headers:
            if name == "Set-Cookie":
                morsel = SimpleCookie(value)
                for key, item in morsel.items():
                    self.cookies[key] = item.value
        return status, headers, body


def _comparable(headers: list, masked: tuple[str, ...]) -> list:
    """The headers, with a cookie's expiry date left out (the clock's, to the second; its
    max-age says the same exactly) and the values of the cookies named in `masked`
    (fresh random tokens, different on each path by design)."""
    comparable = []
    for name, value in headers:
        if name == "Set-Cookie":
            parts = [p for p in value.split(";") if not p.strip().lower().startswith("expires")]
            cookie, _, _ = parts[0].partition("=")
            if cookie.strip() in masked:
                parts[0] = cookie + "=…"
            value = ";".join(parts)
        comparable.append((name, value))
    return comparable


def _durations() -> dict:
    """The request metrics' count per label set (stgy/ops/middleware.py)."""
    return {
        tuple(sorted(sample.labels.items())): sample.value
        for metric in REGISTRY.collect() if metric.name == "http_request_duration_seconds"
        for sample in metric.samples if sample.name.endswith("_count")
    }


def _counted(before: dict) -> dict:
    return {k: v - before.get(k, 0) for k, v in _durations().items() if v != before.get(k, 0)}


@pytest.fixture
def handlers(settings, monkeypatch):
    """(served, full): Django's handler on the settings' middleware list, as gunicorn
    serves it, and Django's on the same list without HotReadsMiddleware; with the
    connection kept across requests, as the test client keeps it (the test's transaction
    holds it). `served.answered` records, per request that reached HotReadsMiddleware,
    whether it answered."""
    answered: list[bool] = []
    answer = HotReadsMiddleware.answer

    def spy(self, request):
        response = answer(self, request)
        answered.append(response is not None)
        return response

    monkeypatch.setattr(HotReadsMiddleware, "answer", spy)
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        served = get_wsgi_application()
        served.answered = answered
        with override_settings(MIDDLEWARE=_full_middleware(settings)):
            full = WSGIHandler()
        yield served, full
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _browsers(handlers, user=None):
    lean, full = handlers
    cookies = {}
    if user is not None:
        client = APIClient()
        client.force_login(user)
        cookies = {k: m.value for k, m in client.cookies.items()}
        # Stamps the fresh session's sliding refresh (sns/auth/sliding.py) so neither
        # handler below is the one that happens to write it.
        assert _Browser(full, cookies).request("GET", "/api/auth")[0].startswith("200")
    return _Browser(lean, cookies), _Browser(full, cookies)


def _same(handlers, browsers, method, path, headers=None, *, lean_answers: bool, host="testserver", masked=("csrftoken",)):
    lean_browser, full_browser = browsers
    before = _durations()
    expected = full_browser.request(method, path, headers, host)
    counted = _counted(before)
    handlers[0].answered.clear()
    before = _durations()
    got = lean_browser.request(method, path, headers, host)
    assert _counted(before) == counted, path  # the same label, counted once
    assert got[0] == expected[0], (path, got[2])
    assert got[2] == expected[2], path
    assert _comparable(got[1], masked) == _comparable(expected[1], masked), path
    assert (handlers[0].answered == [True]) == lean_answers, path
    return got


def test_the_handler_answers_the_hot_reads_as_djangos_does(handlers, cast):
    reader, friend, posts, _ = cast
    browsers = _browsers(handlers, reader)
    for path in _reads(reader, friend, posts):
        assert _same(handlers, browsers, "GET", path, lean_answers=True)[0] == "200 OK"
    for accept in ("*/*", "application/json", "text/html, application/json", "application/*"):
        _same(handlers, browsers, "GET", "/api/posts?limit=3", {"Accept": accept}, lean_answers=True)
    # Every middleware before the hot reads has left its mark, in the chain's order.
    names = [name for name, _ in _same(handlers, browsers, "GET", "/api/posts", lean_answers=True)[1]]
    assert names == [
        "Content-Type", "Allow",  # HotReadsMiddleware
        "X-Frame-Options",  # XFrameOptionsMiddleware
        "Content-Length",  # CommonMiddleware
        "Vary",  # SessionMiddleware
        "X-Content-Type-Options", "Referrer-Policy", "Cross-Origin-Opener-Policy",  # SecurityMiddleware
        "Content-Security-Policy",  # SecurityHeadersMiddleware
    ]


def test_the_handler_leaves_failures_and_the_rest_to_djangos_chain(handlers, cast):
    reader, friend, posts, hidden = cast
    browsers = _browsers(handlers, reader)
    failing = ["/api/posts?limit=abc", "/api/posts?format=xml", "/api/posts/by-followees",
               "/api/posts/00000000000000FF", f"/api/posts/{hidden.hex_id}", "/api/posts?limit=1%00",
               "/api/posts/"]
    for path in failing:
        assert _same(handlers, browsers, "GET", path, lean_answers=False)[0][:1] == "4"
    _same(handlers, browsers, "GET", "/api/posts/search?query=x", lean_answers=False)
    for method in ("HEAD", "OPTIONS"):
        _same(handlers, browsers, method, f"/api/posts/{posts[1].hex_id}", lean_answers=False)
    _same(handlers, browsers, "GET", "/api/posts?limit=3", {"Accept": "application/json; indent=4"}, lean_answers=False)
    anonymous = _browsers(handlers)
    for path in _reads(reader, friend, posts)[:2]:
        assert _same(handlers, anonymous, "GET", path, lean_answers=False)[0].startswith("401")
    # A host the site does not serve is refused (400) by the chain, as before.
    assert _same(handlers, browsers, "GET", "/api/posts", host="evil.example", lean_answers=False)[0][:3] == "400"


def test_the_handler_keeps_cors_and_the_csrf_cookie_rule(settings, handlers, cast):
    settings.STGY_CORS_ALLOWED_ORIGINS = ["http://localhost:3000"]
    reader, _, posts, _ = cast
    browsers = _browsers(handlers, reader)
    origin = {"Origin": "http://localhost:3000"}
    got = _same(handlers, browsers, "GET", f"/api/posts/{posts[2].hex_id}", origin, lean_answers=True)
    assert ("Access-Control-Allow-Origin", "http://localhost:3000") in got[1]
    assert ("Vary", "Cookie, Origin") in got[1]
    _same(handlers, browsers, "GET", "/api/posts", {"Origin": "https://elsewhere.example"}, lean_answers=True)
    preflight = {**origin, "Access-Control-Request-Method": "GET"}
    _same(handlers, browsers, "OPTIONS", "/api/posts", preflight, lean_answers=False)
    # A malformed CSRF cookie is replaced by CSRF's middleware on either path.
    for browser in browsers:
        browser.cookies[settings.CSRF_COOKIE_NAME] = "short"
    got = _same(handlers, browsers, "GET", "/api/posts?limit=2", lean_answers=True)
    assert any(name == "Set-Cookie" and value.startswith(" csrftoken=") for name, value in got[1])


def test_the_handler_ends_a_stale_session_as_djangos_does(handlers, cast):
    reader, _, _, _ = cast
    sessions = []
    for _ in range(2):  # one session for each handler, both made stale by a password change
        client = APIClient()
        client.force_login(reader)
        sessions.append({k: m.value for k, m in client.cookies.items()})
    reader.set_password("another password")
    reader.save()
    auth_record_forget(reader.id)
    lean, full = handlers
    expected = _Browser(full, sessions[0]).request("GET", "/api/posts?limit=3")
    lean.answered.clear()
    got = _Browser(lean, sessions[1]).request("GET", "/api/posts?limit=3")
    assert got[0] == expected[0] and got[0].startswith("401") and lean.answered == [False]
    assert (got[2], _comparable(got[1], ())) == (expected[2], _comparable(expected[1], ()))
    assert any(name == "Set-Cookie" and 'session_id="";' in value for name, value in got[1])


def test_the_handler_refreshes_the_sliding_session_as_djangos_does(settings, handlers, cast):
    reader, _, _, _ = cast
    browsers = []
    for handler in handlers:
        client = APIClient()
        client.force_login(reader)
        key = client.cookies[settings.SESSION_COOKIE_NAME].value
        Session.objects.filter(session_key=key).update(expire_date=timezone.now() + timedelta(days=4))
        cache.clear()  # the cached copy holds the refresh stamp: age it in the database only
        session = client.session
        session["_stgy_refreshed_at"] = 0
        session.save()
        browsers.append(_Browser(handler, {settings.SESSION_COOKIE_NAME: key}))
    # Each handler refreshes its own session: the cookies differ in their keys alone.
    got = _same(handlers, browsers, "GET", "/api/posts?limit=3", lean_answers=True,
                masked=(settings.SESSION_COOKIE_NAME,))
    assert any(name == "Set-Cookie" and value.startswith(f" {settings.SESSION_COOKIE_NAME}=") for name, value in got[1])
    key = browsers[0].cookies[settings.SESSION_COOKIE_NAME]
    assert Session.objects.get(session_key=key).expire_date > timezone.now() + timedelta(days=6)


def test_a_failing_read_is_answered_once_as_djangos_chain_answers_it(handlers, cast, caplog):
    """A database failure in a hot read: the same 503 and JSON as the full path (a lost
    connection, tests/stgy/test_database_lost.py), the error logged, and the read tried
    once — not again further down the chain."""
    reader, _, posts, _ = cast
    browsers = _browsers(handlers, reader)
    post_table = connection.ops.quote_name(Post._meta.db_table)
    tried = []

    def database_gone(execute, sql, params, many, context):
        if post_table in sql:
            tried.append(sql)
            raise OperationalError("the database is gone")
        return execute(sql, params, many, context)

    for path in ("/api/posts?limit=3", f"/api/posts/by-followees?userId={reader.hex_id}", f"/api/posts/{posts[1].hex_id}"):
        counts = []
        with connection.execute_wrapper(database_gone):
            for handler_browser in (browsers[1], browsers[0]):
                tried.clear()
                caplog.clear()
                status, _, body = handler_browser.request("GET", path)
                assert (status, body) == ("503 Service Unavailable", b'{"error":"database is unavailable"}'), path
                counts.append((len(tried), [r.getMessage() for r in caplog.records if r.name in ("sns.api.errors", "django.request")]))
        logged = [
            "API request failed, the database is unavailable: the database is gone",
            f"Service Unavailable: {path.partition('?')[0]}",
        ]
        assert counts[0] == counts[1] == (1, logged), (path, counts)
        with connection.execute_wrapper(database_gone):
            got = _same(handlers, browsers, "GET", path, lean_answers=True)
        assert got[0].startswith("503"), path
