"""The post page's conversation as model instances: the replies below its replies and
the ancestors above it, each one recursive statement on PostgreSQL.

Read one level (or one ancestor) at a time through the ORM, a post page with a deep
thread ran up to three more statements and paid the ORM's compilation for each: the
slowest post pages at 1M posts were those (bench/post_tail).
These walk the thread inside PostgreSQL, with the same visibility rule
(`viewable_sql`) deciding which replies take a place, and hand the rows to the pages'
post statement (sns/selectors/post_models.py) so the instances are the ones every
other page read makes. Elsewhere than PostgreSQL the per-level reads stay;
tests/sns/test_thread_models.py compares both on PostgreSQL.
"""

from __future__ import annotations

from functools import lru_cache

from django.db import connection
from django.db.models import F, Window
from django.db.models.functions import RowNumber

from ..models import Post
from .post_models import post_statement, posts_read, reply_chain
from .posts import post_queryset
from .visibility import viewable_posts, viewable_sql


def reply_descendants(viewer, parents: list[Post], *, levels: int, per_parent: int, focus_user_id: int) -> list[Post]:
    """Below `parents`, `levels` deep: the first `per_parent` replies (by id) of each
    post that has replies, those hidden from `viewer` taking no place, with the facts
    of `post_queryset(focus_user_id)`; ordered by id."""
    ids = [post.id for post in parents if post.reply_count]
    if not ids or levels <= 0 or per_parent <= 0:
        return []
    vendor = connection.vendor
    if vendor != "postgresql":
        return _descendants_by_level(viewer, parents, levels=levels, per_parent=per_parent, focus_user_id=focus_user_id)
    tree, params = _descendants_sql(viewer, levels, per_parent)
    statement = post_statement(vendor, True)
    return posts_read([f"{statement.id} IN ({tree})"], [ids, *params], focus_user_id=focus_user_id,
                      tail=f" ORDER BY {statement.id}", vendor=vendor)


def _descendants_by_level(viewer, parents: list[Post], *, levels: int, per_parent: int, focus_user_id: int) -> list[Post]:
    """reply_descendants as one ORM read per level (any database)."""
    found: list[Post] = []
    level = parents
    for _ in range(levels):
        ids = [post.id for post in level if post.reply_count]
        if not ids:
            break
        first = (
            viewable_posts(viewer)
            .filter(reply_to__in=ids)
            .annotate(rank=Window(RowNumber(), partition_by=[F("reply_to")], order_by=F("id").asc()))
            .filter(rank__lte=per_parent)
            .values("id")
        )
        level = list(post_queryset(focus_user_id).filter(id__in=first).order_by("id"))
        found += level
    return sorted(found, key=lambda post: post.id)


def _descendants_sql(viewer, levels: int, per_parent: int) -> tuple[str, list]:
    """The ids below the parents bound as the first parameter (an array): a recursive
    walk that, from each post with replies, takes its first `per_parent` viewable
    replies by the (reply_to, id) index. `levels` and `per_parent` are written in, not
    bound, for the reason posts_page writes its LIMIT in. The array is hidden from the
    planner behind a volatile test that always holds, so that it costs every execution
    for a guessed count of parents, as its generic plan does, and keeps that plan: with
    the count seen, the generic plan looked ten times dearer and the statement was
    planned anew on every view, about 2 ms against 0.3 ms to run it."""
    names = _names()
    visible, visible_params = _visible(viewer, "r")
    step = (
        f"SELECT c.id, c.replies, t.level + 1 FROM walk t CROSS JOIN LATERAL ("
        f"SELECT r.{names.id} AS id, r.{names.reply_count} AS replies FROM {names.post} r "
        f"WHERE r.{names.reply_to} = t.id AND {visible} ORDER BY r.{names.id} LIMIT {int(per_parent)}) AS c "
        f"WHERE t.level < {int(levels)} AND t.replies > 0"
    )
    start = "SELECT k.id, 1, 0 FROM unnest(CASE WHEN random() >= 0 THEN %s::bigint[] END) AS k(id)"
    return _reached("id, replies, level", start, step), list(visible_params)


def ancestors(post: Post, *, limit: int, viewer=None) -> list[Post]:
    """`reply_chain(post, limit=…, viewer=…)` (sns/selectors/post_models.py): the
    ancestors of `post`, oldest first, at most `limit`, stopping at a missing parent, a
    parent hidden from `viewer` or a cycle; one statement on PostgreSQL."""
    if post.reply_to is None or limit <= 0:
        return []
    vendor = connection.vendor
    if vendor != "postgresql":
        return reply_chain(post, limit=limit, viewer=viewer)
    statement = post_statement(vendor, False)
    chain, params = _ancestors_sql(viewer, limit)
    chain_posts = posts_read([f"{statement.id} IN ({chain})"], [post.id, *params], focus_user_id=None, vendor=vendor)
    found = {p.id: p for p in chain_posts}
    # The walk again over the rows read, which keeps reply_chain's order and stops.
    ordered: list[Post] = []
    seen = {post.id}
    parent_id = post.reply_to
    while parent_id in found and parent_id not in seen and len(ordered) < limit:
        seen.add(parent_id)
        ordered.append(found[parent_id])
        parent_id = found[parent_id].reply_to
    ordered.reverse()
    return ordered


def _ancestors_sql(viewer, limit: int) -> tuple[str, list]:
    """The ids up the chain from the post bound first (itself not among them): each
    step reads the parent by primary key while it is visible to `viewer` and not seen
    before on the way up."""
    names = _names()
    visible, params = _visible(viewer, "a")
    start = f"SELECT a.{names.id}, a.{names.reply_to}, ARRAY[a.{names.id}], 0 FROM {names.post} a WHERE a.{names.id} = %s"
    step = (
        f"SELECT a.{names.id}, a.{names.reply_to}, c.seen || a.{names.id}, c.level + 1 "
        f"FROM walk c JOIN {names.post} a ON a.{names.id} = c.parent "
        f"WHERE c.level < {int(limit)} AND NOT a.{names.id} = ANY(c.seen) AND {visible}"
    )
    return _reached("id, parent, seen, level", start, step), list(params)


def _reached(columns: str, start: str, step: str) -> str:
    """The ids a recursive walk named `walk` reaches from the rows of `start` (level 0,
    themselves left out) by repeating `step`."""
    return f"WITH RECURSIVE walk({columns}) AS ({start} UNION ALL {step}) SELECT walk.id FROM walk WHERE walk.level > 0"


def _visible(viewer, alias: str) -> tuple[str, list]:
    """The visibility rule on the posts under `alias`; nothing hidden without a viewer,
    as `viewable_posts(None)` hides nothing."""
    if viewer is None:
        return "TRUE", []
    names = _names()
    return viewable_sql(viewer, f"{alias}.{names.owner}", f"{alias}.{names.content}")


class _Names:
    def __init__(self):
        qn = connection.ops.quote_name

        def col(field: str) -> str:
            return qn(Post._meta.get_field(field).column)

        self.post = qn(Post._meta.db_table)
        self.id, self.owner, self.content = col("id"), col("owner"), col("content")
        self.reply_to, self.reply_count = col("reply_to"), col("reply_count")


@lru_cache(maxsize=1)
def _names() -> _Names:
    return _Names()

