"""Fast row writers: COPY on PostgreSQL, executemany on SQLite.

The generator writes synthetic rows directly, bypassing `sns.services`: this is test
data produced in bulk, with every counter computed from the plan beforehand, not a
social action. Columns are named by model field and mapped through `_meta`, so a
renamed column follows the model.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime

from django.core.management.color import no_style
from django.db import connection
from django.db.models import Model


class RowWriter:
    def __init__(self) -> None:
        self.vendor = connection.vendor
        self.rows_written = 0

    def write(self, model: type[Model], fields: Sequence[str], rows: Iterable[Sequence]) -> int:
        table = model._meta.db_table
        columns = [model._meta.get_field(name).column for name in fields]
        qn = connection.ops.quote_name
        column_sql = ", ".join(qn(c) for c in columns)
        count = 0
        with connection.cursor() as cursor:
            if self.vendor == "postgresql":
                raw = cursor.cursor  # the psycopg cursor under Django's wrapper
                with raw.copy(f"COPY {qn(table)} ({column_sql}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
                        count += 1
            else:
                placeholders = ", ".join(["%s"] * len(columns))
                sql = f"INSERT INTO {qn(table)} ({column_sql}) VALUES ({placeholders})"
                batch: list[list] = []
                for row in rows:
                    batch.append([_adapt(v) for v in row])
                    if len(batch) >= 5000:
                        cursor.executemany(sql, batch)
                        count += len(batch)
                        batch = []
                if batch:
                    cursor.executemany(sql, batch)
                    count += len(batch)
        self.rows_written += count
        return count


def _adapt(value):
    if isinstance(value, datetime):
        return connection.ops.adapt_datetimefield_value(value)
    return value


def as_json(value) -> str:
    """JSON columns get text: COPY parses it, and psycopg would send a list as an array."""
    return json.dumps(value, ensure_ascii=False)


def tables_of(app_labels: Sequence[str]) -> list[str]:
    from django.apps import apps

    tables = []
    for label in app_labels:
        for model in apps.get_app_config(label).get_models():
            if model._meta.managed and not model._meta.proxy:
                tables.append(model._meta.db_table)
    return tables


def reset(app_labels: Sequence[str] = ("sns", "agents", "sessions", "admin")) -> None:
    """Empty every table of the given apps (and restart their sequences)."""
    tables = [t for t in tables_of(app_labels) if t in connection.introspection.table_names()]
    statements = connection.ops.sql_flush(no_style(), tables, reset_sequences=True, allow_cascade=True)
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def analyze() -> None:
    """Planner statistics, and on PostgreSQL the visibility map too: right after a bulk
    load no page is marked all-visible, so index-only scans would still visit the heap
    until autovacuum came by, unlike on a database that has been running. (VACUUM
    cannot run inside a transaction, as in the smoke test's.)"""
    vacuum = connection.vendor == "postgresql" and not connection.in_atomic_block
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if vacuum else "ANALYZE")


def reset_sequences(models: Sequence[type[Model]]) -> None:
    """After rows with explicit ids, move serial sequences past them (PostgreSQL)."""
    statements = connection.ops.sequence_reset_sql(no_style(), list(models))
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)
