"""Model instances and values from the rows of a written SQL statement, converted as
the ORM's compiler converts them (text to datetime and 0/1 to bool on SQLite, JSON,
decimals; nothing for most columns on PostgreSQL).

A statement's columns are described once, as its parts in order — a model's concrete
fields under a table alias, or one value read as an ORM expression or field — and the
converters each column needs are worked out once per database, not per row. Used by the
pages' post reads (sns/selectors/post_reads/instances.py) and every other statement
written by hand that gives instances (sns/reads/sql_statements.py says how they are written).
"""

from __future__ import annotations

from functools import lru_cache

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field, Model
from django.db.models.base import ModelState
from django.db.models.expressions import RawSQL
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init

from . import internals_on


class RowParts:
    """`parts`: each either `(Model, alias)` — the model's concrete fields, in order,
    read from the table under that alias — or one value, given as an expression (such as
    `field.get_col(alias)`) or as the model field its output is."""

    def __init__(self, parts):
        self.expressions = []
        # Per part: (model or None, first column, column after, attnames, pk column).
        self.spans = []
        for part in parts:
            start = len(self.expressions)
            if isinstance(part, tuple):
                model, alias = part
                fields = model._meta.concrete_fields
                self.expressions += [field.get_col(alias) for field in fields]
                pk = start + list(fields).index(model._meta.pk)
                self.spans.append((model, start, len(self.expressions), [field.attname for field in fields], pk))
            else:
                expression = RawSQL("", (), output_field=part) if isinstance(part, Field) else part
                self.expressions.append(expression)
                self.spans.append((None, start, start + 1, None, None))
        self._converters = {}

    def converters(self, database=None) -> list[tuple[int, list]]:
        """The converters of the columns that have any, worked out once per database
        vendor (the tests switch databases within one process). `database`: the default
        connection, if the caller has it already."""
        if database is None:
            database = _default()
        vendor = database.vendor
        found = self._converters.get(vendor)
        if found is None:
            found = self._converters[vendor] = [
                (i, functions)
                for i, expression in enumerate(self.expressions)
                if (functions := database.ops.get_db_converters(expression) + expression.get_db_converters(database))
            ]
        return found

    def converted(self, row, converters=None, database=None) -> list:
        """The row's values as the ORM would hand them to a model."""
        if database is None:
            database = connection
        row = list(row)
        for i, functions in self.converters(database) if converters is None else converters:
            value = row[i]
            for convert in functions:
                value = convert(value, self.expressions[i], database)
            row[i] = value
        return row

    def values(self, row) -> list:
        """One item per part: a model instance (None when its primary key is NULL, as a
        LEFT JOIN that found nothing leaves it, the way select_related does) or the value."""
        return self.values_of((row,))[0]

    def values_of(self, rows) -> list[list]:
        """`values` of each row, the converters and instance makers looked up once."""
        database = _default()
        converters = self.converters(database)
        db = database.alias
        spans = [
            (maker(model) if model else None, start, end, names, pk)
            for model, start, end, names, pk in self.spans
        ]
        result = []
        for row in rows:
            if converters:
                row = self.converted(row, converters, database)
            items = []
            for make, start, end, names, pk in spans:
                if make is None:
                    items.append(row[start])
                elif row[pk] is None:
                    items.append(None)
                else:
                    items.append(make(db, names, row[start:end]))
            result.append(items)
        return result


def _default():
    # The connection itself rather than the `connection` proxy, whose every attribute
    # read looks the connection up in a context-local store (sns/selectors/post_reads/statement.py
    # `vendor` says what that costs): looked up once per read.
    return connections[DEFAULT_DB_ALIAS]


def maker(model):
    """`model.from_db`, or a quicker equal when nothing tells them apart: for a model
    whose every column is a plain attribute (a foreign key's id included, which a new
    instance sets as plainly) and for which nobody listens to pre_init or post_init,
    `from_db` with all its columns amounts to a loaded `_state` and the columns in its
    `__dict__`. Model.__init__ was the largest single cost of a home view's reads (two
    instances a card). With STGY_FRAMEWORK_INTERNALS off, always `from_db`."""
    if (
        not internals_on()
        or model.from_db.__func__ is not Model.from_db.__func__
        or not _plain(model)
        or pre_init.has_listeners(model)
        or post_init.has_listeners(model)
    ):
        return model.from_db
    columns = len(model._meta.concrete_fields)

    def make(db, names, values):
        if len(values) != columns:
            return model.from_db(db, names, values)
        instance = model.__new__(model)
        state = instance._state = ModelState()
        state.adding, state.db = False, db
        instance.__dict__.update(zip(names, values))
        return instance

    return make


@lru_cache(maxsize=8)
def _plain(model) -> bool:
    return all(
        type(model.__dict__.get(field.attname)) in (DeferredAttribute, ForeignKeyDeferredAttribute)
        for field in model._meta.concrete_fields
    )
