"""A stage's LLM usage rows, held until its record is saved and written by the same
statement (docs/agent-cycle.md, "What a cycle costs"): one INSERT less for every stage
that calls the model.

`stage_execute_chained` opens the hold; the stage's calls (agents/cycle/llm_calls.py)
leave their rows in it unsaved; the record's save inserts them as a data-modifying
CTE on PostgreSQL (elsewhere one statement before the save). A reading stage whose
record waits for the next stage's read passes its rows on with it, as JSON.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from typing import Any

from django.db import connection

from agents.models import LlmUsage

_held: ContextVar[tuple[int, str, list[LlmUsage]] | None] = ContextVar("cycle_usage_held", default=None)


@contextmanager
def usage_holding(run_id: int, stage: str) -> Iterator[list[LlmUsage]]:
    """The list the calls of run `run_id`'s `stage` leave their usage rows in, in this
    thread."""
    rows: list[LlmUsage] = []
    token = _held.set((run_id, stage, rows))
    try:
        yield rows
    finally:
        _held.reset(token)


def usage_held(run_id: int | None, stage: str) -> list[LlmUsage] | None:
    """The hold's list for calls of that run and stage, or None: outside a stage, and
    for anyone else's calls made meanwhile in this thread (a respond run that a write
    of the stage ran inline, in the embedded mode), which save their own rows."""
    held = _held.get()
    if held is None or held[0] != run_id or held[1] != stage:
        return None
    return held[2]


_FIELDS = [f for f in LlmUsage._meta.concrete_fields if not f.primary_key]


def usage_insert_sql(rows: list[LlmUsage], *, only_if: str = "") -> tuple[str, list]:
    """The INSERT of `rows`, for a CTE; `only_if` a condition on the statement's other
    CTEs (the rows go in only when it holds)."""
    # Written here rather than by sns/sql_statements.py `insert_rows_sql`: Django's
    # INSERT is `VALUES (…)` for one row and `SELECT * FROM UNNEST(…)` for more, and
    # neither form takes the WHERE that `only_if` needs (a carried record's usage rows
    # go in only when that record is saved, agents/cycle/run_read.py). Its values are
    # prepared as Django prepares them (`pre_save`, `get_db_prep_save`); the casts give
    # the bare VALUES list its columns' types. tests/cycle/test_usage_insert.py compares
    # the rows with bulk_create's.
    qn = connection.ops.quote_name
    columns = ", ".join(qn(f.column) for f in _FIELDS)
    row_sql = "(" + ", ".join(f"%s::{f.db_type(connection)}" for f in _FIELDS) + ")"
    params: list = []
    for row in rows:
        params += [f.get_db_prep_save(f.pre_save(row, True), connection) for f in _FIELDS]
    where = f" WHERE {only_if}" if only_if else ""
    sql = (
        f"INSERT INTO {qn(LlmUsage._meta.db_table)} ({columns}) "
        f"SELECT * FROM (VALUES {', '.join([row_sql] * len(rows))}) AS v{where}"
    )
    return sql, params


def usage_save_elsewhere(rows: list[LlmUsage]) -> None:
    """Not on PostgreSQL: the rows in a statement of their own."""
    if rows:
        LlmUsage.objects.bulk_create(rows)


def usage_to_json(rows: list[LlmUsage]) -> list[dict[str, Any]]:
    """The rows as a stage task's result can carry them (the Celery chain's JSON)."""
    out = []
    for row in rows:
        values = {}
        for field in _FIELDS:
            value = getattr(row, field.attname)
            if isinstance(value, datetime.datetime):
                value = value.isoformat()
            elif isinstance(value, Decimal):
                value = str(value)
            values[field.attname] = value
        out.append(values)
    return out


def usage_from_json(data: list[dict[str, Any]]) -> list[LlmUsage]:
    rows = []
    for values in data:
        row = LlmUsage(**values)
        row.created_at = datetime.datetime.fromisoformat(values["created_at"])
        row.cost = Decimal(values["cost"])
        rows.append(row)
    return rows
