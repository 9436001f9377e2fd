"""The LLM gateway against the local OpenAI-compatible server, through the real client."""

from __future__ import annotations

import threading
import time
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command

from agents.llm import gateway
from agents.llm.errors import (
    BudgetExceeded,
    LlmDisabled,
    LlmRequestError,
    LlmTransientError,
    ProviderError,
)
from agents.llm.retry import RetryPolicy, backoff_delay, call_with_retries
from agents.models import LlmUsage
from tests.llm_server import error_body


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """The cast logs in with force_login; a cheap hasher keeps user creation fast."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


HELLO = [{"role": "user", "content": "hello"}]


def _usage():
    return list(LlmUsage.objects.order_by("id"))


# ----------------------------------------------------------------------------- config


def test_tiers_and_models(settings):
    settings.STGY_AI_PROVIDER = "openai"
    settings.STGY_AI_MODEL_BASIC = "small-model"
    assert gateway.model_for_tier("basic") == "small-model"
    assert [t["label"] for t in gateway.tiers()] == ["advanced", "balanced", "basic"]
    assert gateway.tiers()[2] == {"label": "basic", "service": "openai", "chatModel": "small-model"}
    with pytest.raises(ValueError):
        gateway.model_for_tier("huge")


def test_provider_none_is_disabled(settings, db):
    settings.STGY_AI_PROVIDER = "none"
    assert not gateway.ai_enabled()
    with pytest.raises(LlmDisabled, match="ai features are disabled"):
        gateway.chat(messages=HELLO, tier="basic")
    assert not LlmUsage.objects.exists()


def test_offline_provider_records_usage(settings, ai_user):
    settings.STGY_AI_PROVIDER = "offline"
    response = gateway.chat(messages=HELLO, tier="balanced", user_id=ai_user.id, stage="t")
    assert response.content.strip()
    (row,) = _usage()
    assert (row.provider, row.model, row.outcome, row.user_id, row.stage) == (
        "offline", settings.STGY_AI_MODEL_BALANCED, "ok", ai_user.id, "t"
    )


# ----------------------------------------------------------------------------- calls


def test_success_sends_model_and_json_mode(llm_server, db, settings):
    settings.STGY_AI_MODEL_ADVANCED = "big-model"
    llm_server.push_chat('{"a": 1}')
    response = gateway.chat(messages=HELLO, tier="advanced", json_mode=True, task="interest")
    assert response.content == '{"a": 1}'
    (request,) = llm_server.chat_requests()
    assert request.body["model"] == "big-model"
    assert request.body["messages"] == HELLO
    assert request.body["response_format"] == {"type": "json_object"}
    assert request.headers["authorization"] == "Bearer test"
    (row,) = _usage()
    assert (row.task, row.outcome, row.attempts, row.provider) == ("interest", "ok", 1, "openai")


def test_explicit_model_wins_and_no_json_mode(llm_server, db):
    gateway.chat(messages=HELLO, tier="basic", model="custom-model")
    (request,) = llm_server.chat_requests()
    assert request.body["model"] == "custom-model"
    assert "response_format" not in request.body


def test_retries_429_and_500_then_succeeds(llm_server, db):
    llm_server.push_chat(status=429)
    llm_server.push_chat(status=500)
    llm_server.push_chat("finally")
    assert gateway.chat(messages=HELLO, tier="basic").content == "finally"
    assert len(llm_server.chat_requests()) == 3
    (row,) = _usage()
    assert (row.outcome, row.attempts) == ("ok", 3)


def test_gives_up_after_max_retries(llm_server, db, settings):
    settings.STGY_AI_MAX_RETRIES = 2
    for _ in range(5):
        llm_server.push_chat(status=503)
    with pytest.raises(LlmTransientError) as info:
        gateway.chat(messages=HELLO, tier="basic")
    assert info.value.attempts == 3
    assert len(llm_server.chat_requests()) == 3
    (row,) = _usage()
    assert (row.outcome, row.attempts) == ("error", 3)
    assert "503" in row.error


@pytest.mark.parametrize("status", [400, 401, 404, 422])
def test_no_retry_on_client_errors(llm_server, db, status):
    llm_server.push_chat(status=status, body=error_body("bad request", "invalid_request_error"))
    with pytest.raises(LlmRequestError):
        gateway.chat(messages=HELLO, tier="basic")
    assert len(llm_server.chat_requests()) == 1
    (row,) = _usage()
    assert (row.outcome, row.attempts) == ("error", 1)


def test_timeout_is_retried_then_transient_error(llm_server, db, settings):
    settings.STGY_AI_RPC_TIMEOUT_MS = 200
    settings.STGY_AI_MAX_RETRIES = 1
    llm_server.push_chat(delay=1.0)
    llm_server.push_chat(delay=1.0)
    started = time.monotonic()
    with pytest.raises(LlmTransientError, match="timed out"):
        gateway.chat(messages=HELLO, tier="basic")
    assert time.monotonic() - started < 1.5  # the client gave up, it did not wait the delays out
    assert len(llm_server.chat_requests()) == 2
    assert _usage()[0].attempts == 2


def test_timeout_then_success(llm_server, db, settings):
    settings.STGY_AI_RPC_TIMEOUT_MS = 200
    llm_server.push_chat(delay=1.0)
    llm_server.push_chat("late but fine")
    assert gateway.chat(messages=HELLO, tier="basic").content == "late but fine"


def test_retry_after_is_honoured(llm_server, db, settings):
    settings.STGY_AI_RETRY_MAX_DELAY = 5.0
    llm_server.push_chat(status=429, headers={"Retry-After": "1"})
    llm_server.push_chat("ok")
    gateway.chat(messages=HELLO, tier="basic")
    first, second = llm_server.chat_requests()
    assert 0.95 <= second.at - first.at < 3.0


def test_retry_after_is_capped_by_max_delay(llm_server, db, settings):
    settings.STGY_AI_RETRY_MAX_DELAY = 0.1
    llm_server.push_chat(status=503, headers={"Retry-After": "30"})
    llm_server.push_chat("ok")
    started = time.monotonic()
    gateway.chat(messages=HELLO, tier="basic")
    assert time.monotonic() - started < 2.0


def test_blank_content_is_an_error_not_retried(llm_server, db):
    llm_server.push_chat("   ", prompt_tokens=5, completion_tokens=1)
    with pytest.raises(LlmRequestError, match="blank"):
        gateway.chat(messages=HELLO, tier="basic")
    assert len(llm_server.chat_requests()) == 1
    (row,) = _usage()
    assert (row.outcome, row.prompt_tokens, row.completion_tokens) == ("error", 5, 1)


@pytest.mark.parametrize("body", ["this is not json", {"unexpected": True}, {"choices": []}])
def test_malformed_answers_are_request_errors(llm_server, db, body):
    llm_server.push_chat(body=body)
    with pytest.raises(LlmRequestError):
        gateway.chat(messages=HELLO, tier="basic")
    assert len(llm_server.chat_requests()) == 1


def test_usage_tokens_cached_tokens_and_cost(llm_server, ai_user, settings):
    settings.STGY_AI_MODEL_BASIC = "priced-model"
    settings.STGY_AI_PRICES = "other=1:1:1, priced-model=2:0.5:8"
    llm_server.push_chat("ok", prompt_tokens=1000, completion_tokens=100, cached_tokens=400)
    response = gateway.chat(messages=HELLO, tier="basic", user_id=ai_user.id, stage="reply", task="reply-post")
    assert (response.prompt_tokens, response.completion_tokens, response.cached_tokens) == (1000, 100, 400)
    (row,) = _usage()
    assert (row.prompt_tokens, row.completion_tokens, row.cached_tokens) == (1000, 100, 400)
    # 600 fresh × 2 + 400 cached × 0.5 + 100 out × 8, per million tokens
    assert row.cost == Decimal("0.002200")
    assert (row.user_id, row.stage, row.task, row.model) == (ai_user.id, "reply", "reply-post", "priced-model")
    assert row.latency_ms >= 0 and row.created_at is not None


def test_unpriced_model_costs_nothing(llm_server, db, settings):
    settings.STGY_AI_MODEL_BASIC = "llama-local"
    settings.STGY_AI_PRICES = "somebody-else=1:1:1,garbage"
    gateway.chat(messages=HELLO, tier="basic")
    assert _usage()[0].cost == Decimal(0)


def test_the_default_price_sheet_prices_the_default_models_from_the_first_call(llm_server, db, settings):
    llm_server.push_chat("ok", prompt_tokens=1000, completion_tokens=100, cached_tokens=400)
    gateway.chat(messages=HELLO, tier="basic")  # gpt-5.6-luna: 0.05 : 0.005 : 0.4 per million
    # 600 fresh × 0.05 + 400 cached × 0.005 + 100 out × 0.4, per million tokens
    assert _usage()[0].cost == Decimal("0.000072")
    settings.STGY_AI_PRICES = "gpt-5.6-luna=1:0.1:2"  # an operator's own prices win
    llm_server.push_chat("ok", prompt_tokens=1000, completion_tokens=100, cached_tokens=400)
    gateway.chat(messages=HELLO, tier="basic")
    assert _usage()[-1].cost == Decimal("0.000840")


# ----------------------------------------------------------------------------- budgets


def test_site_budget_refuses_before_calling(llm_server, ai_user, human, settings):
    settings.STGY_AI_SITE_DAILY_TOKEN_BUDGET = 12
    llm_server.push_chat("ok", prompt_tokens=10, completion_tokens=2)
    gateway.chat(messages=HELLO, tier="basic", user_id=human.id)
    with pytest.raises(BudgetExceeded, match="site daily token budget"):
        gateway.chat(messages=HELLO, tier="basic", user_id=ai_user.id)
    assert len(llm_server.chat_requests()) == 1
    refused = LlmUsage.objects.get(outcome="refused")
    assert (refused.user_id, refused.attempts, refused.prompt_tokens) == (ai_user.id, 0, 0)
    assert "site daily token budget" in refused.error


def test_user_budget_refuses_only_that_user(llm_server, ai_user, human, settings):
    settings.STGY_AI_USER_DAILY_TOKEN_BUDGET = 12
    llm_server.push_chat("ok", prompt_tokens=10, completion_tokens=2)
    gateway.chat(messages=HELLO, tier="basic", user_id=ai_user.id)
    with pytest.raises(BudgetExceeded, match="user daily token budget"):
        gateway.chat(messages=HELLO, tier="basic", user_id=ai_user.id)
    gateway.chat(messages=HELLO, tier="basic", user_id=human.id)  # another user is fine
    assert len(llm_server.chat_requests()) == 2
    assert LlmUsage.objects.filter(outcome="refused", user_id=ai_user.id).count() == 1


def test_yesterdays_usage_does_not_count(llm_server, ai_user, settings):
    from datetime import timedelta

    from django.utils import timezone

    settings.STGY_AI_USER_DAILY_TOKEN_BUDGET = 12
    llm_server.push_chat("ok", prompt_tokens=10, completion_tokens=2)
    gateway.chat(messages=HELLO, tier="basic", user_id=ai_user.id)
    LlmUsage.objects.update(created_at=timezone.now() - timedelta(days=1))
    gateway.chat(messages=HELLO, tier="basic", user_id=ai_user.id)
    assert not LlmUsage.objects.filter(outcome="refused").exists()


# ----------------------------------------------------------------------------- retry helper


def test_backoff_is_full_jitter_bounded():
    policy = RetryPolicy(max_retries=5, base_delay=1.0, max_delay=3.0, timeout=1.0)
    delays = [backoff_delay(retry, policy) for retry in (1, 2, 3, 4, 5) for _ in range(50)]
    assert all(0.0 <= d <= 3.0 for d in delays)
    assert max(backoff_delay(1, policy) for _ in range(50)) <= 1.0
    assert backoff_delay(1, policy, retry_after=2.0) == 2.0
    assert backoff_delay(1, policy, retry_after=60.0) == 3.0


def test_concurrency_slots_bound_calls_in_flight(settings):
    settings.STGY_AI_CONCURRENCY = 2
    policy = RetryPolicy(max_retries=0, base_delay=0, max_delay=0, timeout=1.0)
    lock, state = threading.Lock(), {"now": 0, "peak": 0}

    def attempt(_timeout):
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        time.sleep(0.05)
        with lock:
            state["now"] -= 1
        return "ok"

    threads = [
        threading.Thread(target=call_with_retries, args=(attempt,), kwargs={"policy": policy})
        for _ in range(6)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert state["peak"] == 2


def test_non_retriable_provider_error_stops_at_once():
    calls = []

    def attempt(_timeout):
        calls.append(1)
        raise ProviderError("bad", retriable=False, status=400)

    with pytest.raises(LlmRequestError):
        call_with_retries(attempt, policy=RetryPolicy(3, 0.0, 0.0, 1.0), sleep=lambda s: None)
    assert len(calls) == 1


# ----------------------------------------------------------------------------- health


def test_health_check_generates_one_token(llm_server, db, settings):
    settings.STGY_AI_MODEL_BASIC = "tiny"
    result = gateway.health_check()
    assert result["ok"] is True and result["provider"] == "openai" and result["model"] == "tiny"
    assert result["error"] == "" and result["latency_ms"] >= 0
    (request,) = llm_server.chat_requests()
    assert request.body["max_completion_tokens"] == 1 and request.body["model"] == "tiny"
    assert gateway.last_health()["ok"] is True
    assert LlmUsage.objects.get().task == "health"


def test_health_check_without_token_limit_support(llm_server, db):
    rejected = error_body("Unsupported parameter: 'max_completion_tokens'", "invalid_request_error")
    llm_server.push_chat(status=400, body=rejected)
    llm_server.push_chat("ok")
    assert gateway.health_check()["ok"] is True
    first, second = llm_server.chat_requests()
    assert "max_completion_tokens" in first.body and "max_completion_tokens" not in second.body


def test_health_check_reports_disabled(settings, db):
    settings.STGY_AI_PROVIDER = "none"
    result = gateway.health_check()
    assert result["ok"] is False and result["error"] == "ai features are disabled"


def test_llmcheck_command_succeeds(llm_server, db, capsys):
    call_command("llmcheck")
    assert '"ok": true' in capsys.readouterr().out


def test_llmcheck_command_fails_on_500(llm_server, db, capsys):
    llm_server.push_chat(status=500)
    with pytest.raises(CommandError, match="LLM check failed"):
        call_command("llmcheck")
    assert '"ok": false' in capsys.readouterr().out
