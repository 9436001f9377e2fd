"""Timelines: the newest posts of many authors at once, and the posts a user liked.

The tabs' posts themselves are read through the statement builder
(sns/selectors/post_reads/): the Following tab (`instances.followee_posts`), GET
/posts/by-followees (`tuples.post_rows_by_followees`) and the AI users' reading list
(`ai_timeline.timeline_rows`)."""

from __future__ import annotations

from django.db.models import Q
from django.db.models.expressions import RawSQL

from ..models import Like, Post
from .paging import Page, after_pivot, time_then_key
from .post_reads.followees import newest_posts_sql
from .post_reads.instances import posts_by_ids
from .visibility import viewable_q


def newest_posts_q(
    field: str, keys, n: int, *, roots_only: bool = False, top: int | None = None, descending: bool = True
) -> Q:
    """A filter for the `n` newest posts (by id) of each value of `field` ("owner_id" or
    "reply_to") in `keys`, used as a subquery (no extra round trip): the builder's
    `newest_posts_sql`. With `top`, only the first `top` of those by id (newest first
    unless not `descending`): a caller that shows one page of the union need not have
    every row of it fetched."""
    keys = list(dict.fromkeys(int(k) for k in keys if k is not None))
    if not keys or n <= 0:
        return Q(pk__in=[])
    sql, params = newest_posts_sql(field, keys, n, roots_only=roots_only, top=top, descending=descending)
    return Q(pk__in=RawSQL(sql, params))


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
    posts = posts_by_ids(None, post_ids, focus_user_id=focus_user_id)
    return [posts[pid] for pid in post_ids if pid in posts]
