"""The stale-lease sweep: a run still "running" whose lease has lapsed belongs to a
worker that died (or whose tasks were lost); end it, and say why on its record.

A cycle run holds the cycle lease while it lives (every stage renews it,
STGY_AI_USER_LOCK_SECONDS), a respond run the respond lease (STGY_RESPOND_LEASE_SECONDS).
A live run renews its lease long before it lapses, and the broker redelivers a killed
stage before the lease lapses (stgy/settings/tasks.py says how the two durations agree), so
a run past its lease is not coming back: its redelivered tasks find it ended and do
nothing (agents/cycle/run.py), the dispatcher starts the user's next cycle when it is
due, and the respond sweep hands the events the run had claimed to a new respond run.
Runs by `agents.sweep_stale_runs` (beat, every minute) and the embedded loop.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q, Sum
from django.utils import timezone

from agents.models import AgentState, CycleRun, LlmBatch, LlmUsage
from sns.api.presenters import iso

log = logging.getLogger(__name__)

# A run is inserted a statement before it claims its lease (on PostgreSQL a cycle run
# in the same statement): younger than this, a run without a lease is not stale yet.
CLAIM_GRACE = timedelta(seconds=10)
RUNS_LIMIT = 500  # runs ended per sweep; the next sweep takes the rest
_LEASES = {  # a run's kind -> the AgentState columns of its lease
    CycleRun.Kind.CYCLE: ("lease_run", "lease_until"),
    CycleRun.Kind.RESPOND: ("respond_lease_run", "respond_lease_until"),
}


def _live_lease(kind: str, now) -> Exists:
    run_col, until_col = _LEASES[kind]
    return Exists(
        AgentState.objects.filter(
            user_id=OuterRef("user_id"), **{run_col: OuterRef("pk"), f"{until_col}__gte": now}
        )
    )


def runs_stale_end() -> int:
    """End every running run without a live lease; the number ended."""
    now = timezone.now()
    without_lease = Q()
    for kind in _LEASES:
        without_lease |= Q(kind=kind) & ~_live_lease(kind, now)
    # A run waiting on a batch keeps its lease (lease.py `lease_hold`); it is stale
    # only when the batch it waits on is gone or was given up long ago (_batch_gone).
    waiting = Q(kind=CycleRun.Kind.CYCLE, details__has_key="batchWait")
    stale = CycleRun.objects.filter(
        without_lease | waiting, status=CycleRun.Status.RUNNING, started_at__lt=now - CLAIM_GRACE
    ).values_list("pk", flat=True)
    ended = 0
    for run_id in list(stale[:RUNS_LIMIT]):
        ended += run_stale_end(run_id, now)
    return ended


def run_stale_end(run_id: int, now) -> bool:
    """End the run if it is still running without a live lease (checked again with the
    run's row locked, so a stage saving meanwhile is not overwritten); True if ended."""
    with transaction.atomic():
        run = CycleRun.objects.select_for_update().filter(pk=run_id, status=CycleRun.Status.RUNNING).first()
        if run is None:
            return False
        run_col, until_col = _LEASES[run.kind]
        state = AgentState.objects.filter(user_id=run.user_id).values(run_col, until_col).first()
        holder, until = (state[run_col], state[until_col]) if state else (None, None)
        gone = _batch_gone(run, now)
        if gone is None and holder == run.pk and until is not None and until >= now:
            return False  # renewed meanwhile (or waiting on a batch): alive
        totals = LlmUsage.objects.filter(run_id=run.pk).aggregate(
            calls=Count("id"), prompt=Sum("prompt_tokens"), completion=Sum("completion_tokens"),
            cached=Sum("cached_tokens"), cost=Sum("cost"),
        )
        run.details["staleLease"] = {"endedAt": iso(now), "reason": gone or _reason(run, holder, until)}
        run.status = CycleRun.Status.FAILED
        run.finished_at = now
        run.elapsed_ms = int((now - run.started_at).total_seconds() * 1000)
        run.llm_calls = totals["calls"]
        run.prompt_tokens = totals["prompt"] or 0
        run.completion_tokens = totals["completion"] or 0
        run.cached_tokens = totals["cached"] or 0
        run.cost = totals["cost"] or 0
        run.save(update_fields=[
            "details", "status", "finished_at", "elapsed_ms", "llm_calls", "prompt_tokens",
            "completion_tokens", "cached_tokens", "cost",
        ])
        if holder == run.pk:  # the lapsed lease, released for the user's next run
            AgentState.objects.filter(user_id=run.user_id, **{run_col: run.pk}).update(
                **{run_col: None, until_col: None}
            )
    log.warning("ended %s: %s", run, run.details["staleLease"]["reason"])
    return True


def _batch_gone(run: CycleRun, now) -> str | None:
    """Why the run waits on a batch in vain (its row deleted, or ended a lease period
    ago without the run taking its answers), or None."""
    wait = run.details.get("batchWait")
    if wait is None:
        return None
    batch = LlmBatch.objects.filter(pk=wait["batch"]).values("status", "finished_at").first()
    if batch is None:
        return f"the batch it waited on ({wait['providerBatchId']}) is gone (stale-run sweep)"
    grace = timedelta(seconds=settings.STGY_AI_USER_LOCK_SECONDS)
    if batch["status"] != LlmBatch.Status.SUBMITTED and batch["finished_at"] < now - grace:
        return (
            f"the batch it waited on ({wait['providerBatchId']}) ended {batch['status']} and the run "
            "did not go on: its tasks were lost (stale-run sweep)"
        )
    return None


def _reason(run: CycleRun, holder: int | None, until) -> str:
    if holder == run.pk:
        lapse = f"its lease lapsed at {iso(until)}" if until is not None else "its lease was cleared"
    elif holder is None:
        lapse = "it held no lease"
    else:
        lapse = f"its lease was taken by run {holder}"
    return f"{lapse} before it finished: its worker died or its tasks were lost (stale-lease sweep)"
