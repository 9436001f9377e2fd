"""Query statistics from PostgreSQL's pg_stat_statements for admins (docs/operations.md,
"Database statistics"): whether tracking is on, turning it on and off, resetting it,
the statements by total execution time, and the plan of one of them.

Available only on PostgreSQL with the extension created in the site's database and its
library loaded (shared_preload_libraries). Without the extension (or on SQLite) the
reads answer as the original does, with nothing: no statements, no plan, a clear that
clears nothing; turning tracking on or off, and everything where the extension exists
but its library is not loaded, is refused with `DbStatsUnavailable` (400) saying what
is missing.
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction

from sns.core.errors import InvalidInput

MAX_OFFSET = 10_000_000
MAX_LIMIT = 10_000
DEFAULT_LIMIT = 50
EXPLAIN_TIMEOUT = "3000ms"
RELOAD_WAIT_SECONDS = 2.0
_QUERY_ID = re.compile(r"^(?:0x)?([0-9a-fA-F]{1,16})$")
# Statements that would end or change the transaction the plan is made in.
_NOT_EXPLAINABLE = re.compile(
    r"^(?:begin|start\s+transaction|commit|end|rollback|abort|savepoint|release\s+savepoint|"
    r"set\s+transaction|prepare\s+transaction|commit\s+prepared|rollback\s+prepared)\b",
    re.IGNORECASE,
)


class DbStatsUnavailable(InvalidInput):
    pass


class DbStatsFailed(InvalidInput):
    """PostgreSQL refused the operation (not a superuser, a statement that cannot be
    planned...): 400 with its message, as the original answers."""


@dataclass(frozen=True)
class SlowQuery:
    id: str
    query: str
    calls: int
    total_exec_time: float

    def as_json(self) -> dict:
        return {"id": self.id, "query": self.query, "calls": self.calls,
                "totalExecTime": self.total_exec_time}


def _scalar(sql: str, params=(), using: str = DEFAULT_DB_ALIAS):
    with connections[using].cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return None if row is None else row[0]


def unavailable_reason(using: str = DEFAULT_DB_ALIAS) -> str | None:
    if connections[using].vendor != "postgresql":
        return "db stats need PostgreSQL"
    if not _scalar("SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements')",
                   using=using):
        return "pg_stat_statements is not installed: CREATE EXTENSION pg_stat_statements"
    if _track(using) is None:
        return "pg_stat_statements is not loaded: add it to shared_preload_libraries"
    return None


def _track(using: str = DEFAULT_DB_ALIAS) -> str | None:
    return _scalar("SELECT setting FROM pg_settings WHERE name = 'pg_stat_statements.track'", using=using)


def _require_available(using: str) -> None:
    reason = unavailable_reason(using)
    if reason is not None:
        raise DbStatsUnavailable(reason)


def _installed(using: str) -> bool:
    """Whether there are statistics to read. Without the extension there are none, and
    the reads answer empty, as the original's do; an extension whose library is not
    loaded fails when read, and is refused as unavailable."""
    if connections[using].vendor != "postgresql":
        return False
    installed = _scalar(
        "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements')", using=using
    )
    if installed:
        _require_available(using)
    return bool(installed)


def is_enabled(using: str = DEFAULT_DB_ALIAS) -> bool:
    return unavailable_reason(using) is None and _track(using) not in (None, "none")


def _set_track(track: str, using: str) -> None:
    _require_available(using)
    try:
        with connections[using].cursor() as cursor:
            # ALTER SYSTEM takes no parameters; `track` is one of two literals of ours.
            cursor.execute(f"ALTER SYSTEM SET pg_stat_statements.track = '{track}'")
            cursor.execute("ALTER SYSTEM SET pg_stat_statements.track_utility = off")
            cursor.execute("ALTER SYSTEM SET pg_stat_statements.save = off")
            cursor.execute("SELECT pg_reload_conf()")
    except DatabaseError as exc:
        raise DbStatsFailed(str(exc).strip()) from exc
    # The reload reaches this session's backend a moment later; the answer's `enabled`
    # should already tell the new state.
    deadline = time.monotonic() + RELOAD_WAIT_SECONDS
    while _track(using) != track and time.monotonic() < deadline:
        time.sleep(0.05)


def enable(using: str = DEFAULT_DB_ALIAS) -> None:
    _set_track("top", using)


def disable(using: str = DEFAULT_DB_ALIAS) -> None:
    _set_track("none", using)


def clear(using: str = DEFAULT_DB_ALIAS) -> None:
    if not _installed(using):
        return
    try:
        _scalar("SELECT pg_stat_statements_reset()", using=using)
    except DatabaseError as exc:
        raise DbStatsFailed(str(exc).strip()) from exc


def _hex_id(signed: int) -> str:
    return format(signed & 0xFFFF_FFFF_FFFF_FFFF, "016X")


def slow_queries(
    *, offset: int = 0, limit: int = DEFAULT_LIMIT, order: str = "desc", using: str = DEFAULT_DB_ALIAS
) -> list[SlowQuery]:
    if not _installed(using):
        return []
    offset = min(max(offset, 0), MAX_OFFSET)
    limit = min(max(limit, 1), MAX_LIMIT)
    direction = "ASC" if order == "asc" else "DESC"
    with connections[using].cursor() as cursor:
        cursor.execute(
            "SELECT queryid, query, calls, total_exec_time FROM pg_stat_statements "
            f"ORDER BY total_exec_time {direction} OFFSET %s LIMIT %s",
            [offset, limit],
        )
        rows = cursor.fetchall()
    return [
        SlowQuery(id=_hex_id(int(qid or 0)), query=query or "", calls=int(calls or 0),
                  total_exec_time=float(total or 0))
        for qid, query, calls, total in rows
    ]


def parse_query_id(value: str) -> int:
    """A query id as listed (16 hex digits, an unsigned 64-bit number) to the signed
    bigint pg_stat_statements stores."""
    match = _QUERY_ID.match((value or "").strip())
    if not match:
        raise InvalidInput("bad query id")
    unsigned = int(match.group(1), 16)
    return unsigned - (1 << 64) if unsigned >= 1 << 63 else unsigned


def explain(query_id: str, using: str = DEFAULT_DB_ALIAS) -> list[str]:
    """The generic plan of a tracked statement, its parameters bound to NULL, made in a
    transaction that is rolled back, with a statement timeout."""
    signed = parse_query_id(query_id)
    if not _installed(using):
        return []
    raw = _scalar("SELECT query FROM pg_stat_statements WHERE queryid = %s LIMIT 1", [signed], using)
    if not isinstance(raw, str) or not raw.strip():
        return []
    statement = raw.strip().removesuffix(";").strip()
    if not statement or ";" in statement or _NOT_EXPLAINABLE.match(statement):
        raise DbStatsFailed("transaction statements are not allowed for EXPLAIN")
    name = f"stgy_explain_{secrets.token_hex(6)}"
    try:
        with transaction.atomic(using=using):
            with connections[using].cursor() as cursor:
                cursor.execute(f"SET LOCAL statement_timeout = '{EXPLAIN_TIMEOUT}'")
                cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
                # The text comes from pg_stat_statements, where $1... stand for the
                # constants; psycopg must not read % in it as its own placeholders.
                cursor.execute(f"PREPARE {name} AS {statement}".replace("%", "%%"))
                cursor.execute(
                    "SELECT COUNT(*) FROM pg_prepared_statements ps, unnest(ps.parameter_types) p "
                    "WHERE ps.name = %s",
                    [name],
                )
                argc = int(cursor.fetchone()[0] or 0)
                args = f"({', '.join(['NULL'] * argc)})" if argc else ""
                cursor.execute(f"EXPLAIN (FORMAT TEXT) EXECUTE {name}{args}")
                lines = [str(row[0]) for row in cursor.fetchall() if row and row[0]]
                cursor.execute(f"DEALLOCATE {name}")
                transaction.set_rollback(True, using=using)
    except DatabaseError as exc:
        raise DbStatsFailed(str(exc).strip().splitlines()[0] if str(exc).strip() else "explain failed") from exc
    return [line for line in lines if line.strip()]
