"""The run record as each stage reads it, and for a writing stage the writing turn
taken in the same round trip (docs/agent-cycle.md, "What a cycle costs")."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Q, Subquery
from django.db.models.expressions import RawSQL
from django.utils import timezone

from agents.models import AgentState, CycleRun

from .schedule import update_sql


def _run_queryset(run_id: int):
    return CycleRun.objects.select_related("user", "user__ai_interest").filter(pk=run_id)


def run_read(run_id: int) -> CycleRun:
    return _run_queryset(run_id).get()


def run_read_taking_turn(run_id: int) -> tuple[CycleRun, bool]:
    """The run record, and whether the writing turn was taken for it in the same
    statement (PostgreSQL: the respond lease's conditional UPDATE as a data-modifying
    CTE, exactly the claim `respond_lease_claim` makes). False means not taken here —
    held by a respond run, no schedule row yet, or another database — and the caller
    takes it the usual way (`turn_take`, which waits and creates a missing row)."""
    if connection.vendor != "postgresql":
        return run_read(run_id), False
    now = timezone.now()
    until = now + timedelta(seconds=settings.STGY_RESPOND_LEASE_SECONDS)
    free = Q(respond_lease_until__isnull=True) | Q(respond_lease_until__lt=now) | Q(respond_lease_run=run_id)
    owner = Subquery(CycleRun.objects.filter(pk=run_id).values("user_id")[:1])
    claim_sql, claim_params = update_sql(
        AgentState.objects.filter(free, user_id=owner), {"respond_lease_until": until, "respond_lease_run": run_id}
    )
    queryset = _run_queryset(run_id).annotate(turn_taken=RawSQL("SELECT COUNT(*) FROM turn", ()))
    # Django writes no WITH clause: the compiler's statement gets the claim put in front.
    # The CTE runs once, whatever the SELECT reads; both see the statement's snapshot.
    query = queryset.query
    compiler_for = query.get_compiler

    def get_compiler(*args, **kwargs):
        compiler = compiler_for(*args, **kwargs)
        as_sql = compiler.as_sql

        def as_sql_with_claim(*a, **k):
            sql, params = as_sql(*a, **k)
            return f'WITH turn AS ({claim_sql} RETURNING 1) {sql}', (*claim_params, *params)

        compiler.as_sql = as_sql_with_claim
        return compiler

    query.get_compiler = get_compiler
    rows = list(queryset)
    if not rows:
        raise CycleRun.DoesNotExist(f"run {run_id}")
    return rows[0], bool(rows[0].turn_taken)
