"""The Following tab's read stops below the oldest of its posters' newest posts
(sns/selectors/post_reads/followees.py `_newest_above_sql`): the home timeline's posts and the
API's by-followees rows are still those of the ORM read without the bound, on pages
small enough that the bound applies, for readers a block, blockStrangers, a frozen
owner, a mute and a muted word hide things from."""

from __future__ import annotations

import pytest
from django.db import connection

from sns.api.post_rows import post_row_json
from sns.api.presenters import post_json
from sns.models import Post
from sns.selectors import Page
from sns.selectors.post_reads import instances as post_models
from sns.selectors.post_reads import tuples as post_rows
from sns.selectors.post_reads.followees import posting_followees
from tests.sns import reference_reads
from tests.sns.test_post_models import _everything
from tests.sns.test_post_rows import _json, community  # noqa: F401 (the seeded community)

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the bound is in the PostgreSQL statement"),
]

PAGES = (Page(limit=1), Page(limit=2), Page(limit=3), Page(limit=2, offset=1), Page(limit=3, offset=1))


def _cut_below_the_bound(user, viewer, page: Page, *, include_self: bool, roots_only: bool, per_user: int) -> bool:
    """Whether the bound leaves some poster's newest `per_user` posts partly unread."""
    sql, params = posting_followees(user.id, include_self=include_self, roots_only=roots_only, limit=page.limit, viewer=viewer)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        active = cursor.fetchall()
    if len(active) < page.end:
        return False
    low = min(latest for _, latest in active)
    posts = Post.objects.filter(owner_id__in=[key for key, _ in active])
    if roots_only:
        posts = posts.filter(reply_to__isnull=True)
    return any(
        any(pid < low for pid in posts.filter(owner_id=key).order_by("-id").values_list("id", flat=True)[:per_user])
        for key, _ in active
    )


def test_the_home_timeline_is_the_unbounded_read(community):
    users, _ = community
    cut = 0
    for reader in users:
        for page in PAGES:
            reference = reference_reads.posts_by_followees(
                user_id=reader.id, page=page, include_self=True, focus_user_id=reader.id, viewer=reader
            )
            lean = post_models.followee_posts(reader, page)
            assert [_everything(p) for p in lean] == [_everything(p) for p in reference], (reader, page)
            cut += _cut_below_the_bound(reader, reader, page, include_self=True, roots_only=False, per_user=page.limit)
    assert cut, "the bound leaves posts unread on some of these pages"


def test_the_api_rows_are_the_unbounded_read(community):
    users, _ = community
    cut = 0
    for user in users:
        for viewer in (None, users[0], users[2], users[3]):
            focus = viewer.id if viewer else None
            for page in PAGES:
                for options in ({}, {"include_self": True}, {"include_replies": False}, {"limit_per_user": 1}):
                    args = {"user_id": user.id, "page": page, "focus_user_id": focus, "viewer": viewer, **options}
                    reference = reference_reads.posts_by_followees(**args)
                    lean = post_rows.post_rows_by_followees(**args)
                    assert _json([post_row_json(r, focus) for r in lean]) == _json([post_json(p, focus) for p in reference])
                    if viewer is users[0]:
                        cut += _cut_below_the_bound(
                            user, viewer, page, include_self=bool(options.get("include_self")),
                            roots_only=options.get("include_replies") is False,
                            per_user=min(page.limit, options.get("limit_per_user", page.limit)),
                        )
    assert cut
