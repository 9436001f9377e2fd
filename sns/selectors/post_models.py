"""The pages' post reads as written SQL that still gives model instances.

The pages hand posts to the cards, the templates and the reply tree as `Post` instances
with their owner loaded and post_queryset's per-row facts (sns/selectors/posts.py).
Building those reads through the ORM on every view (querysets, Q objects, compilation)
cost the home page more Python CPU than its SQL (bench/page_cpu). These read the same
columns and facts with one statement written once per database, prepared on
PostgreSQL as the API's lean reads are (sns/selectors/post_rows.py), filtered by the
same visibility rule (`viewable_sql`), and make instances straight from the rows, as
the ORM's select_related would. tests/sns/test_post_models.py compares them with the
ORM reads, field by field.
"""

from __future__ import annotations

from functools import lru_cache

from django.db import connection
from django.db.models import BigIntegerField, BooleanField, CharField

from ..core.errors import NotFound
from ..models import Follow, Post, Repost, User
from ..model_rows import RowParts
from .paging import Page
from .post_rows import fetch_prepared as _fetch, neighbour_ids_sql
from .posts import _post_facts
from .timelines import newest_posts_sql, posting_followees
from .visibility import viewable_sql

# post_queryset's annotations, in the order the statement reads them.
_FACTS = (("tag_names_joined", CharField), ("reply_to_owner_id", BigIntegerField), ("reply_to_owner_nickname", CharField))
_FOCUS_FACTS = ("is_liked_by_focus", "is_replied_by_focus", "owner_blocks_focus", "owner_follows_focus")


class _Statement:
    """The SELECT list and FROM of posts with their owner and post_queryset's facts,
    and how one of its rows becomes instances."""

    def __init__(self, focus: bool, neighbours: bool = False):
        qn = connection.ops.quote_name
        post_table, user_table = qn(Post._meta.db_table), qn(User._meta.db_table)
        post_fields, user_fields = Post._meta.concrete_fields, User._meta.concrete_fields
        facts = _post_facts()
        select = [f"{post_table}.{qn(f.column)}" for f in post_fields]
        select += [f"{user_table}.{qn(f.column)}" for f in user_fields]
        select += [f"({facts.tag_names})", f"({facts.parent_owner})", f"({facts.parent_nickname})"]
        self.facts = [name for name, _ in _FACTS]
        outputs = [output() for _, output in _FACTS]
        if focus:
            select += [facts.liked, facts.replied, facts.owner_blocks, facts.owner_follows]
            self.facts += list(_FOCUS_FACTS)
            outputs += [BooleanField() for _ in _FOCUS_FACTS]
        self.focus_params = 4 if focus else 0
        self.id = f"{post_table}.{qn(Post._meta.pk.column)}"
        self.owner = f"{post_table}.{qn(Post._meta.get_field('owner').column)}"
        if neighbours:
            select += neighbour_ids_sql(self.id, self.owner)
            self.facts += ["older_id", "newer_id"]
            outputs += [BigIntegerField(), BigIntegerField()]
        self.content = f"{post_table}.{qn(Post._meta.get_field('content').column)}"
        self.reply_to = f"{post_table}.{qn(Post._meta.get_field('reply_to').column)}"
        self.head = (
            f"SELECT {', '.join(select)} FROM {post_table} INNER JOIN {user_table} "
            f"ON {user_table}.{qn(User._meta.pk.column)} = {self.owner}"
        )
        self.rows = RowParts(
            [(Post, Post._meta.db_table), (User, User._meta.db_table), *outputs]
        )
        self.owner_field = Post._meta.get_field("owner")

    def instances(self, rows) -> list[Post]:
        posts = []
        for post, owner, *facts in self.rows.values_of(rows):
            self.owner_field.set_cached_value(post, owner)
            for name, value in zip(self.facts, facts):
                setattr(post, name, value)
            posts.append(post)
        return posts


@lru_cache(maxsize=8)
def post_statement(vendor: str, focus: bool, neighbours: bool = False) -> _Statement:
    """The posts' one statement head (with the focus user's facts, with the previous and
    next posts' ids), built once per database vendor: the tests switch databases within
    one process."""
    return _Statement(focus, neighbours)


def posts_read(
    where: list[str], params: list, *, focus_user_id: int | None, tail: str = "", tail_params=(),
    neighbours: bool = False, vendor: str | None = None,
) -> list[Post]:
    """The posts `where` selects (SQL conditions on `post_statement`'s columns), as
    instances with their owners and facts. `vendor`: the database's, if the caller has
    read it already (each read of the `connection` proxy looks the connection up in a
    context-local store; sns/selectors/post_rows.py `fetch_prepared`)."""
    statement = post_statement(vendor or connection.vendor, focus_user_id is not None, neighbours)
    head_params = [int(focus_user_id)] * statement.focus_params if focus_user_id is not None else []
    sql = statement.head + (" WHERE " + " AND ".join(where) if where else "") + tail
    return statement.instances(_fetch(sql, [*head_params, *params, *tail_params]))


def _visible(viewer, statement: _Statement, where: list[str], params: list) -> None:
    # `statement`: any of post_statement's, whose column names are the same.
    if viewer is not None:
        condition, condition_params = viewable_sql(viewer, statement.owner, statement.content)
        where.append(condition)
        params.extend(condition_params)


def posts_by_ids(viewer, post_ids, *, focus_user_id: int | None = None) -> dict[int, Post]:
    """`post_queryset(focus_user_id).filter(viewable_q(viewer), pk__in=post_ids)` by id;
    nothing hidden without a viewer."""
    ids = list(dict.fromkeys(int(i) for i in post_ids if i is not None))
    if not ids:
        return {}
    vendor = connection.vendor
    statement = post_statement(vendor, False)
    where, params = [f"{statement.id} IN ({', '.join(['%s'] * len(ids))})"], list(ids)
    _visible(viewer, statement, where, params)
    return {post.id: post for post in posts_read(where, params, focus_user_id=focus_user_id, vendor=vendor)}


def followee_posts(viewer, page: Page, *, authors: str | None = None) -> list[Post]:
    """`posts_by_followees(user_id=viewer.id, page=page, include_self=True,
    focus_user_id=viewer.id, viewer=viewer, authors=authors)` (sns/selectors/timelines.py):
    the home timeline's posts, in one round trip on PostgreSQL."""
    if page.limit <= 0:
        return []
    active = posting_followees(
        viewer.id, include_self=True, roots_only=False, limit=page.limit, viewer=viewer, authors=authors
    )
    vendor = connection.vendor
    if vendor != "postgresql":
        active = list(active)
        if not active:
            return []
    newest, newest_params = newest_posts_sql(
        "owner_id", active, page.limit, top=page.end, descending=page.descending
    )
    statement = post_statement(vendor, True)
    where, params = [f"{statement.id} IN ({newest})"], list(newest_params)
    _visible(viewer, statement, where, params)
    tail = f" ORDER BY {statement.id} {'DESC' if page.descending else 'ASC'} LIMIT %s OFFSET %s"
    return posts_read(
        where, params, focus_user_id=viewer.id, tail=tail, tail_params=(page.limit, page.offset), vendor=vendor
    )


def post_with_neighbours(viewer, post_id: int, *, focus_user_id: int | None) -> Post:
    """`post_get(post_id, focus_user_id=…, with_neighbours=True, viewer=viewer)`: one
    post with the same owner's previous and next post ids; not found when hidden."""
    vendor = connection.vendor
    statement = post_statement(vendor, False)
    where, params = [f"{statement.id} = %s"], [int(post_id)]
    _visible(viewer, statement, where, params)
    posts = posts_read(where, params, focus_user_id=focus_user_id, neighbours=True, vendor=vendor)
    if not posts:
        raise NotFound("not found")
    return posts[0]


def posts_page(
    viewer, page: Page, *, focus_user_id: int | None, reply_to: int | None = None, owned_by: int | None = None
) -> list[Post]:
    """`posts_list(page=page, reply_to=…, owned_by=…, focus_user_id=…, viewer=viewer)`:
    a post's replies, a user's posts."""
    vendor = connection.vendor
    statement = post_statement(vendor, False)
    where: list[str] = []
    params: list = []
    if reply_to is not None:
        where.append(f"{statement.reply_to} = %s")
        params.append(int(reply_to))
    if owned_by is not None:
        where.append(f"{statement.owner} = %s")
        params.append(int(owned_by))
    _visible(viewer, statement, where, params)
    # The limit and offset written in, not bound: with them as parameters PostgreSQL
    # judged its generic plan (the same index scan) dearer than planning anew, and
    # planned a post page's replies on every view, about 0.6 ms at 1M posts against
    # 0.05 ms to run them.
    tail = f" ORDER BY {statement.id} {'DESC' if page.descending else 'ASC'} LIMIT {int(page.limit)} OFFSET {int(page.offset)}"
    return posts_read(where, params, focus_user_id=focus_user_id, tail=tail, vendor=vendor)


def reply_chain(post: Post, *, limit: int, viewer=None) -> list[Post]:
    """Ancestors of `post`, oldest first, at most `limit`, stopping at a missing parent,
    a parent hidden from `viewer` or a cycle: one written statement per ancestor."""
    seen = {post.id}
    chain: list[Post] = []
    parent_id = post.reply_to
    while parent_id is not None and len(chain) < limit and parent_id not in seen:
        parent = posts_by_ids(viewer, [parent_id]).get(parent_id)
        if parent is None:
            break
        seen.add(parent.id)
        chain.append(parent)
        parent_id = parent.reply_to
    chain.reverse()
    return chain


class _Reposts:
    """The newest reposts by a viewer and the people they follow, with the reposter's row."""

    def __init__(self):
        qn = connection.ops.quote_name
        repost, user, follow = (qn(m._meta.db_table) for m in (Repost, User, Follow))
        user_fields = User._meta.concrete_fields

        def col(name: str) -> str:
            return f"r.{qn(Repost._meta.get_field(name).column)}"

        self.reposter = col("user")
        select = ", ".join([col("post"), col("created_at")] + [f"u.{qn(f.column)}" for f in user_fields])
        self.sql = (
            f"SELECT {select} FROM {repost} r INNER JOIN {user} u ON u.{qn(User._meta.pk.column)} = {self.reposter} "
            f"WHERE ({self.reposter} IN (SELECT f.{qn(Follow._meta.get_field('followee').column)} FROM {follow} f "
            f"WHERE f.{qn(Follow._meta.get_field('follower').column)} = %s) OR {self.reposter} = %s)"
        )
        self.order = f" ORDER BY {col('created_at')} DESC, {col('id')} DESC LIMIT %s"
        self.rows = RowParts(
            [Repost._meta.get_field("post").get_col("r"), Repost._meta.get_field("created_at").get_col("r"), (User, "u")]
        )


@lru_cache(maxsize=2)
def _reposts(vendor: str) -> _Reposts:
    return _Reposts()


def followee_reposts(viewer, limit: int) -> list[tuple[int, object, User]]:
    """The newest `limit` reposts by the viewer and the people they follow, newest
    first, a reposter hidden from the viewer left out: (post id, reposted at, reposter)."""
    reposts = _reposts(connection.vendor)
    condition, condition_params = viewable_sql(viewer, reposts.reposter)
    rows = _fetch(f"{reposts.sql} AND {condition}{reposts.order}", [viewer.id, viewer.id, *condition_params, int(limit)])
    return [tuple(values) for values in reposts.rows.values_of(rows)]
