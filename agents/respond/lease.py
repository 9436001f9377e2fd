"""The respond lease: at most one writer among an AI user's respond runs and its
cycle's writing stages (turn.py) at a time.

It sits on the user's AgentState row beside the cycle's lease, which is independent of
it (a cycle's reading stages never wait, and a respond run never waits at all).
Claimed by a conditional UPDATE; it expires on its own, so a worker that dies mid-run
never locks the user's answers out, and the same run may claim it again (a redelivered
stage).
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from agents.cycle.schedule import next_interval
from agents.models import AgentState


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
