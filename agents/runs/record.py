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
from django.db.models import Case, F, Q, Value, When

from agents.models import AgentState, AttentionEvent, CycleRun
from sns.api.presenters import iso
from sns.core.ids import id_to_hex
from sns.sql_statements import compiled_once, update_sql

from .lease import lease_values
from .owed import respond_enqueue
from .turn import turn_give
from .usage_held import usage_ctes, usage_save_elsewhere


def _running(run_id: int):
    """The run's row while it runs: once ended (by cycle_end, or by the stale-lease sweep,
    stale.py), a late stage of it writes nothing more on its record."""
    return CycleRun.objects.filter(pk=run_id, status=CycleRun.Status.RUNNING)


def _lease_queryset(user_id: int, run_id: int):
    return AgentState.objects.filter(user_id=user_id, lease_run=run_id)


_RECORD_FIELDS = ["stages", "details"]


def _record_parts(user_id: int, run_id: int, lease: dict, run_values: dict) -> list[tuple[str, list]]:
    """The lease's update and the run's, as SQL."""
    return [
        update_sql(_lease_queryset(user_id, run_id), lease),
        update_sql(_running(run_id), run_values),
    ]


# A stage's record save renews the lease and saves these two fields: compiled once.
_record_statements = compiled_once(
    "run_save_with_lease",
    ("id", "id", "time", "json", "json"),
    lambda user_id, run_id, until, stages, details: _record_parts(
        user_id, run_id, {"lease_until": until}, {"stages": stages, "details": details}
    ),
)


def run_save_with_lease(run: CycleRun, fields: list[str], *, release: bool = False, usage: list = ()) -> bool:
    """Save `fields` of the run record, and the stage's held `usage` rows
    (usage_held.py), and renew (or, with `release`, release) its lease;
    True if the run still held the lease.

    Every stage does both, so on PostgreSQL they go in one statement (a data-modifying
    CTE) instead of two round trips; elsewhere (SQLite) they are two statements."""
    values = lease_values(release=release)
    run_values = {name: getattr(run, name) for name in fields}
    if connection.vendor != "postgresql":
        usage_save_elsewhere(list(usage))
        _running(run.pk).update(**run_values)
        return bool(_lease_queryset(run.user_id, run.pk).update(**values))
    if not release and list(fields) == _RECORD_FIELDS:
        parts = _record_statements(run.user_id, run.pk, values["lease_until"], *run_values.values())
    else:
        parts = _record_parts(run.user_id, run.pk, values, run_values)
    (lease_sql, lease_params), (run_sql, run_params) = parts
    usage_cte, usage_params = usage_ctes(list(usage))
    sql = f"WITH lease AS ({lease_sql} RETURNING 1){usage_cte} {run_sql} RETURNING (SELECT COUNT(*) FROM lease)"
    with connection.cursor() as cursor:
        cursor.execute(sql, [*lease_params, *usage_params, *run_params])
        row = cursor.fetchone()
    return bool(row and row[0])


def _turn_record_parts(mine: int, renew, user_id: int, *values, fields=_RECORD_FIELDS) -> list[tuple[str, list]]:
    """The record save's parts: the AgentState row's update (the cycle lease renewed
    only if this run holds it, the respond lease released only if this run holds it,
    exactly as the separate statements did), the run's update, the "are events owed?"
    select."""
    state_values = {
        "lease_until": Case(When(lease_run=mine, then=Value(renew)), default=F("lease_until")),
        "respond_lease_until": Case(When(respond_lease_run=mine, then=Value(None)), default=F("respond_lease_until")),
        "respond_lease_run": Case(When(respond_lease_run=mine, then=Value(None)), default=F("respond_lease_run")),
    }
    owed = AttentionEvent.objects.filter(
        user_id=user_id, status__in=(AttentionEvent.Status.PENDING, AttentionEvent.Status.CLAIMED)
    ).values("id")[:1]
    return [
        update_sql(
            AgentState.objects.filter(Q(lease_run=mine) | Q(respond_lease_run=mine), user_id=user_id), state_values
        ),
        update_sql(_running(mine), dict(zip(fields, values, strict=True))),
        owed.query.get_compiler(connection.alias).as_sql(),
    ]


# Every writing stage saves the same two fields: that statement is compiled once.
_turn_record_statements = compiled_once(
    "turn_give_with_record", ("id", "time", "id", "json", "json"), _turn_record_parts
)


def turn_give_with_record(run: CycleRun, fields: list[str], usage: list = ()) -> bool:
    """Save `fields` of the run record and the stage's held `usage` rows, renew its
    cycle lease and give the writing turn back; enqueue the respond run if events are
    owed. True if the run still held its cycle lease (as run_save_with_lease)."""
    if connection.vendor != "postgresql":
        kept = run_save_with_lease(run, fields, usage=usage)
        turn_give(run.user_id, run.pk)
        return kept
    # One UPDATE of the AgentState row (PostgreSQL cannot update a row twice in one
    # statement), with the run's record and the owed check (`_turn_record_parts`).
    mine = run.pk
    renew = lease_values(release=False)["lease_until"]
    values = [getattr(run, name) for name in fields]
    if list(fields) == _RECORD_FIELDS:
        parts = _turn_record_statements(mine, renew, run.user_id, *values)
    else:
        parts = _turn_record_parts(mine, renew, run.user_id, *values, fields=fields)
    (state_sql, state_params), (run_sql, run_params), (owed_sql, owed_params) = parts
    usage_cte, usage_params = usage_ctes(list(usage))
    # The outer SELECT reads the snapshot taken at the statement's start, like the
    # owed check that used to follow the release.
    sql = (
        f'WITH state AS ({state_sql} RETURNING "lease_run"), saved AS ({run_sql} RETURNING 1){usage_cte} '
        f"SELECT (SELECT COUNT(*) FROM state WHERE lease_run = %s), EXISTS({owed_sql})"
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
