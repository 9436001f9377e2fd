"""The AI routes when the model is down or slow: a fast 503 with an error message, never
a web worker held through the retries, and HEAD /ai-users/chat telling the truth."""

from __future__ import annotations

import threading
import time

import pytest

from agents.llm import gateway
from agents.models import LlmUsage
from sns.core.ids import id_to_hex
from tests.conftest import login_client
from tests.llm_down import HELLO, open_breaker

pytestmark = pytest.mark.django_db

UNAVAILABLE = {"error": "ai service is unavailable"}
HI = {"messages": [{"role": "user", "content": "hi"}]}
MARGIN = 0.5  # seconds on top of the deadline: test-client and thread scheduling overhead


def _chat(client):
    return client.post("/api/ai-users/chat", HI, format="json")


def _timed(call):
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def test_chat_against_a_hanging_model_answers_503_within_the_deadline(
    llm_server, ai_user, settings
):
    settings.STGY_AI_WEB_DEADLINE_MS = 500
    settings.STGY_AI_MAX_RETRIES = 3
    client = login_client(ai_user)
    # A worker's first call also imports the SDK and opens its connection pool; that
    # happens once per process and is not what is measured here.
    assert _chat(client).status_code == 200
    for _ in range(4):
        llm_server.push_chat("too late", delay=3.0)
    response, elapsed = _timed(lambda: _chat(client))
    assert (response.status_code, response.json()) == (503, UNAVAILABLE)
    assert 0.4 <= elapsed < 0.5 + MARGIN
    assert len(llm_server.chat_requests()) == 2  # the deadline left no time for a retry
    row = LlmUsage.objects.exclude(outcome="ok").get()
    assert row.outcome == "error" and "500 ms time limit" in row.error and "timed out" in row.error


def test_the_deadline_covers_backoff_too(llm_server, ai_user, settings):
    settings.STGY_AI_WEB_DEADLINE_MS = 500
    settings.STGY_AI_MAX_RETRIES = 5
    settings.STGY_AI_RETRY_MAX_DELAY = 10.0
    llm_server.push_chat(status=503, headers={"Retry-After": "5"})
    client = login_client(ai_user)
    response, elapsed = _timed(lambda: _chat(client))
    assert (response.status_code, response.json()) == (503, UNAVAILABLE)
    assert elapsed < 0.5 + MARGIN  # it did not sleep the five seconds it was asked to
    assert len(llm_server.chat_requests()) == 1


def test_chat_against_a_dead_port_answers_503(dead_model, ai_user, settings):
    settings.STGY_AI_WEB_DEADLINE_MS = 800
    settings.STGY_AI_MAX_RETRIES = 3
    settings.STGY_AI_RETRY_BASE_DELAY = 1.0  # the production backoff
    settings.STGY_AI_RETRY_MAX_DELAY = 30.0
    client = login_client(ai_user)
    response, elapsed = _timed(lambda: _chat(client))
    assert (response.status_code, response.json()) == (503, UNAVAILABLE)
    assert elapsed < 0.8 + MARGIN
    row = LlmUsage.objects.get()
    assert row.outcome == "error" and "connection error" in row.error.lower()


def test_background_calls_keep_the_normal_policy(llm_server, db, settings):
    """The web deadline is for web requests only: a call outside one waits as long as
    the per-attempt timeout allows."""
    settings.STGY_AI_WEB_DEADLINE_MS = 200
    llm_server.push_chat("slow but fine", delay=0.6)
    assert gateway.chat(messages=HELLO, tier="basic").content == "slow but fine"


def test_open_breaker_answers_503_at_once_and_head_says_so(
    llm_server, ai_user, api, settings, wall_clock
):
    settings.STGY_AI_BREAKER_FAILURES = 2
    settings.STGY_AI_BREAKER_COOLDOWN_SECONDS = 30
    assert api.head("/api/ai-users/chat").status_code == 200
    open_breaker(llm_server, settings)
    assert api.head("/api/ai-users/chat").status_code == 503

    client = login_client(ai_user)
    response, elapsed = _timed(lambda: _chat(client))
    assert (response.status_code, response.json()) == (503, UNAVAILABLE)
    assert elapsed < 0.5
    assert len(llm_server.chat_requests()) == 2  # only the two that opened it
    refused = LlmUsage.objects.get(outcome="refused")
    assert (refused.user_id, refused.stage, refused.attempts) == (ai_user.id, "api", 0)

    wall_clock.advance(31)
    assert api.head("/api/ai-users/chat").status_code == 200  # the next call is the probe
    response = _chat(login_client(ai_user))
    assert (response.status_code, response.json()) == (200, {"message": {"content": "ok"}})
    assert api.head("/api/ai-users/chat").status_code == 200


def test_a_failed_health_check_makes_head_say_503_before_calls_would_open_it(llm_server, api, settings):
    settings.STGY_AI_BREAKER_FAILURES = 5
    assert api.head("/api/ai-users/chat").status_code == 200
    llm_server.push_chat(status=503)
    assert gateway.health_check()["ok"] is False  # one failed check, not five failed calls
    assert api.head("/api/ai-users/chat").status_code == 503
    assert gateway.breaker_state()["state"] == "open"
    assert gateway.health_check()["ok"] is True  # the model is back: so is the route
    assert api.head("/api/ai-users/chat").status_code == 200


def test_a_health_check_the_model_refuses_is_no_news_of_an_outage(llm_server, api):
    llm_server.push_chat(status=400)
    assert gateway.health_check()["ok"] is False
    assert api.head("/api/ai-users/chat").status_code == 200


def test_head_is_501_when_ai_is_off_even_with_an_open_breaker(llm_server, api, settings):
    settings.STGY_AI_BREAKER_FAILURES = 1
    open_breaker(llm_server, settings)
    settings.STGY_AI_PROVIDER = "none"
    assert api.head("/api/ai-users/chat").status_code == 501


def test_budget_is_still_429_and_disabled_still_501(llm_server, ai_user, settings):
    settings.STGY_AI_BREAKER_FAILURES = 1
    settings.STGY_AI_USER_DAILY_TOKEN_BUDGET = 1
    client = login_client(ai_user)
    assert _chat(client).status_code == 200
    assert _chat(client).status_code == 429
    settings.STGY_AI_PROVIDER = "none"
    assert _chat(client).status_code == 501


def test_features_against_a_hanging_embedder_answers_503(llm_server, ai_user, settings):
    settings.STGY_EMBEDDING_PROVIDER = "openai"
    settings.STGY_AI_WEB_DEADLINE_MS = 500
    llm_server.push_embedding(delay=3.0)
    client = login_client(ai_user)
    response, elapsed = _timed(
        lambda: client.post("/api/ai-users/features", {"input": "bread"}, format="json")
    )
    assert (response.status_code, response.json()) == (503, UNAVAILABLE)
    assert elapsed < 0.5 + MARGIN


def test_features_and_interest_embedding_refused_while_open(llm_server, ai_user, settings):
    settings.STGY_EMBEDDING_PROVIDER = "openai"
    settings.STGY_AI_BREAKER_FAILURES = 2
    open_breaker(llm_server, settings)
    client = login_client(ai_user)
    response = client.post("/api/ai-users/features", {"input": "bread"}, format="json")
    assert (response.status_code, response.json()) == (503, UNAVAILABLE)
    # Saving an interest without a vector makes the server embed it: the same refusal.
    body = {"interest": "Bread", "tags": ["baking"]}
    response = client.post(f"/api/ai-users/{id_to_hex(ai_user.id)}/interests", body, format="json")
    assert (response.status_code, response.json()) == (503, UNAVAILABLE)
    assert not llm_server.embedding_requests()
    assert LlmUsage.objects.filter(outcome="refused", task="embedding").count() == 2


def test_admin_llm_check_page_is_bounded_by_the_deadline(llm_server, admin, settings):
    settings.STGY_AI_WEB_DEADLINE_MS = 500
    llm_server.push_chat("late", delay=3.0)
    client = login_client(admin)
    response, elapsed = _timed(lambda: client.post("/agents/llm-check"))
    assert response.status_code == 302
    assert elapsed < 0.5 + MARGIN
    assert gateway.last_health()["ok"] is False
    page = client.get("/agents/activity").content.decode()
    assert "Circuit breaker:" in page and "1 consecutive failed calls" in page


def test_openapi_lists_the_503s(api):
    spec = api.get("/api/openapi.yml", HTTP_ACCEPT="application/json").json()
    chat = spec["paths"]["/api/ai-users/chat"]
    assert {"200", "400", "429", "500", "501", "503"} <= set(chat["post"]["responses"])
    assert "503" in spec["paths"]["/api/ai-users/features"]["post"]["responses"]


def test_waiting_for_a_free_llm_slot_counts_against_the_deadline(llm_server, ai_user, settings):
    settings.STGY_AI_CONCURRENCY = 1
    settings.STGY_AI_WEB_DEADLINE_MS = 500
    client = login_client(ai_user)
    llm_server.push_chat("the only slot, held", delay=1.5)
    # A background call (no deadline) holds the process's one slot; its usage row stays
    # in memory, as a thread of its own cannot write to the test's database.
    background = threading.Thread(
        target=lambda: gateway.chat(messages=HELLO, tier="basic", usage_sink=[])
    )
    background.start()
    while not llm_server.chat_requests():
        time.sleep(0.01)
    response, elapsed = _timed(lambda: _chat(client))
    background.join()
    assert (response.status_code, response.json()) == (503, UNAVAILABLE)
    assert elapsed < 0.5 + MARGIN
    assert len(llm_server.chat_requests()) == 1  # the web call never got to send
    row = LlmUsage.objects.get()
    assert "slot" in row.error and row.attempts == 0
    assert gateway.breaker_state()["failures"] == 0  # no news about the model
