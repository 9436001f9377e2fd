"""The SQL Django would run for a write, as text and parameters, so that several
writes can go in one round trip (data-modifying CTEs on PostgreSQL: the likes' or
follows' rows with their counters, a cycle stage's record with its lease)."""

from __future__ import annotations

from django.db import connection
from django.db.models.sql import InsertQuery, UpdateQuery


def insert_rows_sql(model, objs: list, returning: list | None = None) -> tuple[str, tuple]:
    """The INSERT Django would run to save the new `objs` (as bulk_create does, one
    statement), returning the `returning` fields."""
    opts = model._meta
    query = InsertQuery(model)
    query.insert_values([f for f in opts.concrete_fields if f is not opts.auto_field], objs)
    compiler = query.get_compiler(connection.alias)
    compiler.returning_fields = list(returning or [])
    [(sql, params)] = compiler.as_sql()
    return sql, params


def insert_sql(obj) -> tuple[str, tuple]:
    """The INSERT statement Django would run to save the new `obj`, returning its id."""
    return insert_rows_sql(type(obj), [obj], [obj._meta.pk])


def update_sql(queryset, values: dict) -> tuple[str, tuple]:
    """The UPDATE statement Django would run for `queryset.update(**values)`."""
    query = queryset.query.chain(UpdateQuery)
    query.add_update_values(values)
    return query.get_compiler(queryset.db).as_sql()
