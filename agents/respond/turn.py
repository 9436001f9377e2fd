"""The writing turn: an AI user's respond runs and its cycle's writing stages never
write at the same time (docs/respond-path.md, "One writer at a time").

Both take the respond lease on the user's AgentState row (lease.py). A respond run that
finds it taken leaves its events owed and returns at once; a writing stage waits for
it, briefly — respond runs are short — and on release enqueues the respond run the
stage kept waiting, so nobody's answer waits for the sweep.

A cycle's writing stage gives the turn back with its record (`turn_give_with_record`):
on PostgreSQL the record, the cycle lease's renewal, the release and the question
"are events owed?" are one statement, so the turn costs the stage one query (the
claim) instead of three (docs/agent-cycle.md, "What a cycle costs").
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import connection
from django.db.models import Case, F, Q, Value, When

from agents.cycle.schedule import lease_values, run_save_with_lease
from agents.cycle.usage_held import usage_insert_sql
from agents.models import AgentState, AttentionEvent, CycleRun
from sns.sql_statements import compiled_once, update_sql

from .events import events_owed, respond_enqueue
from .lease import respond_lease_claim, respond_lease_release

POLL_SECONDS = 0.2


class WritingTurnBusy(Exception):
    """A respond run of the user kept the turn longer than the stage may wait."""


def turn_take(user_id: int, run_id: int) -> None:
    """Wait for the turn (briefly); WritingTurnBusy if a respond run keeps it."""
    wait = settings.STGY_CYCLE_WRITING_WAIT_SECONDS
    deadline = time.monotonic() + wait
    while not respond_lease_claim(user_id, run_id):
        if time.monotonic() >= deadline:
            raise WritingTurnBusy(f"a respond run of this AI user kept the writing turn over {wait:g} s")
        time.sleep(POLL_SECONDS)


def turn_give(user_id: int, run_id: int) -> None:
    respond_lease_release(user_id, run_id)
    if events_owed(user_id):
        respond_enqueue(user_id)


@contextmanager
def writing_turn(user_id: int, run_id: int) -> Iterator[None]:
    turn_take(user_id, run_id)
    try:
        yield
    finally:
        turn_give(user_id, run_id)


_RECORD_FIELDS = ["stages", "details"]


def _record_parts(mine: int, renew, user_id: int, *values, fields=_RECORD_FIELDS) -> list[tuple[str, list]]:
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
        update_sql(CycleRun.objects.filter(pk=mine), dict(zip(fields, values, strict=True))),
        owed.query.get_compiler(connection.alias).as_sql(),
    ]


# Every writing stage saves the same two fields: that statement is compiled once.
_record_statements = compiled_once("turn_give_with_record", ("id", "time", "id", "json", "json"), _record_parts)


def turn_give_with_record(run: CycleRun, fields: list[str], usage: list = ()) -> bool:
    """Save `fields` of the run record and the stage's held `usage` rows, renew its
    cycle lease and give the writing turn back; enqueue the respond run if events are
    owed. True if the run still held its cycle lease (as run_save_with_lease)."""
    if connection.vendor != "postgresql":
        kept = run_save_with_lease(run, fields, usage=usage)
        turn_give(run.user_id, run.pk)
        return kept
    # One UPDATE of the AgentState row (PostgreSQL cannot update a row twice in one
    # statement), with the run's record and the owed check (`_record_parts`).
    mine = run.pk
    renew = lease_values(release=False)["lease_until"]
    values = [getattr(run, name) for name in fields]
    if list(fields) == _RECORD_FIELDS:
        parts = _record_statements(mine, renew, run.user_id, *values)
    else:
        parts = _record_parts(mine, renew, run.user_id, *values, fields=fields)
    (state_sql, state_params), (run_sql, run_params), (owed_sql, owed_params) = parts
    usage_sql, usage_params = usage_insert_sql(list(usage)) if usage else ("", [])
    usage_cte = f", usage AS ({usage_sql})" if usage_sql else ""
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
