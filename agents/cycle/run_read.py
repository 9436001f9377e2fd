"""The run record as each stage reads it — with its AI user and the user's interest,
in one written statement — and for a writing stage the writing turn taken in the
same round trip (docs/agent-cycle.md, "What a cycle costs")."""

from __future__ import annotations

from django.db import connection

from agents.models import CycleRun, Interest
from agents.runs.lease import respond_lease_claim_sql
from sns.internals.model_rows import RowParts
from sns.models import User

# The three rows a stage needs, each under its alias; the interest may be missing.
_ROWS = ((CycleRun, "r"), (User, "u"), (Interest, "i"))


def _select_sql(extra: str = "") -> str:
    qn = connection.ops.quote_name
    columns = ", ".join(
        f"{alias}.{qn(field.column)}" for model, alias in _ROWS for field in model._meta.concrete_fields
    )
    run_user = qn(CycleRun._meta.get_field("user").column)
    interest_user = qn(Interest._meta.get_field("user").column)
    return (
        f"SELECT {columns}{extra} FROM {qn(CycleRun._meta.db_table)} r "
        f"JOIN {qn(User._meta.db_table)} u ON u.{qn('id')} = r.{run_user} "
        f"LEFT JOIN {qn(Interest._meta.db_table)} i ON i.{interest_user} = u.{qn('id')} "
        f"WHERE r.{qn('id')} = %s"
    )


# How a row of `_select_sql` becomes the run, its user and the interest (None when missing).
_ROW_PARTS = RowParts(_ROWS)


def _run_from_row(row) -> CycleRun:
    """The run with its user and the user's interest cached, as select_related leaves them."""
    run, user, interest = _ROW_PARTS.values(row)
    CycleRun._meta.get_field("user").set_cached_value(run, user)
    User._meta.get_field("ai_interest").set_cached_value(user, interest)
    if interest is not None:
        Interest._meta.get_field("user").set_cached_value(interest, user)
    return run


def run_read(run_id: int) -> CycleRun:
    with connection.cursor() as cursor:
        cursor.execute(_select_sql(), [run_id])
        row = cursor.fetchone()
    if row is None:
        raise CycleRun.DoesNotExist(f"run {run_id}")
    return _run_from_row(row)


def run_read_taking_turn(run_id: int) -> tuple[CycleRun, bool]:
    """The run record, and whether the writing turn was taken for it in the same
    statement (PostgreSQL: the respond lease's claim, `respond_lease_claim_sql`, as a
    data-modifying CTE). False means not taken here — held by a respond run, no
    schedule row yet, or another database — and the caller takes it the usual way
    (`turn_take`, which waits and creates a missing row)."""
    if connection.vendor != "postgresql":
        return run_read(run_id), False
    qn = connection.ops.quote_name
    owner = (
        f"(SELECT {qn(CycleRun._meta.get_field('user').column)} FROM {qn(CycleRun._meta.db_table)} "
        f"WHERE {qn('id')} = %s)"
    )
    claim_sql, claim_params = respond_lease_claim_sql(owner, [run_id], run_id)
    # The CTE runs once, whatever the SELECT reads; both see the statement's snapshot.
    sql = f"WITH turn AS ({claim_sql} RETURNING 1) " + _select_sql(", (SELECT COUNT(*) FROM turn)")
    with connection.cursor() as cursor:
        cursor.execute(sql, [*claim_params, run_id])
        row = cursor.fetchone()
    if row is None:
        raise CycleRun.DoesNotExist(f"run {run_id}")
    return _run_from_row(row[:-1]), bool(row[-1])
