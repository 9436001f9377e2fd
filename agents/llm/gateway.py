"""The LLM gateway: every chat call of the site goes through `chat()`.

It maps a tier to a model, refuses calls over the daily token budgets, bounds the
calls in flight, applies the timeout and retry policy of `agents.llm.retry` (with its
circuit breaker and the web time limit) and writes exactly one LlmUsage row per call
(ok, error or refused). Providers: `openai` (any OpenAI-compatible endpoint), `offline`
(a deterministic stand-in) and `none` (AI off).

Callers never hold a database transaction across `chat()` (docs/architecture.md, convention 8), so the
usage row is written in autocommit and survives whatever the caller does next.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError
from django.utils import timezone

from agents.budget import budget_refusal
from agents.models import LlmUsage

from .breaker import BreakerRead, breaker_state
from .errors import (
    BudgetExceeded,
    LlmDeadlineExceeded,
    LlmDisabled,
    LlmError,
    LlmRequestError,
    LlmTransientError,
    LlmUnavailable,
    ProviderError,
)
from .retry import RetryPolicy, call_with_retries
from .trace import trace_row, tracing_on
from .types import ChatRequest, ChatResponse
from .usage import usage_record, usage_row, usage_rows_save

__all__ = [
    "BudgetExceeded", "LlmDeadlineExceeded", "LlmDisabled", "LlmError", "LlmRequestError",
    "LlmTransientError", "LlmUnavailable", "TIERS", "accepting_calls", "ai_enabled",
    "breaker_state", "chat", "health_check", "last_health", "model_for_tier", "model_ready",
    "provider_name", "tiers",
]

log = logging.getLogger(__name__)

TIERS = ("advanced", "balanced", "basic")
HEALTH_CACHE_KEY = "agents:llm:health"
PROVIDERS = ("openai", "offline", "none")


def provider_name() -> str:
    return (settings.STGY_AI_PROVIDER or "none").strip().lower()


def ai_enabled() -> bool:
    return provider_name() != "none"


def model_for_tier(tier: str) -> str:
    if tier not in TIERS:
        raise ValueError(f"not an AI tier: {tier!r}")
    return getattr(settings, f"STGY_AI_MODEL_{tier.upper()}")


def tiers() -> list[dict[str, str]]:
    service = provider_name()
    return [{"label": tier, "service": service, "chatModel": model_for_tier(tier)} for tier in TIERS]


# One provider object per process and provider name; the openai provider keys its SDK
# client on the key and base URL, so a settings override switches both.
_providers_lock = threading.Lock()
_providers: dict[str, Any] = {}


def _provider() -> Any:
    name = provider_name()
    if name == "none":
        raise LlmDisabled()
    if name not in PROVIDERS:
        raise LlmRequestError(f"unknown STGY_AI_PROVIDER {name!r}")
    with _providers_lock:
        provider = _providers.get(name)
        if provider is None:
            if name == "openai":
                from .openai_provider import OpenAiProvider

                provider = OpenAiProvider()
            else:
                from .offline import OfflineProvider

                provider = OfflineProvider()
            _providers[name] = provider
        return provider


def _attempt(provider: Any, request: ChatRequest, timeout: float, max_tokens: int | None) -> ChatResponse:
    try:
        if provider.name == "openai":
            return provider.complete(request, timeout=timeout, max_tokens=max_tokens)
        # The offline stand-in is local and deterministic: no timeout, nothing to retry.
        return provider.complete(request)
    except ProviderError:
        raise
    except Exception as exc:  # a bug or a surprise from a provider: fail, never retry
        raise ProviderError(f"{provider.name} provider: {type(exc).__name__}: {exc}", retriable=False) from exc


def _ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)


def _complete(
    provider: Any,
    request: ChatRequest,
    record: Callable[..., Any],
    *,
    policy: RetryPolicy | None = None,
    max_tokens: int | None = None,
    allow_blank: bool = False,
    force: bool = False,
    breaker: BreakerRead | None = None,
) -> ChatResponse:
    started = time.monotonic()
    try:
        response, attempts = call_with_retries(
            lambda timeout: _attempt(provider, request, timeout, max_tokens),
            policy=policy,
            force=force,
            breaker=breaker,
        )
    except LlmError as exc:
        if isinstance(exc, LlmUnavailable) and not exc.attempts:
            # Refused by the breaker before reaching the model, as an exhausted budget is.
            record(outcome="refused", attempts=0, error=exc.message)
            raise
        log.warning("LLM call failed (%s, %s, %d attempts): %s", request.task, request.model, exc.attempts, exc)
        record(outcome="error", latency_ms=_ms(started), attempts=exc.attempts, error=exc.message)
        raise
    tokens = {
        "prompt_tokens": response.prompt_tokens,
        "completion_tokens": response.completion_tokens,
        "cached_tokens": response.cached_tokens,
    }
    if not allow_blank and not response.content.strip():
        record(outcome="error", latency_ms=_ms(started), attempts=attempts, error="blank content", **tokens)
        raise LlmRequestError("the model returned blank content", attempts=attempts)
    record(outcome="ok", latency_ms=_ms(started), attempts=attempts, answer=response.content, **tokens)
    return response


def chat(
    *,
    messages: list[dict],
    tier: str | None = None,
    model: str | None = None,
    task: str = "chat",
    locale: str = "en",
    json_mode: bool = False,
    inputs: dict | None = None,
    user_id: int | None = None,
    run_id: int | None = None,
    stage: str = "",
    usage_sink: list | None = None,
    breaker: BreakerRead | None = None,
    spans: list | None = None,
    trace: bool = True,
) -> ChatResponse:
    """One chat completion. `model` wins over `tier`; one of them is required.

    A call that reaches the model leaves a trace (agents/llm/trace.py) beside its usage
    row: the messages, the answer, and the layers of `spans`, what the prompt builder
    reported (agents/prompt_layers.py); a caller without spans leaves every byte
    unaccounted. `trace=False` for calls whose messages are not an AI user's prompt
    (the chat proxy's, an admin's replay of a traced call).

    With `usage_sink` the usage row is appended to it unsaved and the caller saves the
    rows (the cycle's parallel jobs hand theirs to the stage thread, which writes them in
    one statement instead of each job thread opening a database connection). `breaker`:
    the caller's recent read of the circuit breaker (`agents.llm.breaker.breaker_read`),
    taken for its state while it is fresh.

    Raises LlmDisabled, BudgetExceeded, LlmUnavailable (the circuit breaker is open),
    LlmTransientError (LlmDeadlineExceeded when a web request's time limit ran out) or
    LlmRequestError.
    """
    provider = _provider()
    resolved = model or (model_for_tier(tier) if tier else "")
    if not resolved:
        raise ValueError("chat() needs a tier or a model")
    request = ChatRequest(
        messages=[dict(m) for m in messages],
        model=resolved,
        task=task,
        locale=locale,
        json_mode=json_mode,
        inputs=dict(inputs or {}),
    )

    traced = trace and tracing_on()

    def record(*, answer: str = "", **fields: Any) -> None:
        fields.update(provider=provider.name, model=resolved, task=task, stage=stage, user_id=user_id, run_id=run_id)
        row = usage_row(**fields)
        if traced and row.outcome != LlmUsage.Outcome.REFUSED:  # a refused call sent nothing
            row.call_trace = trace_row(
                messages=request.messages, spans=spans or [], answer=answer, usage=row, tier="" if model else (tier or ""),
                json_mode=json_mode,
            )
        if usage_sink is not None:
            usage_sink.append(row)
        else:
            usage_rows_save([row])

    refusal = budget_refusal(user_id=user_id)
    if refusal is not None:
        record(outcome="refused", attempts=0, error=refusal)
        raise BudgetExceeded(refusal)
    return _complete(provider, request, record, breaker=breaker)


def _mentions_token_limit(message: str) -> bool:
    return "max_tokens" in message or "max_completion_tokens" in message


def health_check(*, force: bool = True) -> dict:
    """Generate (at most) one token with the basic tier through the configured provider.

    One attempt, no budget check (an operator asked for it); the call still writes a
    usage row. With `force` it is made even while the circuit breaker is open; either
    way its outcome counts, so a success closes the breaker. The result, with the
    breaker's state, is kept in the cache for status pages (`last_health()`).
    """
    result: dict[str, Any] = {
        "ok": False, "provider": provider_name(), "model": "", "latency_ms": 0, "error": "",
    }
    started = time.monotonic()
    try:
        provider = _provider()
        model = model_for_tier("basic")
        result["model"] = model
        request = ChatRequest(messages=[{"role": "user", "content": "Reply with: ok"}], model=model)
        policy = replace(RetryPolicy.from_settings(), max_retries=0)

        def record(*, answer: str = "", **fields: Any) -> None:
            # Best effort: the check is about the model, and must work before migrations.
            try:
                usage_record(provider=provider.name, model=model, task="health", **fields)
            except DatabaseError as exc:
                log.warning("health check: usage row not written: %s", exc)

        check = dict(policy=policy, allow_blank=True, force=force)
        try:
            _complete(provider, request, record, max_tokens=1, **check)
        except LlmRequestError as exc:
            # Some endpoints reject a completion-token limit (or one this small);
            # then one unbounded attempt still proves the model answers.
            if not _mentions_token_limit(exc.message):
                raise
            _complete(provider, request, record, **check)
        result["ok"] = True
    except LlmError as exc:
        result["error"] = exc.message
    except Exception as exc:  # a health check reports, it does not crash
        log.exception("health check failed")
        result["error"] = f"{type(exc).__name__}: {exc}"
    result["latency_ms"] = _ms(started)
    result["checked_at"] = timezone.now().isoformat()
    result["breaker"] = breaker_state()
    try:
        cache.set(HEALTH_CACHE_KEY, result, timeout=None)
    except Exception as exc:  # the cache may be down too; the check still reports
        log.warning("health check: result not cached: %s", exc)
    return result


def last_health() -> dict | None:
    """The last health check (None if there was none), with the circuit breaker's state
    as it is now rather than as it was then."""
    try:
        found = cache.get(HEALTH_CACHE_KEY)
    except Exception as exc:
        log.warning("health check: cached result unreadable: %s", exc)
        return None
    return None if found is None else {**found, "breaker": breaker_state()}


def accepting_calls() -> bool:
    """False while the circuit breaker refuses calls (what HEAD /ai-users/chat reports)."""
    return ai_enabled() and breaker_state()["state"] != "open"


def model_ready() -> bool:
    """For background work that should wait out an outage instead of failing through it
    (the cycle dispatcher, the summary sweep): True when the breaker is closed. When its
    cool-down is over, this makes the half-open probe itself — one token — so the work
    resumes even if no other call comes along to close the breaker."""
    state = breaker_state()["state"]
    if state in ("closed", "disabled"):
        return True
    if state == "open":
        return False
    return health_check(force=False)["ok"]  # admitted as the breaker's probe
