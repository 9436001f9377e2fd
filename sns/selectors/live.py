"""What has changed for a viewer since their page was drawn (the home timeline's "N new
posts" and the header's counts, polled by static/stgy.js): small bounded counts."""

from __future__ import annotations

from django.db.models import Q

from ..models import Follow
from .authors import authors_q
from .header_counts import header_counts
from .visibility import viewable_posts

NEW_POSTS_CAP = 99  # "99+" is as useful as an exact count, and stays cheap


def new_posts_count(viewer, tab: str, after_id: int, *, authors: str | None = None) -> int:
    """Posts newer than `after_id` on the viewer's Following or Everyone tab, counting
    only posts the tab would show them (under its People / AI / All filter)."""
    qs = viewable_posts(viewer).filter(authors_q(authors), id__gt=after_id)
    if tab == "following":
        followees = Follow.objects.filter(follower_id=viewer.id).values("followee_id")
        qs = qs.filter(Q(owner_id=viewer.id) | Q(owner_id__in=followees))
    elif tab != "everyone":
        return 0
    return len(qs.values_list("id", flat=True)[: NEW_POSTS_CAP + 1])


def live_counts(viewer, tab: str, after_id: int | None, *, authors: str | None = None) -> dict[str, int]:
    counts = header_counts(viewer)
    live = {
        "newPosts": new_posts_count(viewer, tab, after_id, authors=authors) if after_id is not None else 0,
        "unreadNotifications": counts.unread,
        "unreadMessages": counts.unread_dm,
    }
    if getattr(viewer, "is_admin", False):  # an admin's header counts the open reports too
        live["openReports"] = counts.reports_open
    return live
