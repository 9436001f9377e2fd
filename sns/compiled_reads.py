"""Reads whose SQL text does not depend on their arguments, compiled by Django once per
process and database alias (`sns.sql_statements.compiled_once`), their rows converted as
`values_list` converts them. For the hot reads of an AI user's cycle: compiling a
queryset of a few joins and building a model instance a row cost more than the query
itself (bench/README.md, "Round 11 — cycle6")."""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection

from .sql_statements import compiled_once

# The compiler of each read's last compile, per (alias, key): what converts its columns.
_compilers: dict[tuple[str, str], object] = {}


def compiled_values(key: str, kinds: tuple[str, ...], build: Callable) -> Callable[..., list[tuple]]:
    """`build(*args)` returns a `values_list` queryset whose SQL text is the same for
    every argument of `kinds` (see `compiled_once`: keep whatever else shapes the text —
    a LIMIT, the viewer's kind — in `key`); the returned function runs it with its own
    arguments and returns the rows as that queryset would, tuples in its order."""

    def parts(*args):
        compiler = build(*args).query.get_compiler(connection.alias)
        sql, params = compiler.as_sql()
        _compilers[(connection.alias, key)] = compiler
        return [(sql, params)]

    statement = compiled_once(key, kinds, parts)

    def rows(*args) -> list[tuple]:
        [(sql, params)] = statement(*args)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            fetched = cursor.fetchall()
        compiler = _compilers[(connection.alias, key)]
        return list(compiler.results_iter(results=[fetched], tuple_expected=True))

    return rows
