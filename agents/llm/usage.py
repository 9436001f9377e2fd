"""Usage rows and their cost: one LlmUsage row per gateway call (docs/differences.md item 5).

Prices are per million tokens (input, cached input, output) in US dollars: the default
sheet below, with STGY_AI_PRICES ("model=input:cached_input:output,...") adding models
or overriding its entries (docs/operations.md, "Prices and budgets"). Cached prompt
tokens are a subset of the prompt tokens and are billed at the cached rate; a model
without a price costs 0 (`budget_status` warns about it).
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.utils import timezone

from agents.models import LlmCallTrace, LlmUsage
from stgy.ops.metrics import record_llm_call

log = logging.getLogger(__name__)
_MILLION = Decimal(1_000_000)
_COST_PLACES = Decimal("0.000001")
_ERROR_LIMIT = 2000


@dataclass(frozen=True)
class Price:
    input: Decimal
    cached_input: Decimal
    output: Decimal


# The default price sheet: the default tier models (STGY_AI_MODEL_*) at the list prices of
# the OpenAI models they stand for (advanced ≈ gpt-5, balanced ≈ gpt-5-mini, basic ≈
# gpt-5-nano), and common OpenAI models as published at the time of writing. An
# operator whose prices differ sets STGY_AI_PRICES.
DEFAULT_PRICES = (
    "gpt-5.6-sol=1.25:0.125:10,gpt-5.6-terra=0.25:0.025:2,gpt-5.6-luna=0.05:0.005:0.4,"
    "gpt-5=1.25:0.125:10,gpt-5-mini=0.25:0.025:2,gpt-5-nano=0.05:0.005:0.4,"
    "gpt-4.1=2:0.5:8,gpt-4.1-mini=0.4:0.1:1.6,gpt-4.1-nano=0.1:0.025:0.4,"
    "gpt-4o=2.5:1.25:10,gpt-4o-mini=0.15:0.075:0.6"
)


@functools.lru_cache(maxsize=8)
def _parse_prices(spec: str) -> dict[str, Price]:
    table: dict[str, Price] = {}
    for entry in spec.split(","):
        entry = entry.strip()
        if not entry:
            continue
        model, _, numbers = entry.rpartition("=")
        parts = numbers.split(":")
        try:
            if not model.strip() or len(parts) != 3:
                raise ValueError(entry)
            table[model.strip()] = Price(*(Decimal(p.strip()) for p in parts))
        except (ValueError, InvalidOperation):
            log.warning("ignoring malformed STGY_AI_PRICES entry %r", entry)
    return table


def price_table() -> dict[str, Price]:
    return _parse_prices(DEFAULT_PRICES) | _parse_prices(settings.STGY_AI_PRICES or "")


def unpriced_models() -> list[str]:
    """The configured tier models (and a summary model named outright) without a price."""
    from agents.llm.task_tiers import TIERS

    models = [getattr(settings, f"STGY_AI_MODEL_{tier.upper()}") for tier in TIERS]
    summary = (settings.STGY_AI_SUMMARY_MODEL or "").strip()
    if summary and summary not in TIERS:
        models.append(summary)
    table = price_table()
    return sorted({m for m in models if m and m not in table})


def usage_cost(model: str, *, prompt_tokens: int, cached_tokens: int, completion_tokens: int) -> Decimal:
    price = price_table().get(model)
    if price is None:
        return Decimal(0)
    cached = min(max(cached_tokens, 0), max(prompt_tokens, 0))
    fresh = max(prompt_tokens, 0) - cached
    total = fresh * price.input + cached * price.cached_input + max(completion_tokens, 0) * price.output
    return (total / _MILLION).quantize(_COST_PLACES)


def usage_row(
    *,
    provider: str,
    model: str,
    outcome: str,
    task: str = "",
    stage: str = "",
    user_id: int | None = None,
    run_id: int | None = None,
    prompt_tokens: int = 0,
    completion_tokens: int = 0,
    cached_tokens: int = 0,
    latency_ms: int = 0,
    attempts: int = 0,
    error: str = "",
    price_factor: Decimal = Decimal(1),
) -> LlmUsage:
    """An unsaved usage row; `usage_record` saves it at once. Every gateway call makes
    exactly one, so the Prometheus counters of model calls are counted here; so does
    every answer of a batch, at the batch's `price_factor` (agents/llm/batch.py)."""
    row = LlmUsage(
        created_at=timezone.now(),
        user_id=user_id,
        run_id=run_id,
        stage=stage[:40],
        task=task[:40],
        provider=provider[:20],
        model=model[:100],
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        cached_tokens=cached_tokens,
        cost=(usage_cost(
            model, prompt_tokens=prompt_tokens, cached_tokens=cached_tokens, completion_tokens=completion_tokens
        ) * price_factor).quantize(_COST_PLACES),
        latency_ms=latency_ms,
        attempts=attempts,
        outcome=outcome,
        error=error[:_ERROR_LIMIT],
    )
    record_llm_call(
        provider=row.provider, model=row.model, task=row.task, outcome=outcome,
        prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
        cached_tokens=cached_tokens, cost=row.cost, latency_ms=latency_ms,
    )
    return row


def usage_record(**fields) -> LlmUsage:
    row = usage_row(**fields)
    usage_rows_save([row])
    return row


def usage_rows_save(rows: list[LlmUsage]) -> None:
    """Save unsaved usage rows and the call traces that travel with them
    (agents/llm/trace.py): one statement each."""
    if not rows:
        return
    if len(rows) == 1:
        rows[0].save(force_insert=True)
    else:
        LlmUsage.objects.bulk_create(rows)
    traces = [row.call_trace for row in rows if getattr(row, "call_trace", None) is not None]
    if traces:
        LlmCallTrace.objects.bulk_create(traces)
