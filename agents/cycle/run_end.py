"""The end of a run on PostgreSQL in one statement: the usage totals, the finish
time, the status and the missing stages written, the cycle lease released, and the
run with its user read back — instead of a read and then a save (docs/agent-cycle.md,
"What a cycle costs")."""

from __future__ import annotations

import datetime

from django.db import connection

from agents.models import AgentState, CycleRun, LlmUsage
from agents.runs.lease import lease_values
from sns.internals.model_rows import RowParts
from sns.models import User

from . import STAGES

# The totals as cycle_end used to annotate them, each COALESCEd to 0 as it set them.
_TOTALS = (
    ("llm_calls", "COUNT(u.{id})"),
    ("prompt_tokens", "SUM(u.{prompt_tokens})"),
    ("completion_tokens", "SUM(u.{completion_tokens})"),
    ("cached_tokens", "SUM(u.{cached_tokens})"),
    ("cost", "SUM(u.{cost})"),
)
# The ended run and its user as the statement below returns them (PostgreSQL only).
_RUN_AND_USER = RowParts(((CycleRun, "r"), (User, "u")))


def run_end_postgresql(run_id: int, finished_at: datetime.datetime) -> CycleRun | None:
    """The ended run with its user cached (as select_related leaves it), or None if
    there is no such run running (a run already ended is left as it is). Its `details` are the stored ones as read before the end,
    with "missingStages" added last, as the read-then-save left them in memory."""
    qn = connection.ops.quote_name
    run_table, user_table = qn(CycleRun._meta.db_table), qn(User._meta.db_table)
    usage_table, state_table = qn(LlmUsage._meta.db_table), qn(AgentState._meta.db_table)
    usage_cols = {name: qn(LlmUsage._meta.get_field(name).column) for name in
                  ("id", "prompt_tokens", "completion_tokens", "cached_tokens", "cost")}
    usage_run = qn(LlmUsage._meta.get_field("run").column)
    run_user = qn(CycleRun._meta.get_field("user").column)
    release = lease_values(release=True)
    assert all(value is None for value in release.values())
    lease_set = ", ".join(f"{qn(AgentState._meta.get_field(name).column)} = NULL" for name in release)
    lease_run = qn(AgentState._meta.get_field("lease_run").column)
    state_user = qn(AgentState._meta.get_field("user").column)
    totals = ", ".join(
        f"{qn(name)} = COALESCE((SELECT {expr.format(**usage_cols)} FROM {usage_table} u "
        f"WHERE u.{usage_run} = r.{qn('id')}), 0)"
        for name, expr in _TOTALS
    )
    run_columns = [field.column for field in CycleRun._meta.concrete_fields]
    user_columns = [field.column for field in User._meta.concrete_fields]
    sql = (
        f"WITH old AS (SELECT {qn('id')}, {qn('details')} AS old_details, "
        f"(SELECT jsonb_agg(s.name ORDER BY s.n) FROM unnest(%s::text[]) WITH ORDINALITY AS s(name, n) "
        f"WHERE NOT jsonb_exists(c.{qn('stages')}, s.name)) AS missing "
        f"FROM {run_table} c WHERE c.{qn('id')} = %s AND c.{qn('status')} = %s), "
        f"lease AS (UPDATE {state_table} SET {lease_set} WHERE {lease_run} = %s AND {state_user} = "
        f"(SELECT {run_user} FROM {run_table} WHERE {qn('id')} = %s) AND EXISTS (SELECT 1 FROM old)), "
        f"ended AS (UPDATE {run_table} r SET {totals}, {qn('finished_at')} = %s, "
        # As Python's int((finished - started).total_seconds() * 1000): float seconds, truncated.
        f"{qn('elapsed_ms')} = trunc(extract(epoch FROM (%s - r.{qn('started_at')}))::float8 * 1000), "
        f"{qn('status')} = CASE WHEN old.missing IS NULL THEN %s ELSE %s END, "
        f"{qn('details')} = CASE WHEN old.missing IS NULL THEN r.{qn('details')} "
        f"ELSE jsonb_set(r.{qn('details')}, '{{missingStages}}', old.missing) END "
        f"FROM old WHERE r.{qn('id')} = old.{qn('id')} "
        f"RETURNING {', '.join(f'r.{qn(column)}' for column in run_columns)}, old.old_details, old.missing) "
        f"SELECT {', '.join(f'ended.{qn(column)}' for column in run_columns)}, "
        f"{', '.join(f'u.{qn(column)}' for column in user_columns)}, ended.old_details, ended.missing "
        f"FROM ended JOIN {user_table} u ON u.{qn('id')} = ended.{run_user}"
    )
    params = [list(STAGES), run_id, CycleRun.Status.RUNNING, run_id, run_id, finished_at, finished_at,
              CycleRun.Status.DONE, CycleRun.Status.FAILED]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    run, user = _RUN_AND_USER.values(row[:-2])
    CycleRun._meta.get_field("user").set_cached_value(run, user)
    old_details, missing = row[-2], row[-1]
    details_field = CycleRun._meta.get_field("details")
    run.details = details_field.from_db_value(old_details, None, connection)
    if missing is not None:
        run.details["missingStages"] = details_field.from_db_value(missing, None, connection)
    return run
