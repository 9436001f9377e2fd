"""Reads prepared once per connection on PostgreSQL (sns/internals/__init__.py says why
this lives here)."""

from __future__ import annotations

from functools import lru_cache

from django.db.backends.utils import CursorDebugWrapper, CursorWrapper

from . import internals_on

# Django opens its psycopg connections with preparation off (prepare_threshold None),
# which refuses even an explicit prepare=True; a threshold never reached prepares only
# the statements that ask for it, so Django's own statements stay unprepared.
_NEVER = 2**31 - 1




def fetch_all(database, statement: str, params) -> list[tuple]:
    """The rows of `statement`, prepared on PostgreSQL when the switch is on, else run
    through Django's plain cursor. `database`: a connection of django.db.connections."""
    if database.vendor != "postgresql" or not internals_on():
        with database.cursor() as cursor:
            cursor.execute(statement, params)
            return cursor.fetchall()
    with _prepared_cursor(database) as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall()


def _prepared_cursor(database):
    database.ensure_connection()
    raw = database.connection
    if raw.prepare_threshold is None:
        raw.prepare_threshold = _NEVER
    with database.wrap_database_errors:
        cursor = _classes()[0](raw)
    database.validate_thread_sharing()
    return _classes()[1](cursor, database) if database.queries_logged else CursorWrapper(cursor, database)


@lru_cache(maxsize=1)
def _classes():
    import psycopg

    class PreparedCursor(psycopg.Cursor):
        """psycopg's server-binding cursor, every statement prepared."""

        def execute(self, query, params=None, *, prepare=None, binary=None):
            return super().execute(query, params, prepare=True, binary=binary)

    class LoggedCursor(CursorDebugWrapper):
        """Logs the statement with its parameters filled in, as Django logs its own
        statements (from a server-binding cursor it would log the $1 form)."""

        def execute(self, sql, params=None):
            with self.debug_sql(self.db.ops.compose_sql(sql, params)):
                return CursorWrapper.execute(self, sql, params)

    return PreparedCursor, LoggedCursor
