"""Plain parameterised SQL for the statements written by hand: the writes that go in one
round trip on PostgreSQL (data-modifying CTEs: the likes' or follows' rows with their
counters, a cycle stage's record with its lease, a memory upsert with its versions) and
the reads the AI cycle runs in every stage, whose querysets cost more CPU to build than
to run (bench/cycle_overhead). A statement's text is a module constant, or built once per
shape (`functools.lru_cache`); a call binds only its parameters. Values go through the
model field's `get_db_prep_save`, as the ORM's own INSERT and UPDATE send them, and rows
come back through `sns.internals.model_rows.RowParts`, which converts them as the ORM would.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import connection


def table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def column(model, name: str) -> str:
    return connection.ops.quote_name(model._meta.get_field(name).column)


def columns(model, alias: str) -> str:
    """The model's concrete columns under `alias`, in the order `RowParts((model, alias))`
    reads them."""
    qn = connection.ops.quote_name
    return ", ".join(f"{alias}.{qn(field.column)}" for field in model._meta.concrete_fields)


def ids_in(sql: str, ids: Sequence[int], vendor: str | None = None) -> tuple[str, list]:
    """`sql IN ids` as a condition and its parameters: on PostgreSQL one array parameter,
    so the text is the same for any number of ids; SQLite binds no arrays. `vendor`:
    the database's, for a statement text built once per vendor."""
    if (vendor or connection.vendor) == "postgresql":
        return f"{sql} = ANY(%s::bigint[])", [list(ids)]
    return f"{sql} IN ({', '.join(['%s'] * len(ids))})", list(ids)


def prepared(model, name: str, value):
    """`value` of the model's field `name` as the ORM sends it to the database."""
    return model._meta.get_field(name).get_db_prep_save(value, connection)


def set_clause(model, names: Iterable[str]) -> str:
    """`"col" = %s, …` for an UPDATE of the fields `names`."""
    return ", ".join(f"{column(model, name)} = %s" for name in names)


def insert_rows_sql(model, objs: list, returning: Sequence[str] = ()) -> tuple[str, list]:
    """The INSERT of the new `objs` (every concrete field but an automatic primary key,
    one row each, their `pre_save` values as `bulk_create` takes them), returning the
    columns of the fields named in `returning`."""
    opts = model._meta
    fields = [field for field in opts.concrete_fields if field is not opts.auto_field]
    row = f"({', '.join(['%s'] * len(fields))})"
    sql = (
        f"INSERT INTO {table(model)} ({', '.join(connection.ops.quote_name(f.column) for f in fields)}) "
        f"VALUES {', '.join([row] * len(objs))}"
    )
    if returning:
        sql += f" RETURNING {', '.join(column(model, name) for name in returning)}"
    params = [field.get_db_prep_save(field.pre_save(obj, True), connection) for obj in objs for field in fields]
    return sql, params


def fetch(sql: str, params: Sequence) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()
