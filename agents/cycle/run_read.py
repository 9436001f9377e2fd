"""The run record as each stage reads it — with its AI user and the user's interest,
in one written statement — and for a writing stage the writing turn taken in the
same round trip; on PostgreSQL the record of the reading stage before it, which that
stage left unsaved, is saved in the same statement too (docs/agent-cycle.md, "What a
cycle costs")."""

from __future__ import annotations

from typing import Any

from django.db import connection

from agents.models import AgentState, CycleRun, Interest
from agents.runs.lease import lease_values, respond_lease_claim_sql
from agents.runs.usage_held import usage_from_json, usage_insert_sql
from sns.models import User
from sns.model_rows import RowParts

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


def _unsaved_ctes(run_id: int, unsaved: dict[str, Any] | None, *, renew_lease: bool) -> tuple[str, list]:
    """The CTEs that save the previous stage's record, details and usage rows
    (`unsaved`: "stage", "record", "details", "usage") and renew the cycle lease, as
    that stage's own save would have; "" without `unsaved`. A record already there is left alone, with the details:
    this task was delivered again after a later stage had saved more."""
    if unsaved is None:
        return "", []
    qn = connection.ops.quote_name
    run_table = qn(CycleRun._meta.db_table)
    prep = CycleRun._meta.get_field("stages").get_db_prep_save
    stages, details = qn("stages"), qn("details")
    sql = (
        f"saved AS (UPDATE {run_table} SET {stages} = {stages} || %s, {details} = %s "
        f"WHERE {qn('id')} = %s AND NOT jsonb_exists({stages}, %s) RETURNING 1)"
    )
    params = [prep({unsaved["stage"]: unsaved["record"]}, connection), prep(unsaved["details"], connection),
              run_id, unsaved["stage"]]
    if unsaved.get("usage"):  # its usage rows, with its record or not at all
        usage_sql, usage_params = usage_insert_sql(
            usage_from_json(unsaved["usage"]), only_if="EXISTS (SELECT 1 FROM saved)"
        )
        sql += f", usage AS ({usage_sql})"
        params += usage_params
    if renew_lease:
        until = lease_values(release=False)["lease_until"]
        run_user = qn(CycleRun._meta.get_field("user").column)
        sql += (
            f", lease AS (UPDATE {qn(AgentState._meta.db_table)} SET {qn('lease_until')} = %s "
            f"WHERE {qn('lease_run')} = %s AND {qn('user_id')} = "
            f"(SELECT {run_user} FROM {run_table} WHERE {qn('id')} = %s) RETURNING 1)"
        )
        params += [connection.ops.adapt_datetimefield_value(until), run_id, run_id]
    return sql, params


def _unsaved_apply(run: CycleRun, unsaved: dict[str, Any] | None, lease_kept: bool) -> None:
    """The run as the statement left it: the previous stage's record and details
    unless they were there already (then the row read is the newer state)."""
    if unsaved is None or unsaved["stage"] in run.stages:
        return
    record = unsaved["record"]
    run.stages[unsaved["stage"]] = record
    run.details = unsaved["details"]
    if not lease_kept:
        record.setdefault("notes", {})["lease"] = "lost (expired and taken by another run)"
        run.save(update_fields=["stages"])


def run_read(run_id: int, unsaved: dict[str, Any] | None = None) -> CycleRun:
    """`unsaved` only on PostgreSQL (`stage_execute` leaves records unsaved nowhere else)."""
    ctes, params = _unsaved_ctes(run_id, unsaved, renew_lease=True)
    sql = _select_sql(", (SELECT COUNT(*) FROM lease)" if ctes else "")
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {ctes} {sql}" if ctes else sql, [*params, run_id])
        row = cursor.fetchone()
    if row is None:
        raise CycleRun.DoesNotExist(f"run {run_id}")
    if not ctes:
        return _run_from_row(row)
    run = _run_from_row(row[:-1])
    _unsaved_apply(run, unsaved, bool(row[-1]))
    return run


def run_read_taking_turn(run_id: int, unsaved: dict[str, Any] | None = None) -> tuple[CycleRun, bool]:
    """The run record, and whether the writing turn was taken for it in the same
    statement (PostgreSQL: the respond lease's claim, `respond_lease_claim_sql`, as a
    data-modifying CTE). False means not taken here — held by a respond run, no
    schedule row yet, or another database — and the caller takes it the usual way
    (`turn_take`, which waits and creates a missing row). The previous stage's
    `unsaved` record goes in without the cycle lease's renewal (the claim updates the
    same row, which one statement cannot update twice): this stage's own save renews it."""
    if connection.vendor != "postgresql":
        return run_read(run_id, unsaved), False
    qn = connection.ops.quote_name
    owner = (
        f"(SELECT {qn(CycleRun._meta.get_field('user').column)} FROM {qn(CycleRun._meta.db_table)} "
        f"WHERE {qn('id')} = %s)"
    )
    claim_sql, claim_params = respond_lease_claim_sql(owner, [run_id], run_id)
    saved_sql, saved_params = _unsaved_ctes(run_id, unsaved, renew_lease=False)
    # The CTEs run once, whatever the SELECT reads; all see the statement's snapshot.
    sql = f"WITH turn AS ({claim_sql} RETURNING 1){', ' + saved_sql if saved_sql else ''} " + _select_sql(
        ", (SELECT COUNT(*) FROM turn)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*claim_params, *saved_params, run_id])
        row = cursor.fetchone()
    if row is None:
        raise CycleRun.DoesNotExist(f"run {run_id}")
    run = _run_from_row(row[:-1])
    _unsaved_apply(run, unsaved, lease_kept=True)
    return run, bool(row[-1])
