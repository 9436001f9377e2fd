"""The reads of stage 1 as few, lean queries (docs/agent-cycle.md §3.1, §3.3, §3.5).

The site's selectors build whole Post objects with their tags for pages; choosing what
to read needs a handful of columns. These return rows as dicts, answer the same
questions as `sns.selectors.posts_by_followees` / `posts_list` / `notifications_feed`
and `viewable_posts`, and put what can share a round trip into one statement.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import BooleanField, Exists, ExpressionWrapper, F, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.expressions import RawSQL

from agents.models import PostImpression
from agents.recommend.batch import ids_in
from sns.models import Block, Follow, Notification, Post, User
from sns.selectors import newest_posts_q

TIMELINE_FIELDS = ("id", "owner_id", "reply_to", "locale", "owner__locale", "reply_to_owner_id")


def _timeline_rows(qs):
    parents = Post.objects.filter(pk=OuterRef("reply_to"))
    return qs.annotate(reply_to_owner_id=Subquery(parents.values("owner_id")[:1]))


def timelines(user_id: int, *, limit: int, per_followee: int) -> tuple[list[dict], list[dict]]:
    """(followees' posts, latest posts site-wide), newest first, `limit` each — the rows
    of `posts_by_followees(include_self=False, include_replies=True,
    limit_per_user=per_followee)` and `posts_list(order desc)`, in one query on
    PostgreSQL."""
    own_posts = Post.objects.filter(owner_id=OuterRef("pk"))
    # Followees who have a post, the `limit` with the newest latest post.
    active = (
        User.objects.filter(pk__in=Follow.objects.filter(follower_id=user_id).values("followee_id"))
        .annotate(latest=Subquery(own_posts.order_by("-id").values("id")[:1]))
        .filter(latest__isnull=False)
        .order_by("-latest")
        .values_list("pk", flat=True)[:limit]
    )
    per_user = min(limit, per_followee)
    latest = _timeline_rows(Post.objects.all()).annotate(src=Value(0, output_field=IntegerField()))
    latest = latest.order_by("-id").values(*TIMELINE_FIELDS, "src")[:limit]
    if per_user <= 0:
        return [], list(latest)
    if connection.vendor == "postgresql":
        # Their newest posts straight from the followee subquery (a LATERAL index scan
        # per followee, as newest_posts_q does for a list), without a round trip for it.
        active_sql, active_params = active.query.sql_with_params()
        qn = connection.ops.quote_name
        newest = RawSQL(
            f"SELECT p.id FROM ({active_sql}) AS k(key) CROSS JOIN LATERAL "
            f"(SELECT {qn('id')} AS id FROM {qn(Post._meta.db_table)} "
            f"WHERE {qn(Post._meta.get_field('owner').column)} = k.key ORDER BY {qn('id')} DESC LIMIT %s) AS p",
            (*active_params, int(per_user)),
        )
        wanted = Q(pk__in=newest)
    else:
        keys = list(active)
        if not keys:
            return [], list(latest)
        wanted = newest_posts_q("owner_id", keys, per_user)
    followees = (
        _timeline_rows(Post.objects.filter(wanted))
        .annotate(src=Value(1, output_field=IntegerField()))
        .order_by("-id")
        .values(*TIMELINE_FIELDS, "src")[:limit]
    )
    # Both lists in one round trip where the database can; each keeps its own order and limit.
    rows = _union_all(followees, latest)
    by_source: dict[int, list[dict]] = {0: [], 1: []}
    for row in rows:
        by_source[row.pop("src")].append(row)
    for part in by_source.values():
        part.sort(key=lambda r: r["id"], reverse=True)
    return by_source[1], by_source[0]


def _union_all(first, second) -> list:
    """Rows of two sliced querysets: one UNION ALL on PostgreSQL, two queries on SQLite
    (which cannot order and limit the parts of a compound statement)."""
    if connection.features.supports_slicing_ordering_in_compound:
        return list(first.union(second, all=True))
    return list(first) + list(second)


def notifications_feed(user_id: int, *, shown: int) -> list[Notification]:
    """`selectors.notifications_feed(user_id, shown=shown)` in one query: up to `shown`
    unread and `shown` read notifications, newest first."""
    base = Notification.objects.filter(user_id=user_id)
    unread = base.filter(is_read=False).order_by("-updated_at", "-id")[:shown]
    read = base.filter(is_read=True).order_by("-updated_at", "-id")[:shown]
    rows = _union_all(unread, read)
    return sorted(rows, key=lambda n: (n.updated_at, n.id), reverse=True)


def candidate_facts(viewer_id: int, post_ids) -> dict[int, dict]:
    """The candidates the viewer may read (`viewable_posts`: the post exists, its owner
    is not frozen and has not blocked the viewer), each with its owner, whether the
    viewer has read it (an impression exists) and its summary facts, in one query."""
    ids = list(dict.fromkeys(i for i in post_ids if i is not None))
    if not ids:
        return {}
    blocked = Block.objects.filter(blocker_id=OuterRef("owner_id"), blockee_id=viewer_id)
    read = PostImpression.objects.filter(user_id=viewer_id, post_id=OuterRef("pk"))
    rows = (
        Post.objects.filter(ids_in("id", ids), owner__is_frozen=False)
        .exclude(Exists(blocked))
        .annotate(
            read=Exists(read),
            summarised=ExpressionWrapper(Q(ai_summary__summary__isnull=False), output_field=BooleanField()),
            features=F("ai_summary__features"),
            embedding_model=F("ai_summary__embedding_model"),
        )
        .values("id", "owner_id", "read", "summarised", "features", "embedding_model")
    )
    return {row["id"]: row for row in rows}
