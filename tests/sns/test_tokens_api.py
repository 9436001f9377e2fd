"""Personal access tokens (docs/api.md, "Personal access tokens"): made, listed and
revoked by the person with a session; a token acts as its user through the same rules,
a read token only reads, a revoked token answers 401 at once, and the secret is stored
only as a digest and never logged."""

from __future__ import annotations

import hashlib
import io
import logging

import pytest
from rest_framework.test import APIClient

from sns.auth.token import TOKEN_PREFIX
from sns.models import AccessToken, Like, User
from stgy.log_filters import SecretsRedacted
from tests.conftest import PASSWORD, login_client
from tests.factories import make_post

pytestmark = pytest.mark.django_db


@pytest.fixture(params=[0, 300], ids=["from-database", "cached"])
def ttl(request, settings):
    """The token's grant and its user's auth record read each time, or kept in the cache."""
    settings.STGY_AUTH_RECORD_TTL = request.param
    return request.param


def _make(user, scopes=None, name="laptop") -> dict:
    body = {"name": name} if scopes is None else {"name": name, "scopes": scopes}
    response = login_client(user).post(f"/api/users/{user.hex_id}/tokens", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def _bearer(secret: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def test_a_token_is_shown_once_and_stored_as_its_digest(human):
    made = _make(human, ["read", "write"])
    assert made["token"].startswith(TOKEN_PREFIX) and len(made["token"]) > 40
    assert made["scopes"] == ["read", "write"] and made["name"] == "laptop"
    assert made["lastUsedAt"] is None and made["createdAt"].endswith("Z")
    row = AccessToken.objects.get()
    assert row.digest == hashlib.sha256(made["token"].encode()).hexdigest()
    assert made["token"] not in str(AccessToken.objects.values().get())
    listed = login_client(human).get(f"/api/users/{human.hex_id}/tokens").json()
    assert listed == [{k: v for k, v in made.items() if k != "token"}]


def test_a_token_acts_as_its_user_and_records_its_last_use(human, follower):
    made = _make(human, ["read", "write"])
    client = _bearer(made["token"])
    assert client.get("/api/auth").json()["userId"] == human.hex_id
    posted = client.post("/api/posts", {"content": "by token", "tags": []}, format="json")
    assert posted.status_code == 201 and posted.json()["ownedBy"] == human.hex_id
    # The hot read path answers a token's request as the full path would.
    assert client.get(f"/api/posts/{posted.json()['id']}").json()["ownedBy"] == human.hex_id
    first = AccessToken.objects.get().last_used_at
    assert first is not None
    client.get("/api/posts")
    assert AccessToken.objects.get().last_used_at == first  # throttled: not one write per request


def test_a_read_token_cannot_write(human, follower):
    post = make_post(follower, "likeable")
    client = _bearer(_make(human)["token"])
    assert client.get("/api/posts").status_code == 200
    for response in (
        client.post("/api/posts", {"content": "no", "tags": []}, format="json"),
        client.post(f"/api/posts/{post.hex_id}/like"),
        client.delete(f"/api/users/{follower.hex_id}/follow"),
        client.put(f"/api/users/{human.hex_id}", {"nickname": "X"}, format="json"),
    ):
        assert response.status_code == 403 and response.json() == {"error": "read-only token"}
    assert not Like.objects.exists()
    assert User.objects.get(pk=human.pk).nickname == "Alice"


def test_revoked_unknown_and_deleted_users_tokens_answer_401(ttl, human, admin):
    made = _make(human)
    client = _bearer(made["token"])
    assert client.get("/api/posts").status_code == 200  # the grant is cached now
    revoked = login_client(human).delete(f"/api/users/{human.hex_id}/tokens/{made['id']}")
    assert revoked.json() == {"result": "ok"}
    response = client.get("/api/posts")
    assert response.status_code == 401 and response.json() == {"error": "invalid token"}
    assert _bearer(TOKEN_PREFIX + "x" * 43).get("/api/auth").status_code == 401
    other = _make(admin)
    login_client(admin).delete(f"/api/users/{admin.hex_id}")
    assert _bearer(other["token"]).get("/api/posts").status_code == 401


def test_a_token_meets_the_rules_a_session_meets(ttl, human, blocked, admin):
    """Blocks and freezes refuse a token's writes exactly as a session's."""
    post = make_post(human, "mine")
    blocked_client = _bearer(_make(blocked, ["read", "write"])["token"])
    reply = blocked_client.post(
        "/api/posts", {"content": "hi", "tags": [], "replyTo": post.hex_id}, format="json"
    )
    session_reply = login_client(blocked).post(
        "/api/posts", {"content": "hi", "tags": [], "replyTo": post.hex_id}, format="json"
    )
    assert (reply.status_code, reply.json()) == (session_reply.status_code, session_reply.json())
    assert reply.status_code >= 400
    client = _bearer(_make(human, ["read", "write"])["token"])
    login_client(admin).put(f"/api/users/{human.hex_id}", {"isFrozen": True}, format="json")
    frozen = client.post("/api/posts", {"content": "cold", "tags": []}, format="json")
    assert frozen.status_code == 403 and frozen.json() == {"error": "user is frozen"}


def test_tokens_are_managed_with_a_session_only(ttl, human, follower, admin):
    made = _make(human, ["read", "write"])
    client = _bearer(made["token"])
    assert client.get(f"/api/users/{human.hex_id}/tokens").json() == {
        "error": "not allowed with a token"
    }
    assert (
        client.post(f"/api/users/{human.hex_id}/tokens", {"name": "x"}, format="json").status_code
        == 403
    )
    assert client.delete(f"/api/users/{human.hex_id}/tokens/{made['id']}").status_code == 403
    # Nobody makes a token for someone else, not even an admin; an admin may list and revoke.
    response = login_client(admin).post(
        f"/api/users/{human.hex_id}/tokens", {"name": "x"}, format="json"
    )
    assert response.status_code == 403
    assert login_client(follower).get(f"/api/users/{human.hex_id}/tokens").status_code == 403
    assert len(login_client(admin).get(f"/api/users/{human.hex_id}/tokens").json()) == 1
    assert (
        login_client(admin).delete(f"/api/users/{human.hex_id}/tokens/{made['id']}").status_code
        == 200
    )
    assert client.get("/api/posts").status_code == 401


def test_an_admins_token_cannot_switch_users(admin, human):
    client = _bearer(_make(admin, ["read", "write"])["token"])
    response = client.post("/api/auth/switch-user", {"id": human.hex_id}, format="json")
    assert response.status_code == 403 and response.json() == {"error": "not allowed with a token"}
    assert "session_id" not in response.cookies


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({}, "name is required"),
        ({"name": "  "}, "name is required"),
        ({"name": "x" * 101}, "name is too long"),
        ({"name": 5}, "name must be a string"),
        ({"name": "a", "scopes": []}, 'scopes must be ["read"] or ["read", "write"]'),
        ({"name": "a", "scopes": ["admin"]}, 'scopes must be ["read"] or ["read", "write"]'),
        ({"name": "a", "scopes": "write"}, 'scopes must be ["read"] or ["read", "write"]'),
    ],
)
def test_bad_token_input_is_refused_and_changes_nothing(human, body, error):
    response = login_client(human).post(f"/api/users/{human.hex_id}/tokens", body, format="json")
    assert (response.status_code, response.json()) == (400, {"error": error})
    assert not AccessToken.objects.exists()


def test_a_token_limit_per_person(human, settings):
    settings.STGY_TOKENS_PER_USER = 2
    _make(human), _make(human)
    response = login_client(human).post(
        f"/api/users/{human.hex_id}/tokens", {"name": "3"}, format="json"
    )
    assert (response.status_code, response.json()) == (400, {"error": "too many tokens"})


def test_a_bearer_request_needs_no_same_site_proof(human):
    """A cross-site Origin refuses a cookie's write; a token's carries no cookie."""
    client = _bearer(_make(human, ["read", "write"])["token"])
    response = client.post(
        "/api/posts",
        {"content": "from a script", "tags": []},
        format="json",
        HTTP_ORIGIN="https://elsewhere.example",
    )
    assert response.status_code == 201


def test_tokens_never_reach_the_logs(human, caplog):
    made = _make(human)
    with caplog.at_level(logging.DEBUG):
        _bearer(made["token"]).post("/api/posts", {"content": "x", "tags": []}, format="json")
        _bearer(made["token"] + "x").get("/api/posts")
    assert caplog.records and made["token"] not in caplog.text
    # And whatever puts one in a message, the site's log handler writes it redacted.
    stream = io.StringIO()
    (console,) = [
        h
        for h in logging.getLogger().handlers
        if isinstance(h, logging.StreamHandler)
        and any(isinstance(f, SecretsRedacted) for f in h.filters)
    ]
    handler = logging.StreamHandler(stream)
    handler.filters = console.filters
    handler.handle(logging.makeLogRecord({"msg": "bad header %s", "args": (made["token"],)}))
    assert stream.getvalue() == "bad header stgy_pat_…\n"


def test_a_fresh_session_never_vouches_for_a_tokens_user(human, follower):
    """A password or e-mail change without the current password rests on a recent login
    of the caller's own session; a token's request carrying someone else's fresh
    session cookie gets nothing from it."""
    client = _bearer(_make(human, ["read", "write"])["token"])
    login = client.post("/api/auth", {"email": follower.email, "password": PASSWORD}, format="json")
    assert login.status_code == 200  # the client now holds Bob's fresh session cookie too
    changed = client.put(
        f"/api/users/{human.hex_id}/password", {"password": "taken-over-now"}, format="json"
    )
    assert changed.status_code == 403
    moved = client.post(
        f"/api/users/{human.hex_id}/email/start", {"email": "thief@example.com"}, format="json"
    )
    assert moved.status_code == 403
    assert User.objects.get(pk=human.pk).check_password(PASSWORD)
    # With the current password the person's own token may change it, and keeps working.
    ok = client.put(
        f"/api/users/{human.hex_id}/password",
        {"password": "brand-new-secret", "currentPassword": PASSWORD},
        format="json",
    )
    assert ok.status_code == 200 and client.get("/api/posts").status_code == 200


def test_an_ai_users_memory_is_as_private_to_a_token_as_to_a_session(human, ai_user, admin):
    path = f"/api/ai-users/{ai_user.hex_id}/interests"
    by_session = login_client(human).get(path)
    by_token = _bearer(_make(human)["token"]).get(path)
    assert by_session.status_code == 403
    assert (by_token.status_code, by_token.json()) == (by_session.status_code, by_session.json())
    assert (
        _bearer(_make(admin)["token"]).get(path).status_code
        == login_client(admin).get(path).status_code
    )


def test_a_tokens_writes_count_against_its_users_hourly_limit(human, settings):
    settings.STGY_HOURLY_POSTS_COUNT_LIMIT = 2
    client = _bearer(_make(human, ["read", "write"])["token"])
    assert (
        login_client(human)
        .post("/api/posts", {"content": "1", "tags": []}, format="json")
        .status_code
        == 201
    )
    assert client.post("/api/posts", {"content": "2", "tags": []}, format="json").status_code == 201
    third = client.post("/api/posts", {"content": "3", "tags": []}, format="json")
    assert (third.status_code, third.json()) == (403, {"error": "too often posts"})


def test_a_request_with_a_token_and_a_cookie_is_the_tokens_on_the_hot_reads_too(human, blocked):
    """Alice blocks Mallory, so Alice's post is hidden from Mallory: a hot read sent with
    Mallory's token and Alice's session cookie answers as Mallory."""
    post = make_post(human, "not for Mallory")
    client = login_client(human)
    assert client.get(f"/api/posts/{post.hex_id}").status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {_make(blocked)['token']}")
    assert client.get(f"/api/posts/{post.hex_id}").status_code == 404
    assert post.hex_id not in client.get("/api/posts").content.decode()
    assert client.get("/api/auth").json()["userId"] == blocked.hex_id


def test_a_tokens_cached_grant_is_kept_where_a_missed_delete_becomes_a_tombstone():
    """A revocation Redis misses is written to the database like a session's end
    (sns/auth/tombstones.py), because the grant's key has the auth records' prefix."""
    from sns.auth.token import _key, token_digest
    from sns.auth.tombstones import PREFIXES

    assert _key(token_digest(TOKEN_PREFIX + "x")).startswith(PREFIXES)


def test_an_allowed_frontend_origin_may_send_a_token(settings, human):
    frontend = "http://localhost:3000"
    settings.STGY_CORS_ALLOWED_ORIGINS = [frontend]
    preflight = APIClient().options(
        "/api/posts",
        HTTP_ORIGIN=frontend,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type",
    )
    assert preflight.status_code == 204
    allowed = {name.strip().lower() for name in preflight["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type"} <= allowed
    client = _bearer(_make(human, ["read", "write"])["token"])
    posted = client.post("/api/posts", {"content": "from a frontend", "tags": []}, format="json", HTTP_ORIGIN=frontend)
    assert posted.status_code == 201 and posted["Access-Control-Allow-Origin"] == frontend
    listed = client.get("/api/posts?limit=1", HTTP_ORIGIN=frontend)
    assert listed.status_code == 200 and listed["Access-Control-Allow-Origin"] == frontend
    # Another origin gets no CORS headers, so a browser there cannot read the answer.
    assert "Access-Control-Allow-Origin" not in client.get("/api/posts?limit=1", HTTP_ORIGIN="http://evil.test")
