"""Timelines: the newest posts of many authors at once, and the posts a user liked."""

from __future__ import annotations

from django.db import connection
from django.db.models import IntegerField, OuterRef, Q, Subquery, Value, Window
from django.db.models.expressions import RawSQL
from django.db.models.functions import RowNumber

from ..compiled_read import CompiledRead, viewer_of, viewer_variant
from ..models import Follow, Like, Post, User
from .paging import Page, after_pivot, id_order, page_slice, time_then_key, union_all
from .posts import post_queryset
from .authors import authors_q, authors_sql
from .visibility import viewable_posts, viewable_q, viewable_sql


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
    (sns/selectors/post_rows.py); `keys` must not be empty. On PostgreSQL `keys` may
    also be a statement (SQL, parameters) giving the keys, so that they are read in the
    same round trip: posting_followees's, whose second column is each key's newest post
    id (by the same `roots_only`)."""
    if isinstance(keys, tuple) and len(keys) == 2 and isinstance(keys[0], str):
        if top is not None and descending and n > 0:
            return _newest_above_sql(field, keys, n, top, roots_only=roots_only)
        sql, params = _newest_sql(field, f"({keys[0]}) AS k(key)", tuple(keys[1]), n, roots_only=roots_only)
    else:
        keys = list(dict.fromkeys(int(k) for k in keys if k is not None))
        if connection.vendor != "postgresql":
            return _newest_ranked(field, keys, n, roots_only=roots_only).values("id").query.sql_with_params()
        sql, params = _newest_sql(field, "unnest(%s::bigint[]) AS k(key)", (keys,), n, roots_only=roots_only)
    if top is not None:
        sql += f" ORDER BY p.id {'DESC' if descending else 'ASC'} LIMIT %s"
        params += (int(top),)
    return sql, params


def _newest_ranked(field: str, keys: list[int], n: int, *, roots_only: bool):
    """Elsewhere than PostgreSQL: the `n` newest posts of each key, by a window function."""
    qs = Post.objects.filter(**{f"{field}__in": keys})
    if roots_only:
        qs = qs.filter(reply_to__isnull=True)
    return qs.annotate(rank=Window(RowNumber(), partition_by=[field], order_by=["-id"])).filter(rank__lte=n)


def _newest_sql(
    field: str, keys_from: str, key_params: tuple, n: int, *, roots_only: bool, above: str | None = None
) -> tuple[str, tuple]:
    """PostgreSQL: ids of the `n` newest posts of each `key` of the relation `keys_from`,
    with `above`, only those of an id at least that SQL expression."""
    qn = connection.ops.quote_name
    roots = f" AND {qn('reply_to')} IS NULL" if roots_only else ""
    if above is not None:
        roots += f" AND {qn('id')} >= {above}"
    sql = (
        f"SELECT p.id FROM {keys_from} CROSS JOIN LATERAL "
        f"(SELECT {qn('id')} AS id FROM {qn(Post._meta.db_table)} "
        f"WHERE {qn(Post._meta.get_field(field).column)} = k.key{roots} "
        f"ORDER BY {qn('id')} DESC LIMIT %s) AS p"
    )
    return sql, (*key_params, int(n))


def _newest_above_sql(field: str, keys: tuple[str, tuple], n: int, top: int, *, roots_only: bool) -> tuple[str, tuple]:
    """newest_posts_sql's newest `top` of the keys' `n` newest posts each, reading only
    the posts that can be among them. Each key's newest post is among the union, so
    when there are at least `top` keys the union's `top` newest posts are no older than
    the oldest of the keys' newest posts: every key's posts below that are left unread.
    The bench user's home timeline read 333 posts of its 21 posters to keep 21 at 100k
    posts, 39 with the bound."""
    newest, newest_params = _newest_sql(field, "k CROSS JOIN low", (), n, roots_only=roots_only, above="low.id")
    sql = (
        f"WITH k(key, latest) AS ({keys[0]}), "
        f"low(id) AS (SELECT CASE WHEN count(*) >= %s THEN min(k.latest) ELSE {_LOWEST_ID} END FROM k) "
        f"{newest} ORDER BY p.id DESC LIMIT %s"
    )
    return sql, (*keys[1], int(top), *newest_params, int(top))


_LOWEST_ID = -(2**63)


def posts_by_followees(
    *,
    user_id: int,
    page: Page,
    include_self: bool = False,
    include_replies: bool = True,
    limit_per_user: int | None = None,
    focus_user_id: int | None = None,
    viewer=None,
    authors: str | None = None,
) -> list[Post]:
    """docs/api.md §3: of the followees of `user_id` (and the user too if
    `include_self`) who have a post, the `limit` with the newest latest post each
    contribute their `min(limit, limit_per_user ?? limit)` newest posts; that union is
    ordered by id, then `offset`/`limit` apply. Root posts only unless `include_replies`.
    With a `viewer`, followees hidden from them take no place and their posts none; with
    `authors`, only the people or only the AI users among them (sns/selectors/authors.py)."""
    followees = posting_followees(
        user_id, include_self=include_self, roots_only=not include_replies, limit=page.limit, viewer=viewer,
        authors=authors,
    )
    active = _run(followees) if connection.vendor == "postgresql" else list(followees)
    per_user = min(page.limit, page.limit if limit_per_user is None else limit_per_user)
    if not active or per_user <= 0:
        return []
    newest = newest_posts_q(
        "owner_id", active, per_user, roots_only=not include_replies,
        top=page.end, descending=page.descending,
    )
    qs = post_queryset(focus_user_id).filter(newest)
    if viewer is not None:
        qs = qs.filter(viewable_q(viewer))
    return page_slice(qs.order_by(id_order(page)), page)


def posting_followees(
    user_id: int, *, include_self: bool, roots_only: bool, limit: int, viewer=None, authors: str | None = None
):
    """The followees of `user_id` (and the user, if `include_self`) with a post, the
    `limit` with the newest latest post first, those hidden from `viewer` left out, and
    with `authors` those not of that kind (people or AI users). On
    PostgreSQL an (sql, params) pair that reads one entry of the (owner, id) index per
    followee, to run or to nest, with each one's latest post id as a second column;
    elsewhere the ORM's equivalent as a values queryset."""
    if connection.vendor == "postgresql":
        # Written out rather than compiled from a queryset: this runs on every
        # by-followees read, where the ORM's compilation cost more than the query
        # (bench/hot_reads); the visibility rule is the same one, as SQL.
        qn = connection.ops.quote_name
        follow = Follow._meta
        followee = f"f.{qn(follow.get_field('followee').column)}"
        follows_sql = (
            f"SELECT {followee} FROM {qn(follow.db_table)} f "
            f"WHERE f.{qn(follow.get_field('follower').column)} = %s"
        )
        follows_params: list = [user_id]
        if viewer is not None:
            condition, condition_params = viewable_sql(viewer, followee)
            follows_sql += f" AND {condition}"
            follows_params += condition_params
        owner, reply_to = qn(Post._meta.get_field("owner").column), qn(Post._meta.get_field("reply_to").column)
        roots = f" AND {reply_to} IS NULL" if roots_only else ""
        me = " UNION SELECT %s" if include_self else ""
        kind = authors_sql(authors, "k.id")
        kind_sql, kind_params = (f" WHERE {kind[0]}", kind[1]) if kind is not None else ("", [])
        sql = (
            f"SELECT k.id, p.latest FROM ({follows_sql}{me}) AS k(id) "
            f"CROSS JOIN LATERAL (SELECT {qn('id')} AS latest FROM {qn(Post._meta.db_table)} "
            f"WHERE {owner} = k.id{roots} ORDER BY {qn('id')} DESC LIMIT 1) AS p{kind_sql} ORDER BY p.latest DESC LIMIT %s"
        )
        return sql, (*follows_params, *((user_id,) if include_self else ()), *kind_params, limit)
    follows = Follow.objects.filter(follower_id=user_id).order_by()
    if viewer is not None:
        follows = follows.filter(viewable_q(viewer, "followee"))
    wanted = Q(pk__in=follows.values("followee_id"))
    if include_self:
        wanted |= Q(pk=user_id)
    own_posts = Post.objects.filter(owner_id=OuterRef("pk"))
    if roots_only:
        own_posts = own_posts.filter(reply_to__isnull=True)
    return (
        User.objects.filter(wanted, authors_q(authors, "pk"))
        .annotate(latest=Subquery(own_posts.order_by("-id").values("id")[:1]))
        .filter(latest__isnull=False)
        .order_by("-latest")
        .values_list("pk", flat=True)[:limit]
    )


def _run(statement: tuple[str, tuple]) -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(*statement)
        return [row[0] for row in cursor.fetchall()]


def posts_liked(
    *,
    user_id: int,
    page: Page,
    include_replies: bool = True,
    after: int | None = None,
    focus_user_id: int | None = None,
    viewer=None,
) -> list[Post]:
    """Posts `user_id` liked, by like time (then post id), those hidden from `viewer` left out."""
    likes = Like.objects.filter(user_id=user_id)
    if viewer is not None:
        likes = likes.filter(viewable_q(viewer, "post__owner"))
    if not include_replies:
        likes = likes.filter(post__reply_to__isnull=True)
    if after is not None:
        likes = after_pivot(likes, "post_id", after, page.descending)
    ordered = likes.order_by(*time_then_key("post_id", page)).values_list("post_id", flat=True)
    post_ids = list(ordered[page.offset : page.offset + page.limit])
    posts = {p.id: p for p in post_queryset(focus_user_id).filter(id__in=post_ids)}
    return [posts[pid] for pid in post_ids if pid in posts]


# ------------------------------------------------------------ lean rows for the AI cycle

TIMELINE_FIELDS = ("id", "owner_id", "reply_to", "locale", "owner__locale", "reply_to_owner_id")


def timeline_rows(user_id: int, *, limit: int, per_followee: int, viewer=None) -> tuple[list[dict], list[dict]]:
    """(followees' posts, latest posts site-wide), newest first, `limit` each, as dicts
    of TIMELINE_FIELDS: the rows of `posts_by_followees(include_self=False,
    include_replies=True, limit_per_user=per_followee)` and `posts_list(order desc)`
    for `viewer`, in one query on PostgreSQL. An AI user choosing what to read needs
    these few columns, not whole posts with their tags."""
    latest = _timeline_dicts(viewable_posts(viewer), source=0)[:limit]
    per_user = min(limit, per_followee)
    if per_user <= 0:
        return [], list(latest)
    if connection.vendor == "postgresql":
        # Compiled once per viewer kind, limit and per-followee count: building and
        # compiling this union was a tenth of select_posts' Python calls.
        kind = "anyone" if viewer is None else viewer_variant(viewer)
        rows = _timeline_union((kind, limit, per_user), user_id, None if viewer is None else viewer.id)
    else:
        keys = list(posting_followees(user_id, include_self=False, roots_only=False, limit=limit, viewer=viewer))
        if not keys:
            return [], list(latest)
        wanted = newest_posts_q("owner_id", keys, per_user)
        rows = union_all(_timeline_dicts(viewable_posts(viewer).filter(wanted), source=1)[:limit], latest)
    by_source: dict[int, list[dict]] = {0: [], 1: []}
    for row in rows:
        by_source[row.pop("src")].append(row)
    for part in by_source.values():
        part.sort(key=lambda r: r["id"], reverse=True)
    return by_source[1], by_source[0]


def _timeline_union_query(variant: tuple[str, int, int], user_id: int, viewer_id: int | None):
    """PostgreSQL: both lists of `timeline_rows` as one UNION ALL, the followees' newest
    posts straight from the followee statement, nested (no round trip for the list).
    `variant` is (viewer kind, limit, per-followee count): what changes the text."""
    kind, limit, per_user = variant
    viewer = None if viewer_id is None else viewer_of(kind, viewer_id)
    followees_sql, followees_params = posting_followees(
        user_id, include_self=False, roots_only=False, limit=limit, viewer=viewer
    )
    newest = _newest_sql("owner_id", f"({followees_sql}) AS k(key)", followees_params, per_user, roots_only=False)
    followed = _timeline_dicts(viewable_posts(viewer).filter(pk__in=RawSQL(*newest)), source=1)[:limit]
    return followed.union(_timeline_dicts(viewable_posts(viewer), source=0)[:limit], all=True)


_timeline_union = CompiledRead("timeline_union", ("id", "id"), _timeline_union_query)


def _timeline_dicts(qs, *, source: int):
    """Rows of TIMELINE_FIELDS newest first, tagged with `source` (which list of a union)."""
    parents = Post.objects.filter(pk=OuterRef("reply_to"))
    return (
        qs.annotate(
            reply_to_owner_id=Subquery(parents.values("owner_id")[:1]),
            src=Value(source, output_field=IntegerField()),
        )
        .order_by("-id")
        .values(*TIMELINE_FIELDS, "src")
    )
