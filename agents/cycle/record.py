"""The run record as JSON, for runcycle --json, the admin pages and the API."""

from __future__ import annotations

from typing import Any

from agents.models import CycleRun
from sns.api.presenters import iso
from sns.ids import id_to_hex


def run_record_json(run: CycleRun) -> dict[str, Any]:
    return {
        "id": run.pk,
        "kind": run.kind,
        "user": {"id": id_to_hex(run.user_id), "nickname": run.user.nickname, "aiModel": run.user.ai_model},
        "status": run.status,
        "startedAt": iso(run.started_at),
        "finishedAt": iso(run.finished_at),
        "elapsedMs": run.elapsed_ms,
        "stages": run.stages,
        "llmCalls": run.llm_calls,
        "promptTokens": run.prompt_tokens,
        "completionTokens": run.completion_tokens,
        "cachedTokens": run.cached_tokens,
        "cost": str(run.cost),
        "details": run.details,
    }
