"""Batch mode: work nobody waits on, through the provider's batch interface.

With STGY_AI_BATCH=on and the `openai` provider, post summaries are not asked one call
at a time: a beat task (agents.summary_batches, agents/summaries/batch.py) sends the
pending ones as one JSONL file of chat requests to `/v1/files` and starts a batch over
it (`/v1/batches`), then polls it every minute. OpenAI-compatible batch endpoints answer
within 24 hours at BATCH_PRICE_FACTOR of the price. Each answer writes its usage row
here, as the gateway writes one per call; a batch that fails or expires, or an answer
missing from it, falls back to a direct call. The cycle's judging stages use it too
(agents/runs/batched.py, agents/cycle/batches.py). The respond path, the chat proxy and
the cycle's writing stages never do: someone may be waiting on them.

A submission is refused, like a call, while the site's daily budget is used up.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings

from agents.budget import budget_refusal

from . import gateway
from .errors import BudgetExceeded, LlmError, ProviderError
from .types import ChatResponse
from .usage import usage_record

log = logging.getLogger(__name__)

BATCH_PRICE_FACTOR = Decimal("0.5")  # what batch endpoints charge against a direct call
ENDED = ("completed", "failed", "expired", "cancelled")
_TIMEOUT_SECONDS = 60.0


def batch_enabled() -> bool:
    on = str(settings.STGY_AI_BATCH or "").strip().lower() in ("on", "true", "1", "yes")
    return on and gateway.provider_name() == "openai"


@dataclass(frozen=True)
class BatchCall:
    """One request of a batch: `gateway.chat`'s arguments (with a tier or a model)."""

    custom_id: str
    call: dict[str, Any]

    @property
    def model(self) -> str:
        return self.call.get("model") or gateway.model_for_tier(self.call["tier"])

    def line(self) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": self.call["messages"]}
        if self.call.get("json_mode"):
            body["response_format"] = {"type": "json_object"}
        return {
            "custom_id": self.custom_id,
            "method": "POST",
            "url": "/v1/chat/completions",
            "body": body,
        }


def batch_submit(calls: list[BatchCall]) -> dict[str, str]:
    """Start a batch over `calls`: {"id", "input_file_id", "status"}. Raises
    BudgetExceeded or LlmError (the caller then makes the calls directly)."""
    from .openai_provider import batch_create

    refusal = budget_refusal()
    if refusal is not None:
        raise BudgetExceeded(refusal)
    try:
        return batch_create([c.line() for c in calls], timeout=_TIMEOUT_SECONDS)
    except ProviderError as exc:
        raise LlmError(f"batch not submitted: {exc}") from exc


@dataclass
class BatchResult:
    status: str
    answers: dict[str, ChatResponse] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)  # custom_id -> why it has no answer


def batch_fetch(batch_id: str, calls: dict[str, BatchCall]) -> BatchResult | None:
    """The batch's answers once it has ended (None while it runs), each recorded as a
    usage row at the batch price. Raises LlmError when the provider cannot be read."""
    from .openai_provider import batch_read, file_text

    try:
        found = batch_read(batch_id, timeout=_TIMEOUT_SECONDS)
        if found["status"] not in ENDED:
            return None
        result = BatchResult(status=found["status"])
        text = (
            file_text(found["output_file_id"], timeout=_TIMEOUT_SECONDS)
            if found["output_file_id"]
            else ""
        )
    except ProviderError as exc:
        raise LlmError(f"batch {batch_id} not read: {exc}") from exc
    for line in text.splitlines():
        _answer(line, calls, result)
    for custom_id in calls:
        if custom_id not in result.answers and custom_id not in result.errors:
            result.errors[custom_id] = f"no answer: the batch ended {result.status}"
    return result


def _answer(line: str, calls: dict[str, BatchCall], result: BatchResult) -> None:
    from .openai_provider import batch_chat_response

    try:
        item = json.loads(line)
        custom_id = item["custom_id"]
        call = calls[custom_id]
    except (ValueError, KeyError, TypeError):
        log.warning("batch: unusable output line %.200r", line)
        return
    fields = dict(
        provider="openai",
        model=call.model,
        task=call.call.get("task", ""),
        stage=call.call.get("stage", ""),
        user_id=call.call.get("user_id"),
        run_id=call.call.get("run_id"),
        attempts=1,
    )
    response = item.get("response") or {}
    try:
        if item.get("error") or response.get("status_code") != 200:
            raise ProviderError(
                f"HTTP {response.get('status_code')}: {item.get('error') or response.get('body')}"[
                    :500
                ],
                retriable=False,
            )
        answer = batch_chat_response(response.get("body"), call.model)
        if not answer.content.strip():
            raise ProviderError("blank content", retriable=False)
    except ProviderError as exc:
        result.errors[custom_id] = exc.message
        usage_record(outcome="error", error=exc.message, **fields)
        return
    result.answers[custom_id] = answer
    usage_record(
        outcome="ok",
        prompt_tokens=answer.prompt_tokens,
        completion_tokens=answer.completion_tokens,
        cached_tokens=answer.cached_tokens,
        price_factor=BATCH_PRICE_FACTOR,
        **fields,
    )
