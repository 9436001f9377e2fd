"""An admin's replay of a traced model call (docs/prompts.md §5): the same messages
sent again, to the model the call's tier names now, and the answer kept beside the old
one on the trace. Nothing else is written: no memory, post or run record, only the
replay's result on the trace and the call's usage row (stage "replay", no run, no
user, so it counts against the site's budget and not the AI user's).

The call runs in the task agents.replay_call, never in the admin's request; the run
page shows "pending" until the task has written the answer.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from agents.models import LlmCallTrace

from . import gateway
from .errors import LlmError
from .trace import trace_content

log = logging.getLogger(__name__)

REPLAY_STAGE = "replay"
# A replay still pending after this long lost its task (a publish that failed, a worker
# that died): it may be asked for again.
PENDING_RETRY_AFTER = timedelta(minutes=10)


def replay_claim(trace_id: int) -> bool:
    """Mark the trace's replay pending, for the caller to hand the task to a worker;
    False when a replay of it is already pending (or the trace is gone)."""
    now = timezone.now()
    return bool(
        LlmCallTrace.objects.filter(pk=trace_id)
        .filter(
            ~Q(replay_status=LlmCallTrace.Replay.PENDING)
            | Q(replay_at__lt=now - PENDING_RETRY_AFTER)
        )
        .update(replay_status=LlmCallTrace.Replay.PENDING, replay_at=now, replay_error="")
    )


def replay_run(trace_id: int) -> str:
    """The task's work: send the trace's messages again and keep the answer on it."""
    trace = LlmCallTrace.objects.filter(pk=trace_id).first()
    if trace is None:
        return "gone"
    messages = trace_content(trace)["messages"]
    target = {"tier": trace.tier} if trace.tier in gateway.TIERS else {"model": trace.model}
    try:
        response = gateway.chat(
            messages=messages,
            task=trace.task,
            json_mode=trace.json_mode,
            stage=REPLAY_STAGE,
            trace=False,
            **target,
        )
    except LlmError as exc:
        _replay_save(trace_id, LlmCallTrace.Replay.FAILED, error=exc.message)
        return "failed"
    except Exception as exc:  # shown on the page, never raised into the worker
        log.exception("replay of trace %s failed", trace_id)
        _replay_save(trace_id, LlmCallTrace.Replay.FAILED, error=f"{type(exc).__name__}: {exc}")
        return "failed"
    model = gateway.model_for_tier(trace.tier) if "tier" in target else trace.model
    _replay_save(trace_id, LlmCallTrace.Replay.DONE, answer=response.content, model=model)
    return "done"


def _replay_save(
    trace_id: int, status: str, *, answer: str = "", model: str = "", error: str = ""
) -> None:
    LlmCallTrace.objects.filter(pk=trace_id).update(
        replay_status=status,
        replay_answer=answer,
        replay_model=model,
        replay_error=error[:2000],
        replay_at=timezone.now(),
    )
