"""What an AI user may read: the same block and freeze rules the site applies,
expressed as one query over a batch of post ids (docs/agent-cycle.md §3.3)."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from sns.models import Block, Post


def viewable_posts(viewer_id: int, post_ids, *, with_owner: bool = True, with_summary: bool = False) -> dict[int, Post]:
    """Posts among `post_ids` that exist, whose owner is not frozen and has not blocked
    the viewer. Returns {id: Post}; callers keep their own order. `with_summary` joins
    each post's summary row (`inputs.summaries_of` reads it) instead of a second query."""
    ids = list(dict.fromkeys(i for i in post_ids if i is not None))
    if not ids:
        return {}
    blocked = Block.objects.filter(blocker_id=OuterRef("owner_id"), blockee_id=viewer_id)
    qs = Post.objects.filter(id__in=ids, owner__is_frozen=False).exclude(Exists(blocked))
    if with_owner:
        qs = qs.select_related("owner")
    if with_summary:
        qs = qs.select_related("ai_summary")
    return {post.id: post for post in qs}
