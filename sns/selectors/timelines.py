"""Timelines: the newest posts of many authors at once, and the posts a user liked."""

from __future__ import annotations

from django.db import connection
from django.db.models import OuterRef, Q, Subquery, Window
from django.db.models.expressions import RawSQL
from django.db.models.functions import RowNumber

from ..models import Follow, Like, Post, User
from .paging import Page, after_pivot, id_order, page_slice, time_then_key
from .posts import post_queryset


def newest_posts_q(
    field: str, keys, n: int, *, roots_only: bool = False, top: int | None = None, descending: bool = True
) -> Q:
    """A filter for the `n` newest posts (by id) of each value of `field` ("owner_id" or
    "reply_to") in `keys`, used as a subquery (no extra round trip). With `top`, only
    the first `top` of those by id (newest first unless not `descending`): a caller
    that shows one page of the union need not have every row of it fetched.

    On PostgreSQL a LATERAL join reads `n` entries of the (field, id) index per key,
    however many posts the key has; a window function over all the keys' posts (the
    form used elsewhere) grows with the busiest author's history.
    """
    keys = list(dict.fromkeys(int(k) for k in keys if k is not None))
    if not keys or n <= 0:
        return Q(pk__in=[])
    if connection.vendor == "postgresql":
        return Q(pk__in=RawSQL(*newest_posts_sql(field, keys, n, roots_only=roots_only, top=top, descending=descending)))
    return Q(pk__in=_newest_ranked(field, keys, n, roots_only=roots_only).values("id"))


def newest_posts_sql(
    field: str, keys, n: int, *, roots_only: bool = False, top: int | None = None, descending: bool = True
) -> tuple[str, tuple]:
    """newest_posts_q's subquery as SQL and parameters, for the lean reads
    (post_rows.py); `keys` must not be empty. On PostgreSQL `keys` may also be a
    statement (SQL, parameters) giving the keys, so that they are read in the same
    round trip."""
    if isinstance(keys, tuple) and len(keys) == 2 and isinstance(keys[0], str):
        key_sql, key_params = keys
        source, params = f"({key_sql}) AS k(key)", tuple(key_params)
    else:
        keys = list(dict.fromkeys(int(k) for k in keys if k is not None))
        if connection.vendor != "postgresql":
            return _newest_ranked(field, keys, n, roots_only=roots_only).values("id").query.sql_with_params()
        source, params = "unnest(%s::bigint[]) AS k(key)", (keys,)
    qn = connection.ops.quote_name
    column = qn(Post._meta.get_field(field).column)
    roots = f" AND {qn('reply_to')} IS NULL" if roots_only else ""
    sql = (
        f"SELECT p.id FROM {source} CROSS JOIN LATERAL "
        f"(SELECT {qn('id')} AS id FROM {qn(Post._meta.db_table)} WHERE {column} = k.key{roots} "
        f"ORDER BY {qn('id')} DESC LIMIT %s) AS p"
    )
    params += (int(n),)
    if top is not None:
        sql += f" ORDER BY p.id {'DESC' if descending else 'ASC'} LIMIT %s"
        params += (int(top),)
    return sql, params


def _newest_ranked(field: str, keys: list[int], n: int, *, roots_only: bool):
    qs = Post.objects.filter(**{f"{field}__in": keys})
    if roots_only:
        qs = qs.filter(reply_to__isnull=True)
    return qs.annotate(rank=Window(RowNumber(), partition_by=[field], order_by=["-id"])).filter(rank__lte=n)


def posts_by_followees(
    *,
    user_id: int,
    page: Page,
    include_self: bool = False,
    include_replies: bool = True,
    limit_per_user: int | None = None,
    focus_user_id: int | None = None,
) -> list[Post]:
    """docs/api.md §3: of the followees of `user_id` (and the user too if
    `include_self`) who have a post, the `limit` with the newest latest post each
    contribute their `min(limit, limit_per_user ?? limit)` newest posts; that union is
    ordered by id, then `offset`/`limit` apply. Root posts only unless `include_replies`."""
    active = _latest_posting_followees(user_id, include_self=include_self, roots_only=not include_replies, limit=page.limit)
    per_user = min(page.limit, page.limit if limit_per_user is None else limit_per_user)
    if not active or per_user <= 0:
        return []
    newest = newest_posts_q(
        "owner_id", active, per_user, roots_only=not include_replies,
        top=page.offset + page.limit, descending=page.descending,
    )
    qs = post_queryset(focus_user_id).filter(newest)
    return page_slice(qs.order_by(id_order(page)), page)


def latest_posting_followees_sql(user_id: int, *, include_self: bool, roots_only: bool, limit: int) -> tuple[str, tuple]:
    """_latest_posting_followees's statement on PostgreSQL (one column of ids), which
    the lean by-followees read also uses as a subquery."""
    qn = connection.ops.quote_name
    post, follow = qn(Post._meta.db_table), qn(Follow._meta.db_table)
    owner, reply_to = qn(Post._meta.get_field("owner").column), qn(Post._meta.get_field("reply_to").column)
    roots = f" AND {reply_to} IS NULL" if roots_only else ""
    me = " UNION SELECT %s" if include_self else ""
    sql = (
        f"SELECT k.id FROM (SELECT {qn(Follow._meta.get_field('followee').column)} AS id FROM {follow} "
        f"WHERE {qn(Follow._meta.get_field('follower').column)} = %s{me}) AS k "
        f"CROSS JOIN LATERAL (SELECT {qn('id')} AS latest FROM {post} WHERE {owner} = k.id{roots} "
        f"ORDER BY {qn('id')} DESC LIMIT 1) AS p ORDER BY p.latest DESC LIMIT %s"
    )
    return sql, ((user_id, user_id, limit) if include_self else (user_id, limit))


def _latest_posting_followees(user_id: int, *, include_self: bool, roots_only: bool, limit: int) -> list[int]:
    """The followees of `user_id` (and the user, if `include_self`) with a post, the
    `limit` with the newest latest post first. On PostgreSQL one statement reads one
    entry of the (owner, id) index per followee; elsewhere the ORM's equivalent."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(*latest_posting_followees_sql(user_id, include_self=include_self, roots_only=roots_only, limit=limit))
            return [row[0] for row in cursor.fetchall()]
    wanted = Q(pk__in=Follow.objects.filter(follower_id=user_id).values("followee_id"))
    if include_self:
        wanted |= Q(pk=user_id)
    own_posts = Post.objects.filter(owner_id=OuterRef("pk"))
    if roots_only:
        own_posts = own_posts.filter(reply_to__isnull=True)
    return list(
        User.objects.filter(wanted)
        .annotate(latest=Subquery(own_posts.order_by("-id").values("id")[:1]))
        .filter(latest__isnull=False)
        .order_by("-latest")
        .values_list("pk", flat=True)[:limit]
    )

def posts_liked(
    *,
    user_id: int,
    page: Page,
    include_replies: bool = True,
    after: int | None = None,
    focus_user_id: int | None = None,
) -> list[Post]:
    """Posts `user_id` liked, by like time (then post id)."""
    likes = Like.objects.filter(user_id=user_id)
    if not include_replies:
        likes = likes.filter(post__reply_to__isnull=True)
    if after is not None:
        likes = after_pivot(likes, "post_id", after, page.descending)
    ordered = likes.order_by(*time_then_key("post_id", page)).values_list("post_id", flat=True)
    post_ids = list(ordered[page.offset : page.offset + page.limit])
    posts = {p.id: p for p in post_queryset(focus_user_id).filter(id__in=post_ids)}
    return [posts[pid] for pid in post_ids if pid in posts]
