"""Where a run record is written while its run goes on, and how it is shown.

A stage's record is saved with the renewal of its cycle lease and its held usage rows
(usage_held.py), and a writing stage's also gives the writing turn back (turn.py): on
PostgreSQL each is one statement (docs/agent-cycle.md, "What a cycle costs"). A run is
begun and ended by its own path (agents/cycle/run.py `cycle_begin` / `cycle_end`,
agents/respond/run.py), and ended by the stale-lease sweep when its worker died.
"""

from __future__ import annotations

from typing import Any

from django.db import connection

from agents.models import AgentState, AttentionEvent, CycleRun
from sns.api.presenters import iso
from sns.core.ids import id_to_hex
from sns.reads.sql_statements import prepared, set_clause

from .lease import lease_values
from .owed import respond_enqueue
from .turn import turn_give
from .usage_held import usage_ctes, usage_save_elsewhere


def _running(run_id: int):
    """The run's row while it runs: once ended (by cycle_end, or by the stale-lease sweep,
    stale.py), a late stage of it writes nothing more on its record."""
    return CycleRun.objects.filter(pk=run_id, status=CycleRun.Status.RUNNING)


def _lease_update(user_id: int, run_id: int, values: dict) -> tuple[str, list]:
    """The cycle lease's columns set to `values`, if the run still holds the lease."""
    sql = f'UPDATE "agents_agentstate" SET {set_clause(AgentState, values)} WHERE "user_id" = %s AND "lease_run" = %s'
    return sql, [*(prepared(AgentState, name, value) for name, value in values.items()), user_id, run_id]


def _run_update(run: CycleRun, fields: list[str]) -> tuple[str, list]:
    """`fields` of the run's record saved while it runs (`_running`)."""
    sql = f'UPDATE "agents_cyclerun" SET {set_clause(CycleRun, fields)} WHERE "id" = %s AND "status" = %s'
    values = [prepared(CycleRun, name, getattr(run, name)) for name in fields]
    return sql, [*values, run.pk, CycleRun.Status.RUNNING]


def run_save_with_lease(run: CycleRun, fields: list[str], *, release: bool = False, usage: list = ()) -> bool:
    """Save `fields` of the run record, and the stage's held `usage` rows
    (usage_held.py), and renew (or, with `release`, release) its lease;
    True if the run still held the lease.

    Every stage does both, so on PostgreSQL they go in one statement (a data-modifying
    CTE) instead of two round trips; elsewhere (SQLite) they are two statements."""
    lease_sql, lease_params = _lease_update(run.user_id, run.pk, lease_values(release=release))
    run_sql, run_params = _run_update(run, fields)
    if connection.vendor != "postgresql":
        usage_save_elsewhere(list(usage))
        with connection.cursor() as cursor:
            cursor.execute(run_sql, run_params)
            cursor.execute(lease_sql, lease_params)
            return bool(cursor.rowcount)
    usage_cte, usage_params = usage_ctes(list(usage))
    sql = f"WITH lease AS ({lease_sql} RETURNING 1){usage_cte} {run_sql} RETURNING (SELECT COUNT(*) FROM lease)"
    with connection.cursor() as cursor:
        cursor.execute(sql, [*lease_params, *usage_params, *run_params])
        row = cursor.fetchone()
    return bool(row and row[0])


# The AgentState row's update of a writing stage's save: the cycle lease renewed only if
# this run holds it, the respond lease released only if this run holds it (exactly as
# the separate statements did). PostgreSQL cannot update a row twice in one statement.
# Parameters: the run, the renewed lease's end, the run, the run, the user, the run, the run.
_TURN_STATE = (
    'UPDATE "agents_agentstate" SET '
    '"lease_until" = CASE WHEN "lease_run" = %s THEN %s ELSE "lease_until" END, '
    '"respond_lease_until" = CASE WHEN "respond_lease_run" = %s THEN NULL ELSE "respond_lease_until" END, '
    '"respond_lease_run" = CASE WHEN "respond_lease_run" = %s THEN NULL ELSE "respond_lease_run" END '
    'WHERE "user_id" = %s AND ("lease_run" = %s OR "respond_lease_run" = %s) RETURNING "lease_run"'
)
# Are attention events owed to the user (pending or claimed)?
_OWED = 'SELECT 1 FROM "agents_attentionevent" WHERE "user_id" = %s AND "status" IN (%s, %s)'


def turn_give_with_record(run: CycleRun, fields: list[str], usage: list = ()) -> bool:
    """Save `fields` of the run record and the stage's held `usage` rows, renew its
    cycle lease and give the writing turn back; enqueue the respond run if events are
    owed. True if the run still held its cycle lease (as run_save_with_lease)."""
    if connection.vendor != "postgresql":
        kept = run_save_with_lease(run, fields, usage=usage)
        turn_give(run.user_id, run.pk)
        return kept
    # One statement: the AgentState row's update, the run's record, the usage rows and
    # the owed check. The outer SELECT reads the snapshot taken at the statement's start,
    # like the owed check that used to follow the release.
    run_sql, run_params = _run_update(run, fields)
    usage_cte, usage_params = usage_ctes(list(usage))
    mine, renew = run.pk, prepared(AgentState, "lease_until", lease_values(release=False)["lease_until"])
    state_params = [mine, renew, mine, mine, run.user_id, mine, mine]
    owed_params = [run.user_id, AttentionEvent.Status.PENDING, AttentionEvent.Status.CLAIMED]
    sql = (
        f"WITH state AS ({_TURN_STATE}), saved AS ({run_sql} RETURNING 1){usage_cte} "
        f"SELECT (SELECT COUNT(*) FROM state WHERE lease_run = %s), EXISTS({_OWED})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*state_params, *run_params, *usage_params, mine, *owed_params])
        kept, is_owed = cursor.fetchone()
    if is_owed:
        respond_enqueue(run.user_id)
    return bool(kept)


def stage_record_save(run: CycleRun, record: dict[str, Any], *, holds_turn: bool, usage: list) -> None:
    """Save a stage's `record` (already in `run.stages`) with the run's details, the
    stage's held `usage` rows and the cycle lease's renewal; with `holds_turn`, give the
    writing turn back too. A lease lost meanwhile is noted on the record."""
    # The lease is renewed with the stage's record, in the same statement: a live
    # cycle keeps it for one lease period after each stage, a dead one loses it. A
    # writing stage gives the writing turn back in that statement too. The stage's
    # usage rows go in with it, once.
    rows = list(usage)
    usage.clear()
    if holds_turn:
        try:
            kept = turn_give_with_record(run, ["stages", "details"], usage=rows)
        except Exception:
            turn_give(run.user_id, run.pk)  # never keep the respond path waiting
            raise
    else:
        kept = run_save_with_lease(run, ["stages", "details"], usage=rows)
    if not kept:
        record.setdefault("notes", {})["lease"] = "lost (expired and taken by another run)"
        _running(run.pk).update(stages=run.stages)


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
