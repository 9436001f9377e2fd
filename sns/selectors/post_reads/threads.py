"""The post page's conversation: the replies below its replies and the ancestors above
it, each one recursive statement on PostgreSQL.

Read one level (or one ancestor) at a time, a post page with a deep thread ran up to
three more statements and paid their planning each; these walk the thread inside
PostgreSQL, with the same visibility rule deciding which replies take a place, and
hand the ids to the pages' instance shaper (instances.py). SQLite (the embedded demo)
has no LATERAL: there the per-level reads stay, and tests/sns/test_thread_models.py
compares both on PostgreSQL.
"""

from __future__ import annotations

from ...models import Post
from ...reads.sql_statements import ids_in
from ..visibility import viewable_sql
from .instances import posts_read, reply_chain
from .statement import col, names, qn, vendor, where


def reply_descendants(viewer, parents: list[Post], *, levels: int, per_parent: int, focus_user_id: int) -> list[Post]:
    """Below `parents`, `levels` deep: the first `per_parent` replies (by id) of each
    post that has replies, those hidden from `viewer` taking no place, with the focus
    user's facts; ordered by id."""
    ids = [post.id for post in parents if post.reply_count]
    if not ids or levels <= 0 or per_parent <= 0:
        return []
    if vendor() != "postgresql":
        return descendants_by_level(viewer, parents, levels=levels, per_parent=per_parent, focus_user_id=focus_user_id)
    tree, params = _descendants_sql(viewer, levels, per_parent)
    return posts_read([f"{names().id} IN ({tree})"], [ids, *params], focus_user_id=focus_user_id,
                      tail=f" ORDER BY {names().id}")


def descendants_by_level(viewer, parents: list[Post], *, levels: int, per_parent: int, focus_user_id: int) -> list[Post]:
    """reply_descendants as one read per level, the replies ranked by a window function
    (any database)."""
    found: list[Post] = []
    level = parents
    n = names()
    for _ in range(levels):
        ids = [post.id for post in level if post.reply_count]
        if not ids:
            break
        conditions, params = where(viewer=viewer)
        parents_in, parent_params = ids_in(n.reply_to, ids, vendor())
        conditions.insert(0, parents_in)
        ranked = (
            f"SELECT ranked.id FROM (SELECT {n.id} AS id, ROW_NUMBER() OVER (PARTITION BY {n.reply_to} "
            f"ORDER BY {n.id} ASC) AS rank FROM {n.post} WHERE {' AND '.join(conditions)}) AS ranked "
            f"WHERE ranked.rank <= {int(per_parent)}"
        )
        level = posts_read([f"{n.id} IN ({ranked})"], [*parent_params, *params], focus_user_id=focus_user_id,
                           tail=f" ORDER BY {n.id}")
        found += level
    return sorted(found, key=lambda post: post.id)


def _descendants_sql(viewer, levels: int, per_parent: int) -> tuple[str, list]:
    """The ids below the parents bound as the first parameter (an array): a recursive
    walk that, from each post with replies, takes its first `per_parent` viewable
    replies by the (reply_to, id) index. `levels` and `per_parent` are written in, not
    bound, for the reason statement.page_tail gives. The array is hidden from the
    planner behind a volatile test that always holds, so that it costs every execution
    for a guessed count of parents, as its generic plan does, and keeps that plan: with
    the count seen, the generic plan looked ten times dearer and the statement was
    planned anew on every view, about 2 ms against 0.3 ms to run it."""
    post, pid, reply_to, reply_count = qn(Post._meta.db_table), col(Post, "id"), col(Post, "reply_to"), col(Post, "reply_count")
    visible, visible_params = _visible(viewer, "r")
    step = (
        f"SELECT c.id, c.replies, t.level + 1 FROM walk t CROSS JOIN LATERAL ("
        f"SELECT r.{pid} AS id, r.{reply_count} AS replies FROM {post} r "
        f"WHERE r.{reply_to} = t.id AND {visible} ORDER BY r.{pid} LIMIT {int(per_parent)}) AS c "
        f"WHERE t.level < {int(levels)} AND t.replies > 0"
    )
    start = "SELECT k.id, 1, 0 FROM unnest(CASE WHEN random() >= 0 THEN %s::bigint[] END) AS k(id)"
    return _reached("id, replies, level", start, step), list(visible_params)


def ancestors(post: Post, *, limit: int, viewer=None) -> list[Post]:
    """The ancestors of `post`, oldest first, at most `limit`, stopping at a missing
    parent, a parent hidden from `viewer` or a cycle (instances.reply_chain); one
    statement on PostgreSQL."""
    if post.reply_to is None or limit <= 0:
        return []
    if vendor() != "postgresql":
        return reply_chain(post, limit=limit, viewer=viewer)
    chain, params = _ancestors_sql(viewer, limit)
    found = {p.id: p for p in posts_read([f"{names().id} IN ({chain})"], [post.id, *params], focus_user_id=None)}
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
    post, pid, reply_to = qn(Post._meta.db_table), col(Post, "id"), col(Post, "reply_to")
    visible, params = _visible(viewer, "a")
    start = f"SELECT a.{pid}, a.{reply_to}, ARRAY[a.{pid}], 0 FROM {post} a WHERE a.{pid} = %s"
    step = (
        f"SELECT a.{pid}, a.{reply_to}, c.seen || a.{pid}, c.level + 1 "
        f"FROM walk c JOIN {post} a ON a.{pid} = c.parent "
        f"WHERE c.level < {int(limit)} AND NOT a.{pid} = ANY(c.seen) AND {visible}"
    )
    return _reached("id, parent, seen, level", start, step), list(params)


def _reached(columns: str, start: str, step: str) -> str:
    """The ids a recursive walk named `walk` reaches from the rows of `start` (level 0,
    themselves left out) by repeating `step`."""
    return f"WITH RECURSIVE walk({columns}) AS ({start} UNION ALL {step}) SELECT walk.id FROM walk WHERE walk.level > 0"


def _visible(viewer, alias: str) -> tuple[str, list]:
    """The visibility rule on the posts under `alias`; nothing hidden without a viewer."""
    if viewer is None:
        return "TRUE", []
    return viewable_sql(viewer, f"{alias}.{col(Post, 'owner')}", f"{alias}.{col(Post, 'content')}")

