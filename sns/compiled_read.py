"""An ORM read compiled once per process: the queryset built with marks for its
arguments and compiled by `compiled_once` below, its rows made into the
instances the queryset would give (the model, its annotations, its select_related
relations one level deep), or the dicts or tuples of a `values()` / `values_list()`.
Building and compiling a read with a dozen annotations cost more CPU than running it
(bench/cycle_overhead's stage CPU).

PostgreSQL only: a list of ids goes as one array parameter, which SQLite cannot bind;
there `CompiledRead` runs the queryset as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from datetime import UTC, datetime, timedelta

from django.db import connection
from django.db.models import QuerySet
from django.db.models.query import ModelIterable, ValuesIterable, ValuesListIterable

from .model_rows import RowParts
from .models import User

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
    `build` as it is. `kinds` as compiled_once's."""

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
