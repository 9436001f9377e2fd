"""The hot post reads as lean SQL: plain rows with only the columns the post JSON needs
(docs/architecture.md, "Hot reads").

`posts_list`, `posts_by_followees` and `post_get` (posts.py, timelines.py) build model
instances through the ORM; on a timeline of 20 posts that cost more CPU than the rest
of the request together. These read the same rows, with the same filters and the same
per-row facts (`_post_facts`: tags, the parent's owner, the focus user's flags), as
one statement of prepared SQL returning tuples in the order of `COLUMNS`, which the
API's row presenters (sns/api/post_rows.py) unpack. The ORM reads stay the reference:
tests/sns/test_post_rows.py compares the JSON of both on a generated community.
"""

from __future__ import annotations

from datetime import datetime, timezone
from functools import lru_cache

from django.db import DEFAULT_DB_ALIAS, connection, connections

from ..core.errors import NotFound
from ..models import Post, PostTag, User
from .paging import Page
from .posts import _post_facts
from .timelines import newest_posts_sql, posting_followees
from .authors import authors_sql
from .visibility import viewable_sql

# The columns of a post row, in order; with a focus user FOCUS_COLUMNS follow, and a
# detail row ends with DETAIL_COLUMNS.
COLUMNS = (
    "id", "owner_id", "reply_to", "allow_likes", "allow_replies", "published_at", "updated_at",
    "owner_nickname", "owner_locale", "reply_to_owner_id", "reply_to_owner_nickname",
    "like_count", "reply_count", "tag_names_joined", "snippet", "locale",
)
FOCUS_COLUMNS = ("is_liked_by_focus", "is_replied_by_focus", "owner_blocks_focus", "owner_block_strangers", "owner_follows_focus")
DETAIL_COLUMNS = ("content", "older_id", "newer_id")

_TIMES = (COLUMNS.index("published_at"), COLUMNS.index("updated_at"))
_FLAGS = (COLUMNS.index("allow_likes"), COLUMNS.index("allow_replies"))


@lru_cache(maxsize=1)
def _sql() -> dict[str, str]:
    qn = connection.ops.quote_name

    def col(model, field: str) -> str:
        return f"{qn(model._meta.db_table)}.{qn(model._meta.get_field(field).column)}"

    facts = _post_facts()
    post, user = qn(Post._meta.db_table), qn(User._meta.db_table)
    select = ", ".join(
        [
            col(Post, "id"), col(Post, "owner"), col(Post, "reply_to"), col(Post, "allow_likes"),
            col(Post, "allow_replies"), col(Post, "published_at"), col(Post, "updated_at"),
            col(User, "nickname"), col(User, "locale"), f"({facts.parent_owner})", f"({facts.parent_nickname})",
            col(Post, "like_count"), col(Post, "reply_count"), f"({facts.tag_names})", col(Post, "snippet"),
            col(Post, "locale"),
        ]
    )
    # Correlated with the outer posts table by its own name, as _post_facts is.
    focus = ", " + ", ".join(
        [facts.liked, facts.replied, facts.owner_blocks, col(User, "block_strangers"), facts.owner_follows]
    )
    older, newer = neighbour_ids_sql(col(Post, "id"), col(Post, "owner"))
    detail = f", {col(Post, 'content')}, {older}, {newer}"
    tag_table = qn(PostTag._meta.db_table)
    content = col(Post, "content")
    return {
        "select": select,
        "focus": focus,
        "detail": detail,
        "from": f"{post} INNER JOIN {user} ON {col(User, 'id')} = {col(Post, 'owner')}",
        "id": col(Post, "id"),
        "owner": col(Post, "owner"),
        "reply_to": col(Post, "reply_to"),
        "content": content,
        "tag": (
            f"EXISTS (SELECT 1 FROM {tag_table} tt WHERE tt.{qn(PostTag._meta.get_field('post').column)} = "
            f"{col(Post, 'id')} AND tt.{qn(PostTag._meta.get_field('name').column)} = %s)"
        ),
        # The ORM's icontains, written as each backend's lookup does.
        "query": (
            f"UPPER({content}::text) LIKE UPPER(%s)" if connection.vendor == "postgresql" else f"{content} LIKE %s ESCAPE '\\'"
        ),
    }


def neighbour_ids_sql(post_id: str, owner: str) -> tuple[str, str]:
    """post_get(with_neighbours=True)'s older_id and newer_id: the same owner's previous
    and next post ids, as subqueries correlated with the outer post's `post_id` and
    `owner` columns (as written in the outer statement). Used by the API's rows here and
    the pages' instances (sns/selectors/post_models.py)."""
    qn = connection.ops.quote_name
    nb_id = f"nb.{qn(Post._meta.pk.column)}"
    same_owner = (
        f"SELECT {nb_id} FROM {qn(Post._meta.db_table)} nb WHERE nb.{qn(Post._meta.get_field('owner').column)} = {owner}"
    )
    return (
        f"({same_owner} AND {nb_id} < {post_id} ORDER BY {nb_id} DESC LIMIT 1)",
        f"({same_owner} AND {nb_id} > {post_id} ORDER BY {nb_id} ASC LIMIT 1)",
    )


def _select(focus_user_id: int | None, detail: bool = False) -> tuple[str, list]:
    sql = _sql()
    head = "SELECT " + sql["select"]
    params: list = []
    if focus_user_id is not None:
        head += sql["focus"]
        params += [int(focus_user_id)] * 4
    if detail:
        head += sql["detail"]
    return f"{head} FROM {sql['from']}", params


def _fetch(statement: str, params: list) -> list[tuple]:
    rows = fetch_prepared(statement, params)
    return rows if connection.vendor == "postgresql" else [_sqlite_types(row) for row in rows]


def fetch_prepared(statement: str, params: list) -> list[tuple]:
    """The rows of a written read, prepared once per connection on PostgreSQL."""
    # The connection itself, not the `connection` proxy: each attribute read through the
    # proxy looks the connection up in a context-local store, which raises and drops an
    # exception (no running event loop) every time; a page view made dozens.
    database = connections[DEFAULT_DB_ALIAS]
    if database.vendor == "postgresql":
        with _prepared_cursor(database) as cursor:
            cursor.execute(statement, params)
            return cursor.fetchall()
    with database.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall()


def _prepared_cursor(db):
    """A cursor whose statements PostgreSQL prepares once per connection and then only
    executes: planning these statements (their per-row subqueries) cost PostgreSQL two
    to five times their execution. Django's own cursors bind parameters client-side,
    which cannot be prepared; this one binds them server-side, and is wrapped as
    Django wraps its cursors (query logging and counting, execute wrappers, errors)."""
    db.ensure_connection()
    database = db.connection
    if database.prepare_threshold is None:
        # Django connects with preparation off (None), which refuses even an explicit
        # prepare=True; a threshold never reached prepares only what asks for it.
        database.prepare_threshold = 2**31 - 1
    prepared, logged = _prepared_cursor_classes()
    with db.wrap_database_errors:
        raw = prepared(database)
    db.validate_thread_sharing()
    return logged(raw, db) if db.queries_logged else db.make_cursor(raw)


@lru_cache(maxsize=1)
def _prepared_cursor_classes():
    from django.db.backends.postgresql.base import CursorDebugWrapper, ServerBindingCursor

    class PreparedCursor(ServerBindingCursor):
        def execute(self, query, params=None, *, prepare=None, binary=None):
            return super().execute(query, params, prepare=True, binary=binary)

    class LoggedCursor(CursorDebugWrapper):
        """Logs the statement with its parameters filled in, as Django logs its own
        (for a prepared statement it would otherwise log nothing)."""

        def execute(self, sql, params=None):
            with self.debug_sql(self.db.ops.compose_sql(sql, params)):
                return self._execute_with_wrappers(sql, params, many=False, executor=self._execute)

    return PreparedCursor, LoggedCursor


def _sqlite_types(row: tuple) -> tuple:
    """SQLite hands back text for timestamps and 0/1 for booleans, which the ORM's
    converters would have turned into what PostgreSQL returns as it is."""
    values = list(row)
    for i in _TIMES:
        if isinstance(values[i], str):
            values[i] = datetime.fromisoformat(values[i]).replace(tzinfo=timezone.utc)
    for i in _FLAGS:
        values[i] = bool(values[i])
    return tuple(values)


def _visible(viewer, where: list[str], params: list) -> None:
    """The site's one visibility rule (sns/selectors/visibility.py), as the ORM reads
    apply it: nothing hidden without a viewer."""
    if viewer is not None:
        condition, condition_params = viewable_sql(viewer, _sql()["owner"], _sql()["content"])
        where.append(condition)
        params.extend(condition_params)


def _authors(authors: str | None, where: list[str], params: list) -> None:
    condition = authors_sql(authors, _sql()["owner"])
    if condition is not None:
        where.append(condition[0])
        params.extend(condition[1])


def _page_sql(page: Page) -> tuple[str, list]:
    # The limit and offset written in, not bound: as parameters PostgreSQL's generic plan
    # for "the newest visible posts" could not know the limit was small (628 ms against
    # 0.2 ms when forced, at 1M posts), so it planned the statement anew on every call,
    # 0.45 ms of its CPU; written in, the generic plan is the index scan and is kept.
    return f" ORDER BY {_sql()['id']} {'DESC' if page.descending else 'ASC'} LIMIT {int(page.limit)} OFFSET {int(page.offset)}", []


def post_rows_list(
    *,
    page: Page,
    after: int | None = None,
    owned_by: int | None = None,
    tag: str | None = None,
    reply_to: str | int | None = None,
    query: str | None = None,
    focus_user_id: int | None = None,
    viewer=None,
    authors: str | None = None,
) -> list[tuple]:
    """posts_list's rows (same filters, same order, same visibility) as tuples."""
    sql = _sql()
    statement, params = _select(focus_user_id)
    where: list[str] = []
    if owned_by is not None:
        where.append(f"{sql['owner']} = %s")
        params.append(int(owned_by))
    if tag:
        where.append(sql["tag"])
        params.append(tag.strip().lower())
    if reply_to == "":
        where.append(f"{sql['reply_to']} IS NULL")
    elif reply_to == "*":
        where.append(f"{sql['reply_to']} IS NOT NULL")
    elif reply_to is not None:
        where.append(f"{sql['reply_to']} = %s")
        params.append(int(reply_to))
    if query:
        where.append(sql["query"])
        params.append(f"%{connection.ops.prep_for_like_query(query)}%")
    if after is not None:
        where.append(f"{sql['id']} {'<' if page.descending else '>'} %s")
        params.append(int(after))
    _authors(authors, where, params)
    _visible(viewer, where, params)
    if where:
        statement += " WHERE " + " AND ".join(where)
    tail, tail_params = _page_sql(page)
    return _fetch(statement + tail, params + tail_params)


def post_rows_by_followees(
    *,
    user_id: int,
    page: Page,
    include_self: bool = False,
    include_replies: bool = True,
    limit_per_user: int | None = None,
    focus_user_id: int | None = None,
    viewer=None,
    authors: str | None = None,
) -> list[tuple]:
    """posts_by_followees's rows (docs/api.md §3) as tuples."""
    per_user = min(page.limit, page.limit if limit_per_user is None else limit_per_user)
    if per_user <= 0:
        return []
    roots_only = not include_replies
    active = posting_followees(
        user_id, include_self=include_self, roots_only=roots_only, limit=page.limit, viewer=viewer, authors=authors
    )
    if connection.vendor != "postgresql":
        # On PostgreSQL the active followees are a subquery: the whole read is one round trip.
        active = list(active)
        if not active:
            return []
    newest, newest_params = newest_posts_sql(
        "owner_id", active, per_user, roots_only=roots_only, top=page.end, descending=page.descending
    )
    statement, params = _select(focus_user_id)
    where, where_params = [f"{_sql()['id']} IN ({newest})"], list(newest_params)
    _visible(viewer, where, where_params)
    statement += " WHERE " + " AND ".join(where)
    tail, tail_params = _page_sql(page)
    return _fetch(statement + tail, params + where_params + tail_params)


def post_row_get(post_id: int, *, focus_user_id: int | None = None, viewer=None) -> tuple:
    """One post's row with its content and the same owner's previous and next post ids
    (DETAIL_COLUMNS), all in one statement; not found when hidden from `viewer`."""
    statement, params = _select(focus_user_id, detail=True)
    where, params = [f"{_sql()['id']} = %s"], [*params, int(post_id)]
    _visible(viewer, where, params)
    rows = _fetch(f"{statement} WHERE {' AND '.join(where)}", params)
    if not rows:
        raise NotFound("not found")
    return rows[0]
