"""What has changed for a viewer since their page was drawn (the home timeline's "N new
posts" and the header's counts, polled by static/stgy.js): small bounded counts."""

from __future__ import annotations

from django.db.models import Q

from ..models import Follow, Post
from .messages import messages_unread_counts
from .notifications import notifications_unread_count

NEW_POSTS_CAP = 99  # "99+" is as useful as an exact count, and stays cheap


def new_posts_count(viewer_id: int, tab: str, after_id: int) -> int:
    """Posts newer than `after_id` on the viewer's Following or Everyone tab."""
    qs = Post.objects.filter(id__gt=after_id)
    if tab == "following":
        followees = Follow.objects.filter(follower_id=viewer_id).values("followee_id")
        qs = qs.filter(Q(owner_id=viewer_id) | Q(owner_id__in=followees))
    elif tab != "everyone":
        return 0
    return len(qs.values_list("id", flat=True)[: NEW_POSTS_CAP + 1])


def live_counts(viewer_id: int, tab: str, after_id: int | None) -> dict[str, int]:
    return {
        "newPosts": new_posts_count(viewer_id, tab, after_id) if after_id is not None else 0,
        "unreadNotifications": notifications_unread_count(viewer_id),
        "unreadMessages": messages_unread_counts(viewer_id)["inbox"],
    }
