"""A batch of posts by id as an AI user may read them (docs/agent-cycle.md §3.3): the
site's one visibility rule (sns/selectors/visibility.py) over the ids, in one query."""

from __future__ import annotations

from agents.recommend.batch import ids_in
from sns.models import Post, User
from sns.selectors import viewable_posts


def viewable_by_id(viewer: User, post_ids, *, with_owner: bool = True, with_summary: bool = False) -> dict[int, Post]:
    """Posts among `post_ids` that exist and `viewer` may see. Returns {id: Post};
    callers keep their own order. `with_summary` joins each post's summary row
    (`inputs.summaries_of` reads it) instead of a second query."""
    ids = list(dict.fromkeys(i for i in post_ids if i is not None))
    if not ids:
        return {}
    qs = viewable_posts(viewer).filter(ids_in("id", ids))
    if with_owner:
        qs = qs.select_related("owner")
    if with_summary:
        qs = qs.select_related("ai_summary")
    return {post.id: post for post in qs}
