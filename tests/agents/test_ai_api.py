"""/ai-models, /ai-users, /ai-users/chat and /ai-users/features (docs/api.md §5–§6)."""

from __future__ import annotations

import base64

import pytest

from agents.embeddings import embed_features
from agents.models import LlmUsage
from sns.core.ids import id_to_hex
from sns.core.privacy import mask_email
from tests.conftest import login_client
from tests.factories import make_ai_user


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """The cast logs in with force_login; a cheap hasher keeps user creation fast."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# ----------------------------------------------------------------------------- models


def test_ai_models(human, settings, api):
    settings.STGY_AI_PROVIDER = "openai"
    settings.STGY_AI_MODEL_BALANCED = "mid-model"
    client = login_client(human)
    data = client.get("/api/ai-models").json()
    assert [m["label"] for m in data] == ["advanced", "balanced", "basic"]
    assert data[1] == {"label": "balanced", "service": "openai", "chatModel": "mid-model"}
    assert client.get("/api/ai-models/balanced").json()["chatModel"] == "mid-model"
    response = client.get("/api/ai-models/huge")
    assert (response.status_code, response.json()) == (404, {"error": "not found"})
    assert api.get("/api/ai-models").status_code == 401


# ----------------------------------------------------------------------------- users


def test_ai_users_lists_only_unfrozen_ai_users(human, ai_user, admin):
    frozen = make_ai_user("Frozen", is_frozen=True)
    other = make_ai_user("Other", tier="basic")
    client = login_client(human)
    data = client.get("/api/ai-users").json()
    assert [u["id"] for u in data] == [id_to_hex(other.id), id_to_hex(ai_user.id)]
    assert data[0] == {"id": id_to_hex(other.id), "nickname": "Other", "isAdmin": False, "aiModel": "basic"}
    assert id_to_hex(frozen.id) not in {u["id"] for u in data}
    asc = client.get("/api/ai-users?order=asc").json()
    assert [u["id"] for u in asc] == [id_to_hex(ai_user.id), id_to_hex(other.id)]


def test_ai_users_paging_and_cursor(human, ai_user):
    other = make_ai_user("Other")
    client = login_client(human)
    assert len(client.get("/api/ai-users?limit=0").json()) == 1  # clamped to 1
    page = client.get(f"/api/ai-users?order=asc&limit=1&after={id_to_hex(ai_user.id)}").json()
    assert [u["id"] for u in page] == [id_to_hex(other.id)]
    for query, message in [
        (f"after={id_to_hex(ai_user.id)}", "after requires order=asc and offset=0"),
        (f"order=asc&offset=1&after={id_to_hex(ai_user.id)}", "after requires order=asc and offset=0"),
        ("order=asc&after=xyz", "invalid after"),
    ]:
        response = client.get(f"/api/ai-users?{query}")
        assert (response.status_code, response.json()) == (400, {"error": message})


def test_ai_user_detail_masks_for_others(human, ai_user, admin, api):
    path = f"/api/ai-users/{id_to_hex(ai_user.id)}"
    masked = login_client(human).get(path).json()
    assert masked["email"] == mask_email(ai_user.email)
    assert masked["aiPersonality"] == ""
    assert masked["nickname"] == "Aiko" and masked["aiModel"] == "balanced"
    assert set(masked) == {
        "id", "nickname", "isAdmin", "aiModel", "email", "createdAt", "updatedAt", "introduction", "aiPersonality",
    }
    for viewer in (ai_user, admin):
        data = login_client(viewer).get(path).json()
        assert data["email"] == ai_user.email
        assert data["aiPersonality"] == ai_user.ai_personality
    assert api.get(path).status_code == 401


def test_ai_user_detail_not_found_cases(human, ai_user):
    client = login_client(human)
    assert client.get(f"/api/ai-users/{id_to_hex(human.id)}").status_code == 404
    assert client.get("/api/ai-users/00000000000000FF").status_code == 404
    assert client.get("/api/ai-users/not-an-id").status_code == 400
    frozen = make_ai_user("Frozen", is_frozen=True)
    assert client.get(f"/api/ai-users/{id_to_hex(frozen.id)}").status_code == 200


# ----------------------------------------------------------------------------- chat


def test_head_chat_needs_no_login(api, settings):
    settings.STGY_AI_PROVIDER = "none"
    assert api.head("/api/ai-users/chat").status_code == 501
    settings.STGY_AI_PROVIDER = "offline"
    assert api.head("/api/ai-users/chat").status_code == 200


def _chat(client, body):
    return client.post("/api/ai-users/chat", body, format="json")


def test_chat_disabled(ai_user, settings):
    settings.STGY_AI_PROVIDER = "none"
    response = _chat(login_client(ai_user), {"messages": [{"role": "user", "content": "hi"}]})
    assert (response.status_code, response.json()) == (501, {"error": "ai features are disabled"})


def test_chat_requires_login(api, settings):
    settings.STGY_AI_PROVIDER = "offline"
    assert _chat(api, {"messages": [{"role": "user", "content": "hi"}]}).status_code == 401


HI = [{"role": "user", "content": "hi"}]


@pytest.mark.parametrize(
    "who, body, status, message",
    [
        ("human", {"messages": HI}, 403, "no model configured for this user"),
        ("human", {"messages": HI, "model": "basic"}, 403, "model override not allowed"),
        ("ai", {"messages": HI, "model": "basic"}, 403, "model override not allowed"),
        ("admin", {"messages": HI}, 400, "model is required"),
        ("admin", {"messages": HI, "model": "gpt-4"}, 400, "no such model"),
        ("ai", {"messages": []}, 400, "messages must be a non-empty array"),
        ("ai", {"messages": "hi"}, 400, "messages must be a non-empty array"),
        ("ai", {}, 400, "messages must be a non-empty array"),
        ("ai", {"messages": ["hi"]}, 400, "invalid messages[0]"),
        ("ai", {"messages": [*HI, {"role": "user", "content": 5}]}, 400, "invalid messages[1]"),
        ("ai", {"messages": [{"role": "tool", "content": "x"}]}, 400, "invalid messages[0].role"),
        ("ai", ["not", "an", "object"], 400, "invalid body"),
    ],
)
def test_chat_validation(human, ai_user, admin, settings, who, body, status, message):
    settings.STGY_AI_PROVIDER = "offline"
    client = login_client({"human": human, "ai": ai_user, "admin": admin}[who])
    response = _chat(client, body)
    assert (response.status_code, response.json()) == (status, {"error": message})
    assert not LlmUsage.objects.exists()


def test_chat_through_the_local_server(llm_server, ai_user, settings):
    settings.STGY_AI_MODEL_BALANCED = "mid-model"
    llm_server.push_chat('{"x": 1}', prompt_tokens=7, completion_tokens=3, cached_tokens=2)
    body = {"messages": [{"role": "user", "content": "prompt"}], "responseFormat": "json", "model": "  "}
    response = _chat(login_client(ai_user), body)
    assert (response.status_code, response.json()) == (200, {"message": {"content": '{"x": 1}'}})
    (request,) = llm_server.chat_requests()
    assert request.body["model"] == "mid-model"
    assert request.body["response_format"] == {"type": "json_object"}
    row = LlmUsage.objects.get()
    assert (row.user_id, row.outcome, row.model, row.prompt_tokens, row.cached_tokens) == (
        ai_user.id, "ok", "mid-model", 7, 2
    )


def test_admin_may_choose_the_tier(llm_server, admin, settings):
    settings.STGY_AI_MODEL_ADVANCED = "big-model"
    response = _chat(login_client(admin), {"messages": HI, "model": " advanced "})
    assert response.status_code == 200
    assert llm_server.chat_requests()[0].body["model"] == "big-model"
    assert "response_format" not in llm_server.chat_requests()[0].body


def test_chat_provider_5xx_is_unavailable(llm_server, ai_user, settings):
    settings.STGY_AI_MAX_RETRIES = 0
    llm_server.push_chat(status=500)
    response = _chat(login_client(ai_user), {"messages": HI})
    assert (response.status_code, response.json()) == (503, {"error": "ai service is unavailable"})
    assert LlmUsage.objects.get().outcome == "error"


def test_chat_unusable_answer_is_internal_error(llm_server, ai_user):
    llm_server.push_chat(status=400, body={"error": {"message": "bad request"}})
    response = _chat(login_client(ai_user), {"messages": HI})
    assert (response.status_code, response.json()) == (500, {"error": "internal_error"})
    assert len(llm_server.chat_requests()) == 1


def test_chat_over_budget_is_429(llm_server, ai_user, settings):
    settings.STGY_AI_USER_DAILY_TOKEN_BUDGET = 1
    client = login_client(ai_user)
    assert _chat(client, {"messages": HI}).status_code == 200
    response = _chat(client, {"messages": HI})
    assert response.status_code == 429
    assert "user daily token budget exceeded" in response.json()["error"]
    assert len(llm_server.chat_requests()) == 1


# ----------------------------------------------------------------------------- features


def _features(client, body):
    return client.post("/api/ai-users/features", body, format="json")


def test_features_returns_the_codec_of_the_embedding(ai_user, settings):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_EMBEDDING_PROVIDER = "hash"
    response = _features(login_client(ai_user), {"input": "bread and butter"})
    assert response.status_code == 200
    raw = base64.b64decode(response.json()["features"])
    assert len(response.json()["features"]) == 684
    assert raw == embed_features("bread and butter")[0]


def test_features_for_admin_without_tier(admin, settings):
    settings.STGY_AI_PROVIDER = "offline"
    assert _features(login_client(admin), {"input": "x y"}).status_code == 200


@pytest.mark.parametrize(
    "who, body, status, message",
    [
        ("ai", {"input": "x", "model": "basic"}, 400, "model is not accepted for feature generation"),
        ("human", {"input": "x"}, 403, "no model configured for this user"),
        ("ai", {"input": "   "}, 400, "input is required"),
        ("ai", {}, 400, "input is required"),
        ("ai", [1], 400, "invalid body"),
    ],
)
def test_features_rules(human, ai_user, settings, who, body, status, message):
    settings.STGY_AI_PROVIDER = "offline"
    response = _features(login_client(human if who == "human" else ai_user), body)
    assert (response.status_code, response.json()) == (status, {"error": message})


def test_features_disabled_and_unsupported(ai_user, settings):
    client = login_client(ai_user)
    settings.STGY_AI_PROVIDER = "none"
    assert _features(client, {"input": "x"}).status_code == 501
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_EMBEDDING_PROVIDER = "telepathy"
    response = _features(client, {"input": "x"})
    assert (response.status_code, response.json()) == (400, {"error": "unsupported service"})


def test_features_through_openai_embeddings(llm_server, ai_user, settings):
    settings.STGY_EMBEDDING_PROVIDER = "openai"
    response = _features(login_client(ai_user), {"input": "hello"})
    assert response.status_code == 200
    assert len(base64.b64decode(response.json()["features"])) == 512
    assert LlmUsage.objects.get().user_id == ai_user.id
    llm_server.push_embedding(status=400, body={"error": {"message": "bad"}})
    response = _features(login_client(ai_user), {"input": "hello"})
    assert (response.status_code, response.json()) == (500, {"error": "internal_error"})


def test_frozen_users_may_still_chat(db, settings):
    """Not throttled, frozen not checked (docs/api.md §6)."""
    settings.STGY_AI_PROVIDER = "offline"
    frozen = make_ai_user("Ice", is_frozen=True)
    assert _chat(login_client(frozen), {"messages": HI}).status_code == 200


def test_ai_views_generate_openapi_without_warnings():
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    from agents.api.urls import urlpatterns

    GENERATOR_STATS.reset()
    schema = SchemaGenerator(patterns=urlpatterns).get_schema(request=None, public=True)
    assert "/ai-users/{user_id}/post-impressions/{post_id}" in schema["paths"]
    assert "/ai-users/chat" in schema["paths"]
    assert (dict(GENERATOR_STATS._warn_cache), dict(GENERATOR_STATS._error_cache)) == ({}, {})
