"""The followees' newest posts (docs/api.md §3, the Following tab, the AI timeline):
which followees have posts, and the newest posts of each, as SQL nested in the read
that uses them, so the whole read is one round trip."""

from __future__ import annotations

from ...models import Follow, Post
from ..authors import authors_sql
from ..visibility import viewable_sql
from . import dialect
from .statement import col, qn, vendor


def posting_followees(
    user_id: int, *, include_self: bool, roots_only: bool, limit: int, viewer=None, authors: str | None = None,
    db_vendor: str | None = None,
) -> tuple[str, tuple]:
    """The followees of `user_id` (and the user, if `include_self`) with a post, the
    `limit` with the newest latest post first, those hidden from `viewer` left out, and
    with `authors` only people or only AI users: a statement (sql, params) of columns
    (id, latest: that followee's newest post id by the same `roots_only`), to run or to
    nest. Written out rather than compiled from a queryset: this runs on every
    by-followees read, where the ORM's compilation cost more than the query."""
    db_vendor = db_vendor or vendor()
    followee = f"f.{col(Follow, 'followee')}"
    keys = f"SELECT {followee} AS id FROM {qn(Follow._meta.db_table)} f WHERE f.{col(Follow, 'follower')} = %s"
    params: list = [user_id]
    if viewer is not None:
        condition, condition_params = viewable_sql(viewer, followee)
        keys += f" AND {condition}"
        params += condition_params
    if include_self:
        keys += " UNION SELECT %s"
        params.append(user_id)
    kind = authors_sql(authors, "k.id")
    sql = dialect.followees_latest(
        db_vendor, qn(Post._meta.db_table), col(Post, "owner"), keys, roots_only=roots_only,
        kind=kind[0] if kind else "",
    )
    return sql, (*params, *(kind[1] if kind else ()), int(limit))


def newest_posts_sql(
    field: str, keys, n: int, *, roots_only: bool = False, top: int | None = None, descending: bool = True,
    db_vendor: str | None = None,
) -> tuple[str, tuple]:
    """Ids of the `n` newest posts of each value of `field` ("owner_id" or "reply_to")
    among `keys` (a list of ids, or posting_followees's statement); with `top`, only the
    first `top` of those by id, newest first unless not `descending`."""
    db_vendor = db_vendor or vendor()
    post, column = qn(Post._meta.db_table), col(Post, field)
    if not isinstance(keys, tuple):
        keys = list(dict.fromkeys(int(k) for k in keys if k is not None))
    elif db_vendor == "postgresql" and top is not None and descending and n > 0:
        return _newest_above_sql(column, keys, n, top, roots_only=roots_only)
    sql, params = dialect.newest_per_key(db_vendor, post, column, keys, n, roots_only=roots_only)
    if top is not None:
        sql += f" ORDER BY p.id {'DESC' if descending else 'ASC'} LIMIT %s"
        params.append(int(top))
    return sql, tuple(params)


def _newest_above_sql(column: str, keys: tuple[str, tuple], n: int, top: int, *, roots_only: bool) -> tuple[str, tuple]:
    """PostgreSQL: newest_posts_sql's newest `top` of the keys' `n` newest posts each,
    reading only the posts that can be among them. Each key's newest post is among the
    union, so when there are at least `top` keys the union's `top` newest posts are no
    older than the oldest of the keys' newest posts: every key's posts below that are
    left unread (a home timeline read 39 posts of its 21 posters instead of 333 at 100k
    posts)."""
    newest, newest_params = dialect.newest_per_key(
        "postgresql", qn(Post._meta.db_table), column, (), n, roots_only=roots_only, above="low.id",
        keys_from="k CROSS JOIN low",
    )
    sql = (
        f"WITH k(key, latest) AS ({keys[0]}), "
        f"low(id) AS (SELECT CASE WHEN count(*) >= %s THEN min(k.latest) ELSE {dialect.LOWEST_ID} END FROM k) "
        f"{newest} ORDER BY p.id DESC LIMIT %s"
    )
    return sql, (*keys[1], int(top), *newest_params, int(top))
