"""The traces of a run's model calls on the run page, and an admin's replay of one
(agents/llm/trace.py, agents/llm/replay.py; docs/prompts.md §5).

`GET /agents/calls/<id>` answers a trace as JSON (what the page polls while a replay is
pending); `POST /agents/calls/<id>/replay` asks for a replay and goes back to the run
page (a call of no run, a summary's, to its JSON). Admins only: others get 403 (JSON from the JSON route, the 403 page from the
form's), an unknown trace 404.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_GET, require_POST

from agents.llm.replay import replay_claim
from agents.llm.trace import layers_read, trace_content
from agents.models import CycleRun, LlmCallTrace
from agents.runner import submit_task
from agents.tasks import replay_call
from sns.api.presenters import iso


def call_trace_view(trace: LlmCallTrace) -> dict[str, Any]:
    content = trace_content(trace)
    layers = layers_read(trace.layers, content["messages"])
    return {
        "trace": trace,
        "messages": content["messages"],
        "answer": content["answer"],
        "layers": layers,
        "tokens": sum(layer["tokens"] for layer in layers),
    }


def run_call_traces(run: CycleRun) -> dict[str, Any]:
    """What the run page's "What each call was shown" section needs."""
    calls = [
        call_trace_view(t)
        for t in LlmCallTrace.objects.filter(run=run).order_by("created_at", "id")
    ]
    return {
        "calls": calls,
        "unaccounted": sum(c["trace"].unaccounted_bytes for c in calls),
        "pending": any(c["trace"].replay_status == LlmCallTrace.Replay.PENDING for c in calls),
    }


def _trace_json(trace: LlmCallTrace) -> dict[str, Any]:
    view = call_trace_view(trace)
    return {
        "id": trace.pk,
        "runId": trace.run_id,
        "stage": trace.stage,
        "task": trace.task,
        "model": trace.model,
        "outcome": trace.outcome,
        "createdAt": iso(trace.created_at),
        "promptBytes": trace.prompt_bytes,
        "unaccountedBytes": trace.unaccounted_bytes,
        "layers": [
            {
                "kind": layer["kind"],
                "name": layer["name"],
                "bytes": layer["bytes"],
                "tokens": layer["tokens"],
            }
            for layer in view["layers"]
        ],
        "messages": view["messages"],
        "answer": view["answer"],
        "replay": {
            "status": trace.replay_status,
            "model": trace.replay_model,
            "answer": trace.replay_answer,
            "error": trace.replay_error,
            "at": iso(trace.replay_at) if trace.replay_at else None,
        },
    }


@require_GET
def call_trace(request, trace_id: int):
    if not request.user.is_authenticated:
        return JsonResponse({"error": "login required"}, status=401)
    if not request.user.is_admin:
        return JsonResponse({"error": "admin only"}, status=403)
    trace = LlmCallTrace.objects.filter(pk=trace_id).first()
    if trace is None:
        return JsonResponse({"error": "call trace not found"}, status=404)
    return JsonResponse(_trace_json(trace))


@login_required
@require_POST
def call_replay(request, trace_id: int):
    if not request.user.is_admin:
        raise PermissionDenied("admin only")
    trace = get_object_or_404(LlmCallTrace.objects.only("id", "run_id"), pk=trace_id)
    if replay_claim(trace.pk):
        submit_task(replay_call, trace.pk)
    if trace.run_id is None:  # a summary's call: its JSON is all there is to show
        return redirect(f"/agents/calls/{trace.pk}")
    return redirect(f"/agents/runs/{trace.run_id}#call-{trace.pk}")
