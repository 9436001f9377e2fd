"""Begin, execute and end one AI user's cycle.

The run record is both the observable history of the cycle and the state its stages
pass on: the stage tasks carry only the run's id, and each stage saves its own record.
A shared wrapper records each stage's outcome, duration and error and always returns,
so the chain never breaks and every stage runs with whatever state exists.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.db import connection
from django.db.models import Count, OuterRef, Subquery, Sum
from django.utils import timezone

from agents.models import AgentState, CycleRun, Interest, LlmUsage
from agents.runs.batched import StageWaiting, batching
from agents.runs.lease import lease_claim, lease_claim_sql, lease_hold, lease_row_create
from agents.runs.record import run_save_with_lease, stage_record_save
from agents.runs.turn import WritingTurnBusy, turn_give, turn_take
from agents.runs.usage_held import usage_holding
from sns.models import User
from sns.reads.sql_statements import insert_rows_sql

from . import STAGES
from .actions import likes_and_replies
from .context import StageContext
from .follows import follow_management
from .impressions import peer_impressions, post_impressions
from .interest import interest_snapshot, interest_update
from .new_post import new_post
from .run_end import run_end_postgresql
from .run_read import run_read, run_read_taking_turn
from .select_posts import select_posts

log = logging.getLogger(__name__)

STAGE_FUNCTIONS = {
    "select_posts": select_posts,
    "post_impressions": post_impressions,
    "peer_impressions": peer_impressions,
    "likes_and_replies": likes_and_replies,
    "interest_update": interest_update,
    "new_post": new_post,
    "follow_management": follow_management,
}
assert tuple(STAGE_FUNCTIONS) == STAGES
# The stages that write as the AI user take the writing turn the respond path takes.
WRITING_STAGES = frozenset({"likes_and_replies", "new_post", "follow_management"})
# The stages that only judge: in batch mode their calls go as one batch and the run
# waits for it (agents/runs/batched.py); nobody waits on them.
BATCHED_STAGES = frozenset({"post_impressions", "peer_impressions", "interest_update"})


def _own_tier_only(user: User) -> bool:
    try:
        return user.agent_state.own_tier_only
    except AgentState.DoesNotExist:
        return False


def cycle_begin(user_id: int) -> CycleRun | None:
    """Create the run record and take the user's lease; None if the user is not an
    active AI user or another cycle of theirs holds the lease."""
    user = (
        User.objects.select_related("ai_interest", "agent_state")
        .filter(pk=user_id, ai_model__isnull=False, is_frozen=False)
        .first()
    )
    if user is None:
        return None
    try:
        interest = user.ai_interest
    except Interest.DoesNotExist:
        interest = None
    # The interest snapshot goes in with the row: one INSERT instead of INSERT + UPDATE.
    details: dict[str, Any] = {"interestAtStart": interest_snapshot(interest)}
    if _own_tier_only(user):
        details["ownTierOnly"] = True  # read by StageContext.tier, shown on the run's page
    run = CycleRun(user=user, started_at=timezone.now(), details=details)
    if connection.vendor != "postgresql":
        run.save(force_insert=True)
        claimed = lease_claim(user.id, run.pk)
    else:
        # The row and the lease's claim in one statement; the claim names the new row.
        run_sql, run_params = insert_rows_sql(CycleRun, [run], ["id"])
        claim_sql, claim_params = lease_claim_sql(user.id, "(SELECT id FROM run)", [])
        with connection.cursor() as cursor:
            cursor.execute(
                f"WITH run AS ({run_sql}), lease AS ({claim_sql} RETURNING 1) "
                "SELECT (SELECT id FROM run), (SELECT COUNT(*) FROM lease)",
                [*run_params, *claim_params],
            )
            run.pk, claimed = cursor.fetchone()
        run._state.adding, run._state.db = False, connection.alias
        claimed = claimed or lease_row_create(user.id, run.pk)
    if not claimed:
        run.delete()
        return None
    return run


def stage_execute(run_id: int, stage: str, *, batch: bool = False) -> dict[str, Any]:
    """Run one stage of the run and save its record; the record. A stage already
    recorded (a redelivered task) is not run again, nor any stage of a run that has
    ended (the stale-lease sweep ended it while this task waited for redelivery).
    With `batch` (the stage task in batch mode) a judging stage sends its calls as a
    batch and its record is "waiting" until the batch's poll runs it again."""
    writing = stage in WRITING_STAGES
    run, turn_taken = run_read_taking_turn(run_id) if writing else (run_read(run_id), False)
    recorded = run.stages.get(stage)
    ended = run.status != CycleRun.Status.RUNNING
    if ended or (recorded and recorded.get("outcome") in ("ok", "skipped", "failed")):
        if turn_taken:
            turn_give(run.user_id, run.pk)
        if ended and not recorded:  # ended by the stale-lease sweep (agents/runs/stale.py)
            return {"outcome": "skipped", "skipped": f"the run has ended ({run.status})"}
        return recorded  # a redelivered stage task: the work is done and recorded
    with usage_holding(run.pk, stage) as usage:  # the stage's usage rows go in with its record
        if batch and stage in BATCHED_STAGES:
            with batching(run, stage):
                return _stage_run(run, stage, turn_taken, usage)
        return _stage_run(run, stage, turn_taken, usage)


def _stage_run(run: CycleRun, stage: str, turn_taken: bool, usage: list) -> dict[str, Any]:
    writing = stage in WRITING_STAGES
    ctx = StageContext(run=run, stage=stage)
    started = time.monotonic()
    holds_turn = False

    def record_save(result: dict[str, Any]) -> dict[str, Any]:
        record = _stage_record(ctx, result, started)
        stage_record_save(run, record, holds_turn=holds_turn, usage=usage)
        return record

    ctx.record_save = record_save
    try:
        if writing:
            try:
                if not turn_taken:
                    turn_take(run.user_id, run.pk)
                holds_turn = True
                result = STAGE_FUNCTIONS[stage](ctx) or {}
            except WritingTurnBusy as busy:
                result = {"skipped": str(busy)}
        else:
            result = STAGE_FUNCTIONS[stage](ctx) or {}
        if ctx.recorded is not None:
            return ctx.recorded  # saved by the stage with its own last write
        record = _stage_record(ctx, result, started)
    except StageWaiting as waiting:  # its calls are in a batch: the run waits, recorded
        record = _stage_record(ctx, {"waiting": str(waiting)}, started)
        stage_record_save(run, record, holds_turn=holds_turn, usage=usage)
        lease_hold(run, waiting.wait)
        return record
    except Exception as exc:  # the chain never breaks: record and go on
        log.warning("stage %s of run %s failed: %s", stage, run.pk, exc, exc_info=True)
        record = _stage_record(ctx, {"error": f"{type(exc).__name__}: {exc}"[:2000]}, started, failed=True)
    stage_record_save(run, record, holds_turn=holds_turn, usage=usage)
    return record


def _stage_record(ctx: StageContext, result: dict[str, Any], started: float, *, failed: bool = False) -> dict[str, Any]:
    outcome = "failed" if failed else "skipped" if "skipped" in result else "waiting" if "waiting" in result else "ok"
    record = {"outcome": outcome, **result, "ms": int((time.monotonic() - started) * 1000)}
    if outcome != "waiting" and (ctx.details.get("batchWait") or {}).get("stage") == ctx.stage:
        del ctx.details["batchWait"]  # done without taking the answers (nothing left to judge)
    if ctx.notes:
        record["notes"] = ctx.notes
    ctx.run.stages[ctx.stage] = record
    return record


def _usage_total(aggregate) -> Subquery:
    """One total of the run's usage rows, as a subquery of the run's read."""
    rows = LlmUsage.objects.filter(run_id=OuterRef("pk")).order_by().values("run_id")
    return Subquery(rows.annotate(total=aggregate).values("total")[:1])


def cycle_end(run_id: int) -> CycleRun:
    """End the run: its totals, status and missing stages written, its lease released.
    A run already ended (a redelivered task, or the stale-lease sweep) is left as it is."""
    if connection.vendor == "postgresql":
        run = run_end_postgresql(run_id, timezone.now())  # the read and the save in one statement
        if run is None:  # not running (or no such run: DoesNotExist)
            return CycleRun.objects.select_related("user").get(pk=run_id)
        return run
    # The usage totals ride on the run's read (one query, not two).
    run = (
        CycleRun.objects.select_related("user")
        .annotate(
            usage_calls=_usage_total(Count("id")),
            usage_prompt=_usage_total(Sum("prompt_tokens")),
            usage_completion=_usage_total(Sum("completion_tokens")),
            usage_cached=_usage_total(Sum("cached_tokens")),
            usage_cost=_usage_total(Sum("cost")),
        )
        .get(pk=run_id)
    )
    if run.status != CycleRun.Status.RUNNING:
        return run
    run.llm_calls = run.usage_calls or 0
    run.prompt_tokens = run.usage_prompt or 0
    run.completion_tokens = run.usage_completion or 0
    run.cached_tokens = run.usage_cached or 0
    run.cost = run.usage_cost or 0
    run.finished_at = timezone.now()
    run.elapsed_ms = int((run.finished_at - run.started_at).total_seconds() * 1000)
    missing = [s for s in STAGES if s not in run.stages]
    run.status = CycleRun.Status.FAILED if missing else CycleRun.Status.DONE
    if missing:
        run.details["missingStages"] = missing
    run_save_with_lease(
        run,
        ["llm_calls", "prompt_tokens", "completion_tokens", "cached_tokens", "cost", "finished_at",
         "elapsed_ms", "status", "details"],
        release=True,
    )
    return run


def run_cycle_sync(user_id: int) -> CycleRun | None:
    """One whole cycle in this process (runcycle, runagents, the embedded demo)."""
    run = cycle_begin(user_id)
    if run is None:
        return None
    for stage in STAGES:
        stage_execute(run.pk, stage)
    return cycle_end(run.pk)
