"""The SQL Django would run for a write, as text and parameters, so that several
writes can go in one round trip (data-modifying CTEs on PostgreSQL: the likes' or
follows' rows with their counters, a cycle stage's record with its lease)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from datetime import UTC, datetime, timedelta

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


# Marks stand for a statement's arguments when it is compiled once: values no real
# argument takes (an id, a time, a JSON object), found again among the parameters. The
# id is negative but within a 32-bit column's range, which Django's lookups check.
_MARK_ID = -2_000_000_000
_MARK_TIME = datetime(1901, 1, 1, tzinfo=UTC)
_MARK_KEY = "stgy-statement-mark"
_KINDS = {
    "id": lambda i: _MARK_ID + i,
    "time": lambda i: _MARK_TIME + timedelta(microseconds=i),
    "json": lambda i: {_MARK_KEY: i},
    # A list of ids passed as one array parameter (PostgreSQL): ids no row has.
    "ids": lambda i: [_MARK_ID + i, _MARK_ID - 1],
    "text": lambda i: f"{_MARK_KEY}:{i}",
}
_compiled: dict[tuple[str, Hashable], list[tuple[str, list]]] = {}
Parts = list[tuple[str, list]]


def compiled_once(key: Hashable, kinds: tuple[str, ...], build: Callable[..., Parts]) -> Callable[..., Parts]:
    """Statements whose text does not depend on their arguments (`kinds`: "id", "time",
    "json", "ids" or "text" per argument), compiled by Django once per process and database alias:
    the fixed statements every cycle stage runs (its record's save with the lease) cost
    a compile each, a visible part of the cycle's CPU (an "ids" argument is a list of ids
    bound as one array parameter). `build(*args)` returns a list of
    (sql, params); so does the returned function, the same text with the parameters of
    its own arguments ("text" is a string compared as it is, not a pattern). `key` names
    the statement: a string, or a tuple when a variant is part of it (sns/compiled_read.py). A None
    argument (SQL NULL, another text) is compiled afresh. A
    "json" argument is found again in psycopg's wrapper, so on PostgreSQL only; an
    argument not found among the parameters is refused (ValueError)."""

    def statements(*args) -> Parts:
        if any(arg is None for arg in args):
            return [(sql, list(params)) for sql, params in build(*args)]
        entry = _compiled.get((connection.alias, key))
        if entry is None:
            entry = _compiled[(connection.alias, key)] = _template(kinds, build)
        return [(sql, [_filled(slot, args) for slot in slots]) for sql, slots in entry]

    return statements


def _template(kinds: tuple[str, ...], build) -> list[tuple[str, list]]:
    marks = [_KINDS[kind](i) for i, kind in enumerate(kinds)]
    template: list = []
    seen: set[int] = set()
    for sql, params in build(*marks):
        slots: list = []
        for param in params:
            wrapped = hasattr(param, "dumps") and hasattr(param, "obj")
            inner = param.obj if wrapped else param
            index = next((i for i, mark in enumerate(marks) if isinstance(inner, type(mark)) and inner == mark), None)
            if index is None:
                slots.append(("constant", param))
                continue
            seen.add(index)
            # The driver's own types come back as they were: a JSON value in its
            # wrapper with its dumps (psycopg's Jsonb), a bigint as psycopg's Int8.
            how = "wrapped" if wrapped else "plain" if type(param) is type(marks[index]) else "typed"
            slots.append((how, index, param))
        template.append((sql, slots))
    if seen != set(range(len(marks))):
        raise ValueError("an argument of the statement did not come out as a parameter")
    return template


def _filled(slot: tuple, args: tuple):
    if slot[0] == "constant":
        return slot[1]
    how, index, param = slot
    if how == "wrapped":
        return type(param)(args[index], param.dumps)
    return type(param)(args[index]) if how == "typed" else args[index]
