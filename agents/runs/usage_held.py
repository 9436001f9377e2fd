"""A stage's LLM usage rows, held until its record is saved and written by the same
statement (docs/agent-cycle.md, "What a cycle costs"): one INSERT less for every stage
that calls the model.

agents/cycle/run.py `stage_execute` opens the hold; the stage's calls (llm_calls.py)
leave their rows in it unsaved, each with its call trace; the record's save (record.py)
inserts both as data-modifying CTEs on PostgreSQL (elsewhere one statement each before
the save).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from agents.llm.trace import traces_of
from agents.llm.usage import usage_rows_save
from agents.models import LlmCallTrace, LlmUsage
from sns.reads.sql_statements import insert_rows_sql

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


def usage_ctes(rows: list[LlmUsage]) -> tuple[str, list]:
    """The INSERTs of `rows` and of the call traces that travel with them
    (agents/llm/trace.py), as bulk_create writes them, as CTEs for the record's save:
    `, usage AS (...), traces AS (...)` and their parameters ("" when no rows)."""
    parts, params = [], []
    for name, model, objs in (("usage", LlmUsage, rows), ("traces", LlmCallTrace, traces_of(rows))):
        if objs:
            sql, values = insert_rows_sql(model, objs)
            parts.append(f", {name} AS ({sql})")
            params.extend(values)
    return "".join(parts), params


def usage_save_elsewhere(rows: list[LlmUsage]) -> None:
    """Not on PostgreSQL: the rows in statements of their own."""
    usage_rows_save(rows)
