"""Where the post reads' SQL differs between PostgreSQL (production, CI) and SQLite
(the embedded demo, `bin/test` without a DATABASE_URL): the only vendor branches of the
statement builder. Each function renders one construct both ways.

Why each branch earns its place:

* `tag_names`: string_agg has no SQLite equal; group_concat has no PostgreSQL one.
* `icontains`: the ORM's own lookup, written as each backend writes it.
* `ids_in` (sns/reads/sql_statements.py, shared with the writes): on PostgreSQL one array
  parameter keeps one statement text (one prepared plan) for any number of ids.
* `newest_per_key` / `followees_latest`: on PostgreSQL a LATERAL join reads `n`
  entries of the (key, id) index per key, however many posts the key has; SQLite has
  no LATERAL, so a window function ranks the keys' posts.
* `converted_rows`: SQLite hands back text for timestamps and 0/1 for booleans, which
  the ORM's converters would turn into what PostgreSQL returns as it is.
"""

from __future__ import annotations

from datetime import UTC, datetime

from ...reads.sql_statements import ids_in

LOWEST_ID = -(2**63)


def tag_names(vendor: str, table: str, name: str, post: str, post_id: str) -> str:
    """A post's tag names, sorted, joined by newlines (NULL without tags)."""
    if vendor == "postgresql":
        return f"SELECT string_agg(ft.{name}, E'\\n' ORDER BY ft.{name}) FROM {table} ft WHERE ft.{post} = {post_id}"
    return (
        f"SELECT group_concat(n, char(10)) FROM (SELECT ft.{name} AS n FROM {table} ft "
        f"WHERE ft.{post} = {post_id} ORDER BY ft.{name})"
    )


def icontains(vendor: str, column: str) -> str:
    """`column__icontains=%s` (the parameter already escaped and wrapped in %)."""
    if vendor == "postgresql":
        return f"UPPER({column}::text) LIKE UPPER(%s)"
    return f"{column} LIKE %s ESCAPE '\\'"


def newest_per_key(
    vendor: str, post: str, column: str, keys, n: int, *, roots_only: bool, above: str | None = None,
    keys_from: str | None = None,
) -> tuple[str, list]:
    """Ids of the `n` newest posts of each key, keys being a list of ids or a statement
    (sql, params) whose first column, `id`, is the key. `column`: the posts' key column
    (owner or reply_to). `above` (PostgreSQL only): an SQL bound the ids reach, and
    `keys_from` the FROM item naming the keys `k(key)` instead of `keys`."""
    roots = ' AND "reply_to" IS NULL' if roots_only else ""
    statement = isinstance(keys, tuple)
    if vendor == "postgresql":
        if keys_from is not None:
            source, params = keys_from, []
        elif statement:
            source, params = f"({keys[0]}) AS k(key)", list(keys[1])
        else:
            source, params = "unnest(%s::bigint[]) AS k(key)", [keys]
        if above is not None:
            roots += f' AND "id" >= {above}'
        sql = (
            f'SELECT p.id FROM {source} CROSS JOIN LATERAL (SELECT "id" AS id FROM {post} '
            f'WHERE {column} = k.key{roots} ORDER BY "id" DESC LIMIT %s) AS p'
        )
        return sql, [*params, int(n)]
    if statement:
        wanted, params = f"{column} IN (SELECT k.id FROM ({keys[0]}) AS k)", list(keys[1])
    else:
        wanted, params = ids_in(column, keys, vendor)
    sql = (
        f'SELECT p.id FROM (SELECT "id" AS id, ROW_NUMBER() OVER (PARTITION BY {column} ORDER BY "id" DESC) AS rank '
        f"FROM {post} WHERE {wanted}{roots}) AS p WHERE p.rank <= %s"
    )
    return sql, [*params, int(n)]


def followees_latest(vendor: str, post: str, owner: str, keys: str, *, roots_only: bool, kind: str) -> str:
    """Each key of the statement `keys` (one column, `id`) with its newest post id as
    `latest` (by `roots_only`), keys without a post left out, and `kind` (a condition on
    `k.id`, or "") applied: columns (id, latest), newest latest first, LIMIT %s."""
    roots = ' AND "reply_to" IS NULL' if roots_only else ""
    where = f" WHERE {kind}" if kind else ""
    if vendor == "postgresql":
        return (
            f"SELECT k.id, p.latest FROM ({keys}) AS k(id) "
            f'CROSS JOIN LATERAL (SELECT "id" AS latest FROM {post} '
            f'WHERE {owner} = k.id{roots} ORDER BY "id" DESC LIMIT 1) AS p{where} ORDER BY p.latest DESC LIMIT %s'
        )
    latest = f'(SELECT "id" FROM {post} WHERE {owner} = k.id{roots} ORDER BY "id" DESC LIMIT 1)'
    return (
        f"SELECT id, latest FROM (SELECT k.id AS id, {latest} AS latest FROM ({keys}) AS k{where}) AS f "
        f"WHERE latest IS NOT NULL ORDER BY latest DESC LIMIT %s"
    )


def converted_rows(vendor: str, rows: list[tuple], times: tuple[int, ...], flags: tuple[int, ...]) -> list[tuple]:
    """Rows with the timestamps at `times` and the booleans at `flags` as PostgreSQL
    returns them."""
    if vendor == "postgresql":
        return rows
    return [_converted(row, times, flags) for row in rows]


def _converted(row: tuple, times: tuple[int, ...], flags: tuple[int, ...]) -> tuple:
    values = list(row)
    for i in times:
        if isinstance(values[i], str):
            values[i] = datetime.fromisoformat(values[i]).replace(tzinfo=UTC)
    for i in flags:
        values[i] = bool(values[i])
    return tuple(values)
