"""Bad input against every write route of the API: only 4xx answers, each with an
`{"error"}` body, and no row of the social tables changes when a request is refused.

The routes come from the OpenAPI document, so a new write route without an entry here
fails `test_every_write_route_has_a_table_entry`.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from agents import memory
from agents.memory_versions import API
from agents.models import MemoryVersion
from sns import services
from sns.services import agreements, boundaries, mutes
from sns.services import messages as message_service
from sns.services.tokens import token_create
from tests.bad_input import row_counts
from tests.factories import make_ai_user, make_post, make_user

pytestmark = pytest.mark.django_db

NUL = "bad\x00text"
BIDI = "ab\u202ecd\u2066ef\u200f"
# Sent as the JSON escape "\ud800": json.dumps writes lone surrogates that way.
LONE_SURROGATE = "bad\ud800text"
WRONG_VALUES = {
    "2^63": 2**63,
    "10^30": 10**30,
    "-1": -1,
    "list": ["x"],
    "object": {"a": 1},
    "null": None,
}

# method, path (ids filled in by `_path`), a body the route accepts.
WRITE_ROUTES = [
    ("POST", "/api/auth", {"email": "root@example.com", "password": "correct-horse-battery"}),
    ("DELETE", "/api/auth", None),
    ("POST", "/api/auth/switch-user", {"id": "{other}"}),
    (
        "POST",
        "/api/users",
        {"email": "new@example.com", "nickname": "New", "password": "a-long-password-1"},
    ),
    ("PUT", "/api/users/{other}", {"nickname": "Renamed", "introduction": "hi", "avatar": "a.png"}),
    ("DELETE", "/api/users/{other}", None),
    ("PUT", "/api/users/{other}/password", {"password": "another-password-2"}),
    ("POST", "/api/users/{stranger}/follow", None),
    ("DELETE", "/api/users/{other}/follow", None),
    ("POST", "/api/users/{stranger}/block", None),
    ("DELETE", "/api/users/{blocked}/block", None),
    ("POST", "/api/posts", {"content": "hello", "tags": ["a"], "locale": "en"}),
    ("PUT", "/api/posts/{post}", {"content": "edited", "tags": ["b"], "locale": "en"}),
    ("DELETE", "/api/posts/{post}", None),
    ("POST", "/api/posts/{post}/like", None),
    ("DELETE", "/api/posts/{liked}/like", None),
    # reposts, quotes, bookmarks (docs/shares.md)
    ("POST", "/api/posts/{post}/repost", None),
    ("DELETE", "/api/posts/{post}/repost", None),
    ("POST", "/api/posts/{post}/quote", {"content": "quoting", "tags": ["q"], "locale": "en"}),
    ("POST", "/api/posts/{post}/bookmark", None),
    ("DELETE", "/api/posts/{post}/bookmark", None),
    ("POST", "/api/notifications/mark", {"slot": "follow", "term": "2026-01-01", "isRead": True}),
    ("POST", "/api/notifications/mark-all", {"isRead": True}),
    (
        "POST",
        "/api/ai-users/chat",
        {"model": "basic", "messages": [{"role": "user", "content": "hi"}]},
    ),
    ("POST", "/api/ai-users/features", {"input": "hello"}),
    ("POST", "/api/ai-users/{ai}/interests", {"interest": "cooking", "tags": ["food"]}),
    ("POST", "/api/ai-users/{ai}/peer-impressions", {"peerId": "{other}", "payload": "kind"}),
    ("POST", "/api/ai-users/{ai}/interests/versions/{version}/restore", None),
    ("POST", "/api/ai-users/{ai}/peer-impressions/{peer}/versions/{peer_version}/restore", None),
    ("POST", "/api/ai-users/{ai}/post-impressions", {"postId": "{post}", "payload": "good"}),
    ("PUT", "/api/ai-posts/{post}", {"summary": "short", "tags": ["t"], "keywords": ["k"]}),
    ("POST", "/api/ai-posts/recommendations", {"tags": [{"name": "a", "count": 1}], "limit": 5}),
    (
        "POST",
        "/api/ai-posts/recommendations/posts",
        {"tags": [{"name": "a", "count": 1}], "limit": 5},
    ),
    ("POST", "/api/messages/conversations/{other}", {"content": "hello there"}),
    ("DELETE", "/api/messages/conversations/{other}", None),
    ("POST", "/api/messages/conversations/{other}/accept", None),
    ("POST", "/api/messages/{message}/report", {"reason": "spam"}),
    ("POST", "/api/posts/{post}/report", {"reason": "spam", "note": "ads"}),
    (
        "PUT",
        "/api/users/{me}/ai-boundaries",
        {"allowReplies": False, "allowMentions": True, "allowMessages": True},
    ),
    ("POST", "/api/users/{me}/ai-stops", {"aiUserId": "{ai}", "duration": "48h"}),
    ("DELETE", "/api/users/{me}/ai-stops/{stopped_ai}", None),
    # The body is a JSON array; its validation has its own table (test_api_agreements).
    ("POST", "/api/agreement-terms/{term}", None),
    ("DELETE", "/api/agreement-terms/{term}", None),
    ("POST", "/api/users/agreement/{term}", None),
    # Operator routes (docs/operations.md): no body, admin only.
    ("POST", "/api/metrics/clear", None),
    ("POST", "/api/metrics/aggregation/clear", None),
    ("POST", "/api/db-stats/enable", None),
    ("POST", "/api/db-stats/disable", None),
    ("POST", "/api/db-stats/clear", None),
    # sign-up, e-mail change and password reset (tests/accounts/ has their contracts)
    ("POST", "/api/signup/start", {"email": "fresh@example.com", "password": "a-long-password-1"}),
    (
        "POST",
        "/api/signup/verify",
        {"signupId": "00000000-0000-4000-8000-000000000000", "verificationCode": "123456"},
    ),
    ("POST", "/api/users/{me}/email/start", {"email": "moved@example.com"}),
    (
        "POST",
        "/api/users/{me}/email/verify",
        {"updateEmailId": "00000000-0000-4000-8000-000000000000", "verificationCode": "123456"},
    ),
    ("POST", "/api/users/password/reset/start", {"email": "root@example.com"}),
    (
        "POST",
        "/api/users/password/reset/verify",
        {
            "email": "root@example.com",
            "resetPasswordId": "00000000-0000-4000-8000-000000000000",
            "webCode": "123456",
            "mailCode": "123456",
            "newPassword": "a-long-password-2",
        },
    ),
    # images and avatars (docs/media.md)
    ("POST", "/api/media/{me}/images/presigned", {"filename": "a.jpg", "sizeBytes": 100}),
    ("POST", "/api/media/{me}/images/finalize", {"key": "staging/{me}/x.jpg"}),
    ("POST", "/api/media/{me}/images/import", {"url": "http://192.0.2.1/a.png"}),
    ("DELETE", "/api/media/{me}/images/{rest}", None),
    ("POST", "/api/media/{me}/profiles/{slot}/presigned", {"filename": "a.png", "sizeBytes": 100}),
    ("POST", "/api/media/{me}/profiles/{slot}/finalize", {"key": "profiles-staging/{me}/avatar/x.png"}),
    ("DELETE", "/api/media/{me}/profiles/{slot}", None),
    # tracks (docs/media.md §9)
    ("POST", "/api/media/{me}/tracks/presigned", {"filename": "a.fit", "sizeBytes": 100}),
    ("POST", "/api/media/{me}/tracks/finalize", {"key": "tracks-staging/{me}/x.fit"}),
    ("DELETE", "/api/media/{me}/tracks/{rest}", None),
    # link previews (docs/api.md, "Link previews"); a documentation address, never fetched
    ("POST", "/api/link-snippets/resolve", {"url": "http://192.0.2.1/page"}),
    (
        "PUT",
        "/api/users/{me}/pub-config",
        {
            "siteName": "Site",
            "subtitle": "Sub",
            "author": "Me",
            "introduction": "Hello",
            "designTheme": "dark",
            "showServiceHeader": False,
            "showSideRecent": 3,
        },
    ),
    ("POST", "/api/posts/pub-by-ids", {"ids": ["{post}"]}),
    # mutes (docs/mutes.md)
    ("POST", "/api/users/{stranger}/mute", None),
    ("DELETE", "/api/users/{muted}/mute", None),
    ("PUT", "/api/users/{me}/muted-words", {"words": ["spoiler"]}),
    # personal access tokens (docs/api.md)
    ("POST", "/api/users/{me}/tokens", {"name": "laptop", "scopes": ["read"]}),
    ("DELETE", "/api/users/{me}/tokens/{token_id}", None),
    # what AI users remember about me (docs/what-ai-users-know.md)
    ("DELETE", "/api/users/{me}/ai-memory", None),
]
# Fields where a wrong value is not an error: ignored knobs, nullable optionals.
ACCEPTED = {
    ("/api/users/{other}", "avatar", "null"),
    ("/api/ai-posts/{post}", "summary", "null"),
    *(("/api/ai-users/{ai}/interests", "tags", label) for label in WRONG_VALUES),
    ("/api/posts", "locale", "null"),
    ("/api/posts/{post}", "locale", "null"),
    ("/api/posts/{post}/quote", "locale", "null"),
    # A quote's tags are optional: null means none.
    ("/api/posts/{post}/quote", "tags", "null"),
    ("/api/posts/{post}/report", "note", "null"),  # the note is optional
    ("/api/users/{me}/tokens", "scopes", "null"),  # absent or null: read only
    ("/api/ai-posts/recommendations", "limit", "2^63"),
    ("/api/ai-posts/recommendations", "limit", "10^30"),
    ("/api/ai-posts/recommendations", "limit", "-1"),
    ("/api/ai-posts/recommendations", "limit", "list"),
    ("/api/ai-posts/recommendations", "limit", "object"),
    ("/api/ai-posts/recommendations", "limit", "null"),
    ("/api/ai-posts/recommendations", "tags", "null"),
    # A text field of the site settings sent as null keeps its value, as in the original.
    *(
        ("/api/users/{me}/pub-config", name, "null")
        for name in ("siteName", "subtitle", "author", "introduction", "designTheme")
    ),
}
ACCEPTED |= {
    (path + "/posts", field, label)
    for (path, field, label) in set(ACCEPTED)
    if path == "/api/ai-posts/recommendations"
}


@pytest.fixture
def world(settings):
    settings.STGY_AI_PROVIDER = "offline"
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"login": "100000/min"},
    }
    admin = make_user("Root", is_admin=True, email="root@example.com")
    other = make_user("Other")
    stranger = make_user("Stranger")
    blocked = make_user("Blocked")
    ai = make_ai_user("Aibo")
    post = make_post(other, "their post", tags=["x"])
    liked = make_post(other, "liked post")
    services.follow_add(admin, other.id)
    services.block_add(admin, blocked.id)
    services.like_add(admin, liked.id)
    message = message_service.message_send(other, admin.id, content="a message to report")
    boundaries.ai_stop_add(admin, ai.id)
    muted = make_user("Muted")
    mutes.mute_add(admin, muted.id)
    term = agreements.agreement_term_put(admin, 0x10, [{"locale": "en", "text": "Be kind."}])
    # A version of each restorable memory of the AI user (agents/memory_versions.py).
    memory.interest_save(ai, interest="tea", tags=[], features=bytes(512), embedding_model="hash-v1", source=API)
    memory.peer_impression_save(ai, peer_id=other.id, payload="kind", source=API)
    versions = dict(MemoryVersion.objects.filter(user=ai).values_list("kind", "id"))
    token, _secret = token_create(admin, admin.id, name="kept")
    client = Client()
    client.force_login(admin)
    ids = {
        "version": versions["interest"],
        "peer_version": versions["peer"],
        "peer": other.hex_id,
        "other": other.hex_id,
        "stranger": stranger.hex_id,
        "blocked": blocked.hex_id,
        "muted": muted.hex_id,
        "ai": ai.hex_id,
        "post": post.hex_id,
        "liked": liked.hex_id,
        "me": admin.hex_id,
        "message": message.hex_id,
        "stopped_ai": ai.hex_id,
        "term": term.hex_id,
        "token_id": token.hex_id,
        "rest": "masters/797387/00000000deadbeef.jpg",
        "slot": "avatar",
    }
    return client, ids


def _fill(value, ids):
    if isinstance(value, str):
        return value.format(**ids) if "{" in value else value
    if isinstance(value, dict):
        return {k: _fill(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, ids) for v in value]
    return value


def _send(client, method, path, payload: bytes | str | None):
    kwargs = {"content_type": "application/json"}
    if payload is not None:
        kwargs["data"] = payload
    return getattr(client, method.lower())(path, **kwargs)


def _assert_refused(client, method, path, payload, *, status=None):
    before = row_counts()
    response = _send(client, method, path, payload)
    sent = payload[:120] if isinstance(payload, str) else payload
    assert 400 <= response.status_code < 500, (method, path, sent, response.content[:200])
    if status is not None:
        assert response.status_code == status, (method, path, response.content[:200])
    assert isinstance(response.json().get("error"), str)
    assert row_counts() == before, (method, path, "rows changed on a refused request")
    return response


def test_every_write_route_has_a_table_entry():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    routes = {
        (method.upper(), path)
        for path, item in schema["paths"].items()
        for method in item
        if method in ("post", "put", "patch", "delete")
    }
    listed = {
        (
            m,
            p.replace("{other}", "{user_id}")
            .replace("{stranger}", "{user_id}")
            .replace("{blocked}", "{user_id}")
            .replace("{muted}", "{user_id}")
            .replace("{stopped_ai}", "{ai_user_id}")
            .replace("{ai}", "{user_id}")
            .replace("{me}", "{user_id}")
            .replace("{message}", "{message_id}")
            .replace("{term}", "{term_id}")
            .replace("{liked}", "{post_id}")
            .replace("{post}", "{post_id}")
            .replace("{peer}", "{peer_id}")
            .replace("{peer_version}", "{version_id}")
            .replace("{version}", "{version_id}"),
        )
        for m, p, _ in WRITE_ROUTES
    }
    assert routes == listed


@pytest.mark.parametrize(
    ("method", "path", "body"), WRITE_ROUTES, ids=[f"{m} {p}" for m, p, _ in WRITE_ROUTES]
)
def test_a_write_route_refuses_bad_bodies_and_changes_nothing(world, method, path, body):
    client, ids = world
    url = path.format(**ids)
    deep = "[" * 1000 + "]" * 1000
    _assert_refused(client, method, url, deep, status=400)
    _assert_refused(client, method, url, '{"a": ' * 40 + "1" + "}" * 40, status=400)
    huge = json.dumps({"content": "x" * (10 * 1024 * 1024)})
    response = _assert_refused(client, method, url, huge, status=413)
    assert response.json() == {"error": "request body is too large"}
    if body is None:
        return
    _assert_refused(client, method, url, '{"content": "unterminated', status=400)
    _assert_refused(client, method, url, '["a JSON array, not an object"]', status=400)
    for field in body:
        for label, value in {"NUL": NUL, "lone surrogate": LONE_SURROGATE}.items():
            payload = json.dumps(_fill({**body, field: _nest(body[field], value)}, ids))
            response = _assert_refused(client, method, url, payload, status=400)
            assert response.json() == {"error": f"{field} contains invalid characters"}, label
        for label, value in WRONG_VALUES.items():
            if (path, field, label) in ACCEPTED or type(value) is type(body[field]):
                continue
            payload = json.dumps(_fill({**body, field: value}, ids))
            _assert_refused(client, method, url, payload)


def _nest(template, bad: str):
    """`bad` where the field's text lives: the string itself, or inside its list/object."""
    if isinstance(template, list):
        return [_nest(template[0], bad)] if template else [bad]
    if isinstance(template, dict):
        return {
            k: _nest(v, bad) if isinstance(v, (str, list, dict)) else v for k, v in template.items()
        }
    return bad


@pytest.mark.parametrize(
    "path",
    ["/api/posts/10000000000000000", "/api/posts/%00", "/api/posts/-1", "/api/users/1e30/follow"],
)
def test_malformed_path_ids_are_400(world, path):
    client, _ids = world
    for method in ("PUT", "DELETE", "POST"):
        response = _send(client, method, path, json.dumps({"content": "x", "tags": []}))
        assert response.status_code in (400, 404, 405), (method, path, response.status_code)
        assert response.status_code != 404 or "error" in response.json()


def test_bidi_characters_are_stripped_from_nicknames_and_tags(world):
    client, ids = world
    response = client.put(
        f"/api/users/{ids['other']}", {"nickname": "Eve" + BIDI}, content_type="application/json"
    )
    assert response.status_code == 200
    assert response.json()["nickname"] == "Eveabcdef"
    response = client.post(
        "/api/posts", {"content": "hi", "tags": ["t" + BIDI]}, content_type="application/json"
    )
    assert response.status_code == 201
    assert response.json()["tags"] == ["tabcdef"]
    assert response.json()["content"] == "hi"
