"""An ORM read compiled once per process: the queryset built with marks for its
arguments and compiled by `sns.sql_statements.compiled_once`, its rows made into the
instances the queryset would give (the model, its annotations, its select_related
relations one level deep), or the dicts or tuples of a `values()` / `values_list()`.
Building and compiling a read with a dozen annotations cost more CPU than running it
(bench/cycle_overhead's stage CPU).

PostgreSQL only: a list of ids goes as one array parameter, which SQLite cannot bind;
there `CompiledRead` runs the queryset as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from django.db import connection
from django.db.models import QuerySet
from django.db.models.expressions import RawSQL
from django.db.models.query import ModelIterable, ValuesIterable, ValuesListIterable

from .model_rows import RowParts
from .models import User
from .sql_statements import compiled_once


def ids_array(ids: list[int]):
    """`field__in` value for a list of ids: on PostgreSQL one array parameter (a
    statement compiled once has one text for any number of ids), elsewhere the list."""
    if connection.vendor != "postgresql":
        return ids
    return RawSQL("SELECT unnest(%s::bigint[])", (ids,))


def viewer_variant(user) -> str:
    """The part of a viewer that changes the visibility rule's text (sns/selectors/visibility.py)."""
    return "admin" if user.is_admin else "person"


def viewer_of(variant: str, user_id) -> User:
    """A stand-in for the viewer with what the visibility rule and the boundaries read
    of it, its id a mark when the statement is compiled."""
    return User(id=user_id, is_admin=variant == "admin")


class _Layout:
    """Where the model, its annotations and its related rows sit in the compiled
    statement's columns, read once from the compiler that wrote it."""

    def __init__(self, compiler) -> None:
        info = compiler.klass_info
        model = info["model"]
        spans = [(info["select_fields"], (model, "t0"), None)]
        for related in info.get("related_klass_infos") or []:
            if related.get("related_klass_infos") or related.get("from_parent"):
                raise ValueError("only select_related one level deep is compiled once")
            spans.append((related["select_fields"], (related["model"], "t1"), related))
        for name, index in compiler.annotation_col_map.items():
            spans.append(([index], compiler.select[index][0], name))
        spans.sort(key=lambda span: span[0][0])
        parts, self.slots = [], []
        at = 0
        for columns, part, meaning in spans:
            width = len(part[0]._meta.concrete_fields) if isinstance(part, tuple) else 1
            if columns != list(range(at, at + width)):
                raise ValueError("the statement's columns are not laid out as expected")
            at += width
            parts.append(part)
            self.slots.append(meaning)
        if at != len(compiler.select):
            raise ValueError("the statement has columns that no part describes")
        self.rows = RowParts(parts)

    def instances(self, rows) -> list:
        out = []
        for values in self.rows.values_of(rows):
            obj = values[0]
            for meaning, value in zip(self.slots[1:], values[1:]):
                if isinstance(meaning, str):
                    setattr(obj, meaning, value)
                else:  # a related row, as select_related's populator sets it
                    meaning["local_setter"](obj, value)
                    if value is not None:
                        meaning["remote_setter"](value, obj)
            out.append(obj)
        return out


class _ValuesLayout:
    """The columns of a `values()` (dicts) or `values_list()` (tuples) statement, in the
    order Django's iterables name them, with their converters."""

    def __init__(self, queryset, compiler) -> None:
        query = queryset.query
        selected = getattr(query, "selected", None)
        self.names = (
            list(selected) if selected
            else [*query.extra_select, *query.values_select, *query.annotation_select]
        )
        if len(self.names) != len(compiler.select):
            raise ValueError("the statement has columns that no name describes")
        self.rows = RowParts([column[0] for column in compiler.select])
        self.as_dicts = issubclass(queryset._iterable_class, ValuesIterable)
        if not self.as_dicts and queryset._iterable_class is not ValuesListIterable:
            raise ValueError("only values() and plain values_list() reads are compiled once")

    def instances(self, rows) -> list:
        # Every part is one column: only the columns with converters are touched.
        converters = self.rows.converters()
        if converters:
            rows = [self.rows.converted(row, converters) for row in rows]
        if self.as_dicts:
            return [dict(zip(self.names, row)) for row in rows]
        return [tuple(row) for row in rows]


# Each statement's layout, kept as compiled_once keeps its text (per database alias and
# key), so that reads made anew under one key share both.
_layouts: dict[tuple[str, tuple[str, Hashable]], _Layout | _ValuesLayout] = {}


class CompiledRead:
    """`read(variant, *args)` gives `list(build(variant, *args))`, its statement compiled
    once per process, database and `variant`: whatever else changes the text, such as
    the viewer's kind or a LIMIT, as any hashable value (a string, a tuple), handed to
    `build` as it is. `kinds` as compiled_once's; an "ids" argument goes to `build` as a
    list, for `ids_array`."""

    def __init__(self, key: str, kinds: tuple[str, ...], build: Callable[..., QuerySet]) -> None:
        self.key, self.kinds, self.build = key, kinds, build
        self._statements: dict[Hashable, Callable] = {}

    def first(self, variant: Hashable, *args):
        """The first row of a read built as `queryset[:1]`, or None."""
        rows = self(variant, *args)
        return rows[0] if rows else None

    def __call__(self, variant: Hashable, *args) -> list:
        if connection.vendor != "postgresql" or any(arg is None for arg in args):
            return list(self.build(variant, *args))
        statements = self._statements.get(variant)
        if statements is None:
            statements = self._statements[variant] = compiled_once(
                (self.key, variant), self.kinds, lambda *marks: self._compile(variant, marks)
            )
        [(sql, params)] = statements(*args)
        layout = _layouts[(connection.alias, (self.key, variant))]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return layout.instances(cursor.fetchall())

    def _compile(self, variant: Hashable, marks) -> list[tuple[str, list]]:
        queryset = self.build(variant, *marks)
        compiler = queryset.query.get_compiler(connection.alias)
        sql, params = compiler.as_sql()
        if issubclass(queryset._iterable_class, ModelIterable):
            layout = _Layout(compiler)
        else:
            layout = _ValuesLayout(queryset, compiler)
        _layouts[(connection.alias, (self.key, variant))] = layout
        return [(sql, list(params))]


def compiled_values(key: str, kinds: tuple[str, ...], build: Callable[..., QuerySet]) -> Callable[..., list]:
    """A `CompiledRead` of one variant (everything that shapes the text, such as a LIMIT
    or the viewer's kind, kept in `key`): `read(*args)` gives `list(build(*args))`."""
    read = CompiledRead(key, kinds, lambda _variant, *args: build(*args))
    return lambda *args: read("", *args)
