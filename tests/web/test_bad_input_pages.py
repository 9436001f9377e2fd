"""Bad input against every form of the site: never a 5xx, NUL refused without a
change to any social table, a 10 MB body answered with the 413 error page, bidi
controls stripped from nicknames and tags, and nothing unstorable ever stored."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.test import Client

from sns import services
from sns.models import Post, PostTag, User
from tests.bad_input import row_counts
from tests.factories import PASSWORD, make_post, make_user

pytestmark = pytest.mark.django_db

NUL = "bad\x00text"
# The UTF-8 encoding of a lone surrogate: not valid UTF-8, so the site decodes it as U+FFFD.
SURROGATE_BYTES = "bad%ED%A0%80text"
BIDI = "ab\u202ecd\u2066ef"
HUGE_NUMBERS = ["9223372036854775808", "1" + "0" * 30, "-1", "1" * 5000]

# url (ids filled in), the fields a valid submission sends, and who submits it.
FORMS = [
    (
        "/signup",
        {"email": "new@example.com", "locale": "en-US", "timezone": "UTC"},
        "anonymous",
    ),
    ("/password-reset", {"email": "alice@example.com"}, "anonymous"),
    ("/settings/email", {"email": "alice.moved@example.com"}, "alice"),
    ("/login", {"email": "alice@example.com", "password": PASSWORD}, "anonymous"),
    (
        "/compose",
        {
            "content": "hello",
            "tags": "a, b",
            "locale": "en",
            "allow_likes": "on",
            "allow_replies": "on",
        },
        "alice",
    ),
    ("/posts/{post}/reply", {"content": "a reply"}, "alice"),
    (
        "/posts/{own}/edit",
        {"content": "edited", "tags": "c", "locale": "en", "allow_likes": "on"},
        "alice",
    ),
    ("/posts/{own}/delete", {}, "alice"),
    ("/posts/{post}/like", {}, "alice"),
    ("/posts/{liked}/unlike", {}, "alice"),
    ("/preview", {"content": "*hi*"}, "alice"),
    (
        "/settings",
        {"nickname": "Alice", "introduction": "hi", "locale": "en-US", "timezone": "UTC"},
        "alice",
    ),
    (
        "/settings/password",
        {
            "current_password": PASSWORD,
            "new_password": "another-pass-2",
            "new_password2": "another-pass-2",
        },
        "alice",
    ),
    ("/settings/tokens", {"token_name": "laptop", "scope": "read"}, "alice"),
    ("/users/{bob}/follow", {}, "alice"),
    ("/users/{bob}/unfollow", {}, "alice"),
    ("/users/{bob}/block", {}, "alice"),
    ("/users/{bob}/unblock", {}, "alice"),
    ("/notifications/mark", {"slot": "follow", "term": "2026-01-01", "is_read": "1"}, "alice"),
    ("/notifications/mark-all", {}, "alice"),
    ("/agents/llm-check", {}, "alice"),
    ("/logout", {}, "alice"),
]


@pytest.fixture
def cast(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"login": "100000/min"},
    }
    alice = make_user("Alice", email="alice@example.com")
    bob = make_user("Bob")
    post = make_post(bob, "bob's post")
    liked = make_post(bob, "liked")
    own = make_post(alice, "alice's post", tags=["x"])
    services.like_add(alice, liked.id)
    ids = {"post": post.hex_id, "liked": liked.hex_id, "own": own.hex_id, "bob": bob.hex_id}
    return alice, ids


def _client(cast, who) -> Client:
    client = Client()
    if who == "alice":
        client.force_login(cast[0])
    return client


def _snapshot(alice) -> tuple:
    alice.refresh_from_db()
    rows = row_counts()
    contents = sorted(Post.objects.values_list("content", flat=True))
    return rows, contents, (alice.nickname, alice.introduction, alice.password)


def _post_raw(client, url, fields: dict, raw_values: dict):
    """A form body with some values sent as raw (already percent-encoded) bytes."""
    parts = [f"{quote(k)}={quote(v)}" for k, v in fields.items() if k not in raw_values]
    parts += [f"{quote(k)}={v}" for k, v in raw_values.items()]
    return client.generic(
        "POST", url, "&".join(parts), content_type="application/x-www-form-urlencoded"
    )


@pytest.mark.parametrize(("url", "fields", "who"), FORMS, ids=[f[0] for f in FORMS])
def test_a_form_refuses_bad_input_without_a_server_error(cast, url, fields, who):
    alice, ids = cast
    url = url.format(**ids)
    before = _snapshot(alice)
    huge = _client(cast, who).post(url, {**fields, "content": "x" * (10 * 1024 * 1024)})
    assert huge.status_code == 413
    assert "request body is too large" in huge.content.decode()
    assert _snapshot(alice) == before
    for field in fields:
        if field.startswith("allow_"):
            continue  # a checkbox: any value means "on", none is stored
        before = _snapshot(alice)
        response = _client(cast, who).post(url, {**fields, field: NUL})
        assert response.status_code < 500, (url, field)
        assert _snapshot(alice) == before, (url, field, "a NUL was not refused")
        response = _post_raw(_client(cast, who), url, fields, {field: SURROGATE_BYTES})
        assert response.status_code < 500, (url, field)
        for value in HUGE_NUMBERS:
            response = _client(cast, who).post(url, {**fields, field: value})
            assert response.status_code < 500, (url, field, value[:30])
    stored = [*Post.objects.values_list("content", flat=True)]
    stored += [*User.objects.values_list("nickname", "introduction")]
    stored += [*PostTag.objects.values_list("name", flat=True)]
    assert not [text for text in map(str, stored) if "\x00" in text or "\\x00" in text]


@pytest.mark.parametrize(
    "url",
    [
        "/posts/10000000000000000",
        "/posts/%00",
        "/posts/-1/reply",
        "/users/1e30",
        "/agents/runs/99999999999999999999999",
        "/?tab=everyone&tag=a%00b",
        "/search?q=%00",
        "/users?q=a%00",
        "/?page=" + "9" * 5000,
        "/?page=%C2%B2",
    ],
)
def test_a_malformed_id_or_query_is_a_client_error_page(cast, url):
    client = Client()
    client.force_login(make_user("Root", is_admin=True))
    response = client.get(url)
    assert response.status_code in (200, 400, 404, 405), (url, response.status_code)
    if url.startswith("/posts/-1/reply"):
        assert client.post(url, {"content": "x"}).status_code in (302, 400, 404)


def test_bidi_controls_are_stripped_from_a_nickname_and_tags(cast):
    alice, _ids = cast
    client = _client(cast, "alice")
    response = client.post(
        "/settings",
        {"nickname": "Alice" + BIDI, "introduction": "", "locale": "en-US", "timezone": "UTC"},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.nickname == "Aliceabcdef"
    client.post("/compose", {"content": "tagged", "tags": "t" + BIDI, "allow_likes": "on"})
    assert Post.objects.get(content="tagged").tag_names == ["tabcdef"]
