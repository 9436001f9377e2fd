"""The trace of a model call: the exact messages sent, compressed, with their layers.

The gateway makes one for every call that reached the model (agents/llm/gateway.py
`chat`), from the messages it sent and the spans the prompt builder reported
(agents/prompt_layers.py). It travels with the call's usage row (`LlmUsage.call_trace`,
an attribute, not a column) and is saved wherever that row is saved: in the statement
that saves a cycle stage's record (agents/runs/usage_held.py), or by `usage_rows_save`.
Retention: STGY_AI_TRACE_RETENTION_DAYS, pruned by the beat task
agents.prune_call_traces (docs/prompts.md §5).
"""

from __future__ import annotations

import json
import zlib
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from agents.models import LlmCallTrace, LlmUsage
from agents.prompt_layers import Span
from agents.textmeasure import count_pt

_ERROR_LIMIT = 2000


def tracing_on() -> bool:
    return int(settings.STGY_AI_TRACE_RETENTION_DAYS) > 0


def trace_layers(
    messages: list[dict[str, Any]], spans: list[Span]
) -> tuple[list[dict[str, Any]], int, int]:
    """The layers of `messages` (each with its bytes as built and its spans), the
    messages' bytes, and the bytes no layer accounts for (the unaccounted figure: the
    messages' bytes less the bytes the builder put in). Tokens are counted when the
    trace is read (`layers_read`), not on the cycle's path."""
    prompt_bytes = sum(len(str(m.get("content", "")).encode()) for m in messages)
    layers: dict[tuple[str, str], dict[str, Any]] = {}
    built = 0
    for span in spans:
        if not 0 <= span.message < len(messages):
            continue
        built += span.size
        layer = layers.setdefault(
            (span.kind, span.name), {"kind": span.kind, "name": span.name, "bytes": 0, "spans": []}
        )
        layer["bytes"] += span.size
        layer["spans"].append([span.message, span.start, span.end])
    return list(layers.values()), prompt_bytes, max(0, prompt_bytes - built)


def layers_read(
    layers: list[dict[str, Any]], messages: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The stored layers with their text (their spans of the messages, joined) and its
    tokens, in pseudo tokens (agents/textmeasure.py `count_pt`)."""
    out = []
    for layer in layers:
        text = "".join(str(messages[m]["content"])[start:end] for m, start, end in layer["spans"])
        out.append({**layer, "text": text, "tokens": count_pt(text)})
    return out


def trace_row(
    *,
    messages: list[dict[str, Any]],
    spans: list[Span],
    answer: str,
    usage: LlmUsage,
    tier: str,
    json_mode: bool,
) -> LlmCallTrace:
    """An unsaved trace of one call, beside its unsaved usage row."""
    layers, prompt_bytes, unaccounted = trace_layers(messages, spans)
    sent = [
        {"role": str(m.get("role", "")), "content": str(m.get("content", ""))} for m in messages
    ]
    payload = zlib.compress(
        json.dumps({"messages": sent, "answer": answer}, ensure_ascii=False).encode()
    )
    return LlmCallTrace(
        created_at=usage.created_at,
        run_id=usage.run_id,
        user_id=usage.user_id,
        stage=usage.stage,
        task=usage.task,
        tier=tier or "",
        provider=usage.provider,
        model=usage.model,
        json_mode=json_mode,
        outcome=usage.outcome,
        error=usage.error[:_ERROR_LIMIT],
        payload=payload,
        layers=layers,
        prompt_bytes=prompt_bytes,
        unaccounted_bytes=unaccounted,
    )


def trace_content(trace: LlmCallTrace) -> dict[str, Any]:
    """The stored messages and answer: {"messages": [...], "answer": str}."""
    return json.loads(zlib.decompress(bytes(trace.payload)).decode())


def traces_of(rows: list[LlmUsage]) -> list[LlmCallTrace]:
    """The traces that travel with these usage rows."""
    return [row.call_trace for row in rows if getattr(row, "call_trace", None) is not None]


def traces_prune(now=None) -> int:
    """Delete the traces older than the retention; how many."""
    days = max(0, int(settings.STGY_AI_TRACE_RETENTION_DAYS))
    cutoff = (now or timezone.now()) - timedelta(days=days)
    deleted, _ = LlmCallTrace.objects.filter(created_at__lt=cutoff).delete()
    return deleted
