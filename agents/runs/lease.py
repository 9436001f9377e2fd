"""The two leases on an AI user's AgentState row, and the loop interval.

The cycle lease keeps one user's cycles from overlapping. The respond lease allows at
most one writer among the user's respond runs and its cycle's writing stages
(turn.py) at a time; it sits beside the cycle's lease, which is independent of it (a
cycle's reading stages never wait, and a respond run never waits at all).

Both are claimed by a conditional UPDATE: zero rows changed means someone else holds
it. Both expire on their own, so a worker that dies mid-run never locks the user out
(the stale-lease sweep then ends its run); the same run may claim the respond lease
again (a redelivered stage).
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from agents.models import AgentState


def next_interval(rng: random.Random | None = None) -> timedelta:
    """The user's loop interval with ±jitter, so users never fire in lockstep."""
    rng = rng or random
    jitter = settings.STGY_AI_USER_LOOP_JITTER
    base_ms = settings.STGY_AI_USER_LOOP_SLEEP_MS
    return timedelta(milliseconds=base_ms * (1 + rng.uniform(-jitter, jitter)))


# The cycle lease.


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


def lease_values(*, release: bool) -> dict:
    """The cycle lease's columns when a stage renews it (or the end releases it)."""
    if release:
        return {"lease_until": None, "lease_run": None}
    return {"lease_until": timezone.now() + timedelta(seconds=settings.STGY_AI_USER_LOCK_SECONDS)}


def lease_hold(run, wait: dict) -> None:
    """Keep the run's cycle lease while it waits on a batch (agents/runs/batched.py):
    until the wait's bound has passed and a lease period more, so the poll that ends
    the wait finds the lease still the run's and the stale-run sweep leaves it alone."""
    from .batched import wait_bound

    until = timezone.now() + wait_bound() + timedelta(seconds=settings.STGY_AI_USER_LOCK_SECONDS)
    AgentState.objects.filter(user_id=run.user_id, lease_run=run.pk).update(lease_until=until)


# The respond lease (the writing turn).


def respond_lease_claim_sql(user_sql: str, user_params: list, run_id: int) -> tuple[str, list]:
    """The claim, as one UPDATE of the AgentState row whose user is `user_sql` (a
    placeholder or a scalar subquery): it takes the lease when the lease is free for
    `run_id` — never held, expired, or already this run's (a redelivered stage).
    `respond_lease_claim` runs it alone; the cycle's writing stages run it inside their
    read of the run record (agents/cycle/run_read.py), so the rule is written once."""
    now = timezone.now()
    until = now + timedelta(seconds=settings.STGY_RESPOND_LEASE_SECONDS)
    adapt = connection.ops.adapt_datetimefield_value
    qn = connection.ops.quote_name
    until_col, run_col = qn("respond_lease_until"), qn("respond_lease_run")
    sql = (
        f"UPDATE {qn(AgentState._meta.db_table)} SET {until_col} = %s, {run_col} = %s "
        f"WHERE {qn('user_id')} = {user_sql} AND ({until_col} IS NULL OR {until_col} < %s OR {run_col} = %s)"
    )
    return sql, [adapt(until), run_id, *user_params, adapt(now), run_id]


def respond_lease_claim(user_id: int, run_id: int) -> bool:
    sql, params = respond_lease_claim_sql("%s", [user_id], run_id)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount:
            return True
    # No schedule row yet: create one as the dispatcher would (first cycle soon, spread
    # over a twentieth of an interval), holding the lease.
    now = timezone.now()
    _, created = AgentState.objects.get_or_create(
        user_id=user_id,
        defaults={
            "next_run_at": now + random.uniform(0, 1) * next_interval() * 0.05,
            "respond_lease_until": now + timedelta(seconds=settings.STGY_RESPOND_LEASE_SECONDS),
            "respond_lease_run": run_id,
        },
    )
    return created


def respond_lease_held(user_id: int) -> bool:
    """A cheap look before a run record is made for nothing; the claim decides."""
    return AgentState.objects.filter(user_id=user_id, respond_lease_until__gte=timezone.now()).exists()


def respond_lease_release(user_id: int, run_id: int) -> None:
    AgentState.objects.filter(user_id=user_id, respond_lease_run=run_id).update(
        respond_lease_until=None, respond_lease_run=None
    )
