"""Model instances and values from the rows of a written SQL statement, converted as
the ORM's compiler converts them (text to datetime and 0/1 to bool on SQLite, JSON,
decimals; nothing for most columns on PostgreSQL).

A statement's columns are described once, as its parts in order — a model's concrete
fields under a table alias, or one value read as an ORM expression or field — and the
converters each column needs are worked out once per database, not per row. Used by the pages' post
reads (sns/selectors/post_models.py) and the agent cycle's run reads
(agents/cycle/run_read.py, agents/cycle/run_end.py).
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Field
from django.db.models.expressions import RawSQL


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

    def converters(self) -> list[tuple[int, list]]:
        """The converters of the columns that have any, worked out once per database
        vendor (the tests switch databases within one process)."""
        vendor = connection.vendor
        found = self._converters.get(vendor)
        if found is None:
            found = self._converters[vendor] = [
                (i, functions)
                for i, expression in enumerate(self.expressions)
                if (functions := connection.ops.get_db_converters(expression) + expression.get_db_converters(connection))
            ]
        return found

    def converted(self, row, converters=None) -> list:
        """The row's values as the ORM would hand them to a model."""
        row = list(row)
        for i, functions in self.converters() if converters is None else converters:
            value = row[i]
            for convert in functions:
                value = convert(value, self.expressions[i], connection)
            row[i] = value
        return row

    def values(self, row) -> list:
        """One item per part: a model instance (None when its primary key is NULL, as a
        LEFT JOIN that found nothing leaves it, the way select_related does) or the value."""
        converters = self.converters()
        if converters:
            row = self.converted(row, converters)
        db = connection.alias
        items = []
        for model, start, end, names, pk in self.spans:
            if model is None:
                items.append(row[start])
            elif row[pk] is None:
                items.append(None)
            else:
                items.append(model.from_db(db, names, row[start:end]))
        return items
