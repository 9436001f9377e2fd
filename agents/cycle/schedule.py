"""Who is due, and the lease that keeps one user's cycles from overlapping.

Claiming is a conditional UPDATE: zero rows changed means someone else holds it.
A lease expires on its own, so a worker that dies mid-cycle never locks a user out.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Q
from django.utils import timezone

from agents.budget import budget_tokens_sum, tokens_used_today, utc_day_start
from agents.models import AgentState, CycleRun, LlmUsage
from sns.models import User
from sns.sql_statements import compiled_once, update_sql

from .usage_held import usage_insert_sql, usage_save_elsewhere


def next_interval(rng: random.Random | None = None) -> timedelta:
    """The user's loop interval with ±jitter, so users never fire in lockstep."""
    rng = rng or random
    jitter = settings.STGY_AI_USER_LOOP_JITTER
    base_ms = settings.STGY_AI_USER_LOOP_SLEEP_MS
    return timedelta(milliseconds=base_ms * (1 + rng.uniform(-jitter, jitter)))


def site_over_budget() -> bool:
    budget = settings.STGY_AI_SITE_DAILY_TOKEN_BUDGET
    return bool(budget) and tokens_used_today() >= budget


def users_over_budget(user_ids: list[int]) -> set[int]:
    """The users among `user_ids` over their daily budget, in one query."""
    budget = settings.STGY_AI_USER_DAILY_TOKEN_BUDGET
    if not budget or not user_ids:
        return set()
    rows = (
        LlmUsage.objects.filter(created_at__gte=utc_day_start(), user_id__in=user_ids)
        .values("user_id")
        .annotate(t=budget_tokens_sum())
    )
    return {row["user_id"] for row in rows if round(row["t"] or 0) >= budget}


def ensure_states() -> None:
    """Give every active AI user a schedule row, first runs spread over one interval."""
    missing = User.objects.filter(ai_model__isnull=False, is_frozen=False, agent_state__isnull=True).values_list("id", flat=True)
    now = timezone.now()
    rows = [
        AgentState(user_id=uid, next_run_at=now + random.uniform(0, 1) * next_interval() * 0.05)
        for uid in missing
    ]
    AgentState.objects.bulk_create(rows, ignore_conflicts=True)


def stale_runs_close() -> int:
    """Runs still "running" long after their lease lapsed belong to a dead worker whose
    redelivery never came; mark them failed so the activity page tells the truth."""
    cutoff = timezone.now() - timedelta(seconds=3 * settings.STGY_AI_USER_LOCK_SECONDS)
    return CycleRun.objects.filter(status=CycleRun.Status.RUNNING, started_at__lt=cutoff).update(
        status=CycleRun.Status.FAILED, finished_at=timezone.now()
    )


def due_user_ids(limit: int = 500) -> list[int]:
    """AI users to start now: active, due, not running, within budget; each one claimed
    by pushing its next run forward so the next dispatcher tick does not send it again.
    None while the model is down: the users stay due until it answers again."""
    from agents.llm import gateway

    from .pause import dispatch_paused

    if not gateway.ai_enabled() or dispatch_paused() or site_over_budget():
        return []
    ensure_states()
    stale_runs_close()
    now = timezone.now()
    candidates = list(
        AgentState.objects.filter(
            next_run_at__lte=now, user__ai_model__isnull=False, user__is_frozen=False
        )
        .filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
        .order_by("next_run_at")
        .values_list("user_id", "next_run_at")[:limit]
    )
    over = users_over_budget([uid for uid, _ in candidates])
    due = []
    for user_id, next_run_at in candidates:
        if user_id in over:
            continue
        claimed = AgentState.objects.filter(user_id=user_id, next_run_at=next_run_at).update(
            next_run_at=now + next_interval(), last_run_at=now
        )
        if claimed:
            due.append(user_id)
    return due


def lease_claim_sql(user_id: int, run_sql: str, run_params: list) -> tuple[str, list]:
    """The claim: one conditional UPDATE of the user's schedule row, taken when the
    lease is free (never held, or expired) for the run `run_sql` names (a placeholder,
    or cycle_begin's id of the run it inserts in the same statement)."""
    now = timezone.now()
    until = now + timedelta(seconds=settings.STGY_AI_USER_LOCK_SECONDS)
    adapt, qn = connection.ops.adapt_datetimefield_value, connection.ops.quote_name
    until_col = qn("lease_until")
    sql = (
        f"UPDATE {qn(AgentState._meta.db_table)} SET {until_col} = %s, {qn('lease_run')} = {run_sql} "
        f"WHERE {qn('user_id')} = %s AND ({until_col} IS NULL OR {until_col} < %s)"
    )
    return sql, [adapt(until), *run_params, user_id, adapt(now)]


def lease_claim(user_id: int, run_id: int) -> bool:
    # The common case (a schedule row with a free lease) is one conditional UPDATE;
    # only when it changes nothing do we learn whether the row is missing or held.
    sql, params = lease_claim_sql(user_id, "%s", [run_id])
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount:
            return True
    return lease_row_create(user_id, run_id)


def lease_row_create(user_id: int, run_id: int) -> bool:
    """After a claim that changed nothing: create the missing schedule row holding the
    lease; False if the row exists (its lease is held)."""
    now = timezone.now()
    _, created = AgentState.objects.get_or_create(
        user_id=user_id,
        defaults={
            "next_run_at": now + next_interval(),
            "lease_until": now + timedelta(seconds=settings.STGY_AI_USER_LOCK_SECONDS),
            "lease_run": run_id,
        },
    )
    return created


def _lease_queryset(user_id: int, run_id: int):
    return AgentState.objects.filter(user_id=user_id, lease_run=run_id)


def lease_values(*, release: bool) -> dict:
    """The cycle lease's columns when a stage renews it (or the end releases it)."""
    if release:
        return {"lease_until": None, "lease_run": None}
    return {"lease_until": timezone.now() + timedelta(seconds=settings.STGY_AI_USER_LOCK_SECONDS)}


_RECORD_FIELDS = ["stages", "details"]


def _record_parts(user_id: int, run_id: int, lease: dict, run_values: dict) -> list[tuple[str, list]]:
    """The lease's update and the run's, as SQL."""
    return [
        update_sql(_lease_queryset(user_id, run_id), lease),
        update_sql(CycleRun.objects.filter(pk=run_id), run_values),
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
    (agents/cycle/usage_held.py), and renew (or, with `release`, release) its lease;
    True if the run still held the lease.

    Every stage does both, so on PostgreSQL they go in one statement (a data-modifying
    CTE) instead of two round trips; elsewhere (SQLite) they are two statements."""
    values = lease_values(release=release)
    run_values = {name: getattr(run, name) for name in fields}
    if connection.vendor != "postgresql":
        usage_save_elsewhere(list(usage))
        CycleRun.objects.filter(pk=run.pk).update(**run_values)
        return bool(_lease_queryset(run.user_id, run.pk).update(**values))
    if not release and list(fields) == _RECORD_FIELDS:
        parts = _record_statements(run.user_id, run.pk, values["lease_until"], *run_values.values())
    else:
        parts = _record_parts(run.user_id, run.pk, values, run_values)
    (lease_sql, lease_params), (run_sql, run_params) = parts
    usage_sql, usage_params = usage_insert_sql(list(usage)) if usage else ("", [])
    usage_cte = f", usage AS ({usage_sql})" if usage_sql else ""
    sql = f"WITH lease AS ({lease_sql} RETURNING 1){usage_cte} {run_sql} RETURNING (SELECT COUNT(*) FROM lease)"
    with connection.cursor() as cursor:
        cursor.execute(sql, [*lease_params, *usage_params, *run_params])
        row = cursor.fetchone()
    return bool(row and row[0])
