"""The API's lean path (sns/api/hot_reads.py) answers byte for byte what the full path
answers — status, body, every header in order, cookies — and leaves everything it does
not answer (errors, anonymous callers, HEAD, OPTIONS, CORS preflights, odd Accept
headers) to the full path, which answers it as before."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.http import HttpResponse, JsonResponse
from django.test import override_settings
from django.urls import resolve
from django.utils import timezone
from rest_framework.response import Response as DrfResponse

from sns import services
from sns.api import posts_views
from sns.api.hot_reads import HOT_PATH, HotReadsMiddleware, plain_accept
from sns.auth.session import auth_record_forget
from sns.models import User
from stgy.ops.middleware import route_label
from tests.clients import APIClient
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db

LEAN = "sns.api.hot_reads.HotReadsMiddleware"


@pytest.fixture
def cast(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        reader, friend, other, frozen = (make_user(n) for n in ("Reader", "Friend", "Other", "Frozen"))
        services.follow_add(reader, friend.id)
        services.follow_add(friend, other.id)
        posts = [make_post(friend, f"post {i} by friend", tags=["tea"]) for i in range(4)]
        posts += [make_post(other, "a reply", reply_to=posts[0].id)]
        services.like_add(other, posts[1].id)
        hidden = make_post(frozen, "hidden once its owner is frozen")
        User.objects.filter(pk=frozen.id).update(is_frozen=True)
    return reader, friend, posts, hidden


def _full_middleware(settings) -> list[str]:
    assert LEAN in settings.MIDDLEWARE
    return [name for name in settings.MIDDLEWARE if name != LEAN]


def _pair(settings, user=None):
    """Two clients on one session: one through the lean path, one through the full path."""
    lean, full = APIClient(), APIClient()
    if user is not None:
        lean.force_login(user)
        full.cookies = lean.cookies
        # A first request stamps the fresh session's sliding refresh (sns/auth/sliding.py),
        # so neither path below is the one that happens to write it.
        assert _ask(settings, full, True, "GET", "/api/auth", {}).status_code == 200
    return lean, full


def _cookies(response) -> list[str]:
    # The expiry date is the clock's, to the second; max-age says the same thing exactly.
    return sorted(
        ";".join(part for part in morsel.OutputString().split(";") if not part.strip().startswith("expires"))
        for morsel in response.cookies.values()
    )


def _ask(settings, client, full: bool, method: str, path: str, headers: dict):
    call = getattr(client, method.lower())
    if not full:
        return call(path, headers=headers)
    with override_settings(MIDDLEWARE=_full_middleware(settings)):
        return call(path, headers=headers)


def _assert_same(settings, lean, full, method, path, headers=None, *, lean_answers: bool):
    headers = headers or {}
    expected = _ask(settings, full, True, method, path, headers)
    got = _ask(settings, lean, False, method, path, headers)
    assert got.status_code == expected.status_code, (path, got.content)
    assert got.content == expected.content, path
    assert list(got.items()) == list(expected.items()), path
    assert _cookies(got) == _cookies(expected), path
    assert route_label(got.wsgi_request) == route_label(expected.wsgi_request)
    # Which path answered: the full path's JSON answers are DRF's Response or a
    # JsonResponse (the not-found route, the input limits), never a plain HttpResponse.
    assert isinstance(expected, (DrfResponse, JsonResponse)) or expected.status_code == 204
    assert (type(got) is HttpResponse and got["Content-Type"] == "application/json") == lean_answers, path
    return got


def _reads(reader, friend, posts):
    return [
        "/api/posts?limit=20",
        "/api/posts",
        f"/api/posts?limit=2&offset=1&order=asc&focusUserId={reader.hex_id}",
        f"/api/posts?tag=tea&ownedBy={friend.hex_id}&replyTo=",
        f"/api/posts?replyTo={posts[0].hex_id}",
        f"/api/posts/by-followees?userId={reader.hex_id}&limit=20",
        f"/api/posts/by-followees?userId={reader.hex_id}&includeSelf=true&focusUserId={friend.hex_id}",
        f"/api/posts/{posts[1].hex_id}",
        f"/api/posts/{posts[1].hex_id.lower()}?focusUserId={reader.hex_id}",
        f"/backend/posts/{posts[0].hex_id}",
        "/backend/posts?limit=3",
    ]


def test_the_lean_path_answers_the_hot_reads_as_the_full_path_does(settings, cast):
    reader, friend, posts, _ = cast
    lean, full = _pair(settings, reader)
    for path in _reads(reader, friend, posts):
        response = _assert_same(settings, lean, full, "GET", path, lean_answers=True)
        assert response.status_code == 200
    for accept in ("*/*", "application/json", "text/html, application/json", "application/*"):
        _assert_same(settings, lean, full, "GET", "/api/posts?limit=3", {"Accept": accept}, lean_answers=True)


@pytest.mark.parametrize(
    "path",
    [
        "/api/posts?limit=abc",
        "/api/posts?offset=-1",
        "/api/posts?order=sideways",
        "/api/posts?limit=99999999999999999999999",
        "/api/posts?focusUserId=nothex",
        "/api/posts?query=admins-only",
        "/api/posts?after=00000000000000FF&offset=2",
        "/api/posts?format=xml",
        "/api/posts/by-followees",
        "/api/posts/by-followees?userId=zz",
        "/api/posts/00000000000000FF",
        "/api/posts/{hidden}",
        "/api/posts/{hidden}?focusUserId=bad",
        "/api/posts/",
        "/api/posts/12345",
        "/api/posts?limit=1%00",
    ],
)
def test_what_fails_is_answered_by_the_full_path(settings, cast, path):
    reader, _, _, hidden = cast
    lean, full = _pair(settings, reader)
    response = _assert_same(settings, lean, full, "GET", path.format(hidden=hidden.hex_id), lean_answers=False)
    assert response.status_code >= 400
    assert "error" in response.json()


def test_anonymous_callers_and_other_methods_take_the_full_path(settings, cast):
    reader, friend, posts, _ = cast
    anonymous_lean, anonymous_full = _pair(settings)
    for path in _reads(reader, friend, posts):
        response = _assert_same(settings, anonymous_lean, anonymous_full, "GET", path, lean_answers=False)
        assert response.status_code == 401
    lean, full = _pair(settings, reader)
    for method in ("HEAD", "OPTIONS"):
        for path in _reads(reader, friend, posts)[:1] + _reads(reader, friend, posts)[-4:-2]:
            assert _assert_same(settings, lean, full, method, path, lean_answers=False).status_code == 200
    for accept in ("application/json; indent=4", "text/html", "application/json;q=0.9"):
        _assert_same(settings, lean, full, "GET", "/api/posts?limit=3", {"Accept": accept}, lean_answers=False)
    assert _assert_same(settings, lean, full, "GET", "/api/posts?format=json", lean_answers=False).status_code == 200


def test_cors_answers_stay_the_same(settings, cast):
    settings.STGY_CORS_ALLOWED_ORIGINS = ["http://localhost:3000"]
    reader, friend, posts, _ = cast
    lean, full = _pair(settings, reader)
    origin = {"Origin": "http://localhost:3000"}
    for path in _reads(reader, friend, posts)[:2] + [f"/api/posts/{posts[2].hex_id}"]:
        response = _assert_same(settings, lean, full, "GET", path, origin, lean_answers=True)
        assert response["Access-Control-Allow-Origin"] == "http://localhost:3000"
        _assert_same(settings, lean, full, "GET", path, {"Origin": "https://elsewhere.example"}, lean_answers=True)
        preflight = {**origin, "Access-Control-Request-Method": "GET"}
        assert _assert_same(settings, lean, full, "OPTIONS", path, preflight, lean_answers=False).status_code == 204


def test_a_stale_session_is_ended_by_the_full_path(settings, cast):
    # Two sessions of one user, both made stale by a password change: each path ends its own.
    reader, _, _, _ = cast
    lean, full = APIClient(), APIClient()
    lean.force_login(reader)
    full.force_login(reader)
    reader.set_password("another password")
    reader.save()
    auth_record_forget(reader.id)
    expected = _ask(settings, full, True, "GET", "/api/posts?limit=3", {})
    got = _ask(settings, lean, False, "GET", "/api/posts?limit=3", {})
    assert expected.status_code == got.status_code == 401
    assert (got.content, list(got.items()), _cookies(got)) == (expected.content, list(expected.items()), _cookies(expected))
    assert got.cookies[settings.SESSION_COOKIE_NAME].value == ""  # the cookie is deleted


def test_the_sliding_session_is_refreshed_on_the_lean_path(settings, cast):
    reader, _, _, _ = cast
    client = APIClient()
    client.force_login(reader)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    old = Session.objects.get(session_key=key).expire_date
    Session.objects.filter(session_key=key).update(expire_date=old - timedelta(days=3))
    cache.clear()  # the session's cached copy holds the refresh stamp: age it in the database only
    session = client.session
    session["_stgy_refreshed_at"] = 0
    session.save()
    response = client.get("/api/posts?limit=3")
    assert response.status_code == 200 and type(response) is HttpResponse
    assert settings.SESSION_COOKIE_NAME in response.cookies  # the refreshed cookie
    assert Session.objects.get(session_key=key).expire_date > timezone.now() + timedelta(days=6)


def test_the_hot_paths_are_the_routes_they_stand_for():
    views = {
        "/api/posts": posts_views.PostsView,
        "/backend/posts": posts_views.PostsView,
        "/api/posts/by-followees": posts_views.PostsByFolloweesView,
        "/backend/posts/by-followees": posts_views.PostsByFolloweesView,
        "/api/posts/00000000000000aB": posts_views.PostView,
        "/backend/posts/0123456789ABCDEF": posts_views.PostView,
    }
    for path, view in views.items():
        assert HOT_PATH.fullmatch(path), path
        assert resolve(path).func.view_class is view, path
    for path in ("/api/posts/search", "/api/posts/liked", "/api/posts/", "/api/posts/by-followees/", "/api/postsx"):
        assert not HOT_PATH.fullmatch(path), path
    assert plain_accept(None) and plain_accept("*/*") and not plain_accept("application/json; indent=2")
    assert HotReadsMiddleware(lambda request: None).renderer is not None
