"""The post reads' statement, written once: the names, the SELECT lists (the API's
tuple columns, the pages' model columns), the per-row facts, the neighbours, the
filter vocabulary and the page's ORDER BY / LIMIT. The text of each shape is built
once per process and database; a read only binds its parameters.

Every condition refers to the posts table by its own name, so any statement whose
outer FROM is the posts table can take them (the facts are correlated with it too).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.db import DEFAULT_DB_ALIAS, connections

from ...models import Block, Follow, Like, Post, PostTag, User
from ..authors import authors_sql
from ..paging import Page
from ..visibility import viewable_sql
from . import dialect


def vendor() -> str:
    # The connection itself, not the `connection` proxy: each attribute read through
    # the proxy looks the connection up in a context-local store, which raised and
    # dropped an exception (no running event loop) every time; a page view made dozens.
    return connections[DEFAULT_DB_ALIAS].vendor


def qn(name: str) -> str:
    """A quoted table or column name (both databases quote with double quotes)."""
    return f'"{name}"'


def col(model, field: str) -> str:
    """The quoted column of a model's field (by name or attname)."""
    return qn(model._meta.get_field(field).column)


@dataclass(frozen=True)
class Names:
    """Quoted table names and the posts table's columns as the outer statement names them."""

    post: str
    user: str
    id: str
    owner: str
    reply_to: str
    content: str
    join_owner: str  # FROM the posts joined with their owners


@lru_cache(maxsize=1)
def names() -> Names:
    post, user = qn(Post._meta.db_table), qn(User._meta.db_table)
    return Names(
        post=post, user=user, id=f"{post}.{col(Post, 'id')}", owner=f"{post}.{col(Post, 'owner')}",
        reply_to=f"{post}.{col(Post, 'reply_to')}", content=f"{post}.{col(Post, 'content')}",
        join_owner=f"{post} INNER JOIN {user} ON {user}.{col(User, 'id')} = {post}.{col(Post, 'owner')}",
    )


@dataclass(frozen=True)
class Facts:
    """The per-row facts every view of a post shows, as SQL correlated with the outer
    posts table: the tag names, the parent's owner and nickname, and for a focus user
    (one %s each) liked, replied, the owner blocks them, the owner follows them."""

    tag_names: str
    parent_owner: str
    parent_nickname: str
    liked: str
    replied: str
    owner_blocks: str
    owner_follows: str


@lru_cache(maxsize=2)
def post_facts(db_vendor: str) -> Facts:
    """Built once per database vendor (the tests switch databases within one process)."""
    n = names()
    like, block, follow = (qn(m._meta.db_table) for m in (Like, Block, Follow))
    pid, powner = col(Post, "id"), col(Post, "owner")
    tags = dialect.tag_names(
        db_vendor, qn(PostTag._meta.db_table), col(PostTag, "name"), col(PostTag, "post"), n.id
    )
    return Facts(
        tag_names=tags,
        parent_owner=f"SELECT pp.{powner} FROM {n.post} pp WHERE pp.{pid} = {n.reply_to}",
        parent_nickname=(
            f"SELECT pu.{col(User, 'nickname')} FROM {n.post} pp JOIN {n.user} pu ON pu.{col(User, 'id')} = pp.{powner} "
            f"WHERE pp.{pid} = {n.reply_to}"
        ),
        liked=f"EXISTS (SELECT 1 FROM {like} fl WHERE fl.{col(Like, 'post')} = {n.id} AND fl.{col(Like, 'user')} = %s)",
        replied=f"EXISTS (SELECT 1 FROM {n.post} fr WHERE fr.{col(Post, 'reply_to')} = {n.id} AND fr.{powner} = %s)",
        owner_blocks=(
            f"EXISTS (SELECT 1 FROM {block} fb WHERE fb.{col(Block, 'blocker')} = {n.owner} "
            f"AND fb.{col(Block, 'blockee')} = %s)"
        ),
        owner_follows=(
            f"EXISTS (SELECT 1 FROM {follow} ff WHERE ff.{col(Follow, 'follower')} = {n.owner} "
            f"AND ff.{col(Follow, 'followee')} = %s)"
        ),
    )


FOCUS_PARAMS = 4  # one focus user id for each of the four focus facts


def focus_facts(facts: Facts) -> list[str]:
    return [facts.liked, facts.replied, facts.owner_blocks, facts.owner_follows]


def neighbour_ids_sql(post_id: str, owner: str) -> tuple[str, str]:
    """The same owner's previous and next post ids, as subqueries correlated with the
    outer post's `post_id` and `owner` columns."""
    nb_id = f"nb.{col(Post, 'id')}"
    same_owner = f"SELECT {nb_id} FROM {names().post} nb WHERE nb.{col(Post, 'owner')} = {owner}"
    return (
        f"({same_owner} AND {nb_id} < {post_id} ORDER BY {nb_id} DESC LIMIT 1)",
        f"({same_owner} AND {nb_id} > {post_id} ORDER BY {nb_id} ASC LIMIT 1)",
    )


def where(
    *,
    viewer=None,
    owned_by: int | None = None,
    tag: str | None = None,
    reply_to: str | int | None = None,
    query: str | None = None,
    authors: str | None = None,
    after: int | None = None,
    descending: bool = True,
    post_id: int | None = None,
) -> tuple[list[str], list]:
    """The filter vocabulary of every post list (GET /posts, the pages' lists, the
    Everyone tab): conditions on the posts table and their parameters. `reply_to`: ""
    for root posts only, "*" for replies only, else a parent id; `after`: ids past
    this one in the page's order; `viewer`: the site's one visibility rule
    (sns/selectors/visibility.py), nothing hidden without one."""
    n = names()
    conditions: list[str] = []
    params: list = []
    if post_id is not None:
        conditions.append(f"{n.id} = %s")
        params.append(int(post_id))
    if owned_by is not None:
        conditions.append(f"{n.owner} = %s")
        params.append(int(owned_by))
    if tag:
        conditions.append(
            f"EXISTS (SELECT 1 FROM {qn(PostTag._meta.db_table)} tt WHERE tt.{col(PostTag, 'post')} = {n.id} "
            f"AND tt.{col(PostTag, 'name')} = %s)"
        )
        params.append(tag.strip().lower())
    if reply_to == "":
        conditions.append(f"{n.reply_to} IS NULL")
    elif reply_to == "*":
        conditions.append(f"{n.reply_to} IS NOT NULL")
    elif reply_to is not None:
        conditions.append(f"{n.reply_to} = %s")
        params.append(int(reply_to))
    if query:
        database = connections[DEFAULT_DB_ALIAS]
        conditions.append(dialect.icontains(database.vendor, n.content))
        params.append(f"%{database.ops.prep_for_like_query(query)}%")
    if after is not None:
        conditions.append(f"{n.id} {'<' if descending else '>'} %s")
        params.append(int(after))
    kind = authors_sql(authors, n.owner)
    if kind is not None:
        conditions.append(kind[0])
        params.extend(kind[1])
    if viewer is not None:
        visible, visible_params = viewable_sql(viewer, n.owner, n.content)
        conditions.append(visible)
        params.extend(visible_params)
    return conditions, params


def where_sql(conditions: list[str]) -> str:
    return " WHERE " + " AND ".join(conditions) if conditions else ""


def page_tail(page: Page) -> str:
    """ORDER BY id and the page's LIMIT / OFFSET, written in rather than bound: as
    parameters PostgreSQL's generic plan for "the newest visible posts" could not know
    the limit was small, judged it dearer than planning anew and planned the statement
    on every execution (0.45 ms of its CPU at 1M posts, against 0.05 ms to run a post
    page's replies); written in, the generic plan is the index scan and is kept."""
    return (
        f" ORDER BY {names().id} {'DESC' if page.descending else 'ASC'} "
        f"LIMIT {int(page.limit)} OFFSET {int(page.offset)}"
    )
