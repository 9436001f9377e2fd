"""Users by their relation to a user or a post: followees, followers, blockees, likers."""

from __future__ import annotations

from ..models import Block, Follow, Like, User
from .paging import Page, after_pivot, time_then_key
from .users import user_queryset


def _users_by_relation(relation_qs, user_field: str, page: Page, focus_user_id, after=None) -> list[User]:
    if after is not None:
        relation_qs = after_pivot(relation_qs, user_field, after, page.descending)
    ordered = relation_qs.order_by(*time_then_key(user_field, page)).values_list(user_field, flat=True)
    ids = list(ordered[page.offset : page.offset + page.limit])
    users = {u.id: u for u in user_queryset(focus_user_id).filter(id__in=ids)}
    return [users[i] for i in ids if i in users]


def user_followees(*, user_id: int, page: Page, focus_user_id=None, after=None) -> list[User]:
    return _users_by_relation(Follow.objects.filter(follower_id=user_id), "followee_id", page, focus_user_id, after)


def user_followers(*, user_id: int, page: Page, focus_user_id=None) -> list[User]:
    return _users_by_relation(Follow.objects.filter(followee_id=user_id), "follower_id", page, focus_user_id)


def user_blockees(*, user_id: int, page: Page, focus_user_id=None, after=None) -> list[User]:
    return _users_by_relation(Block.objects.filter(blocker_id=user_id), "blockee_id", page, focus_user_id, after)


def user_relation(viewer_id: int, other_id: int) -> dict[str, bool]:
    """Follow and block flags between two users, for profile pages."""
    return {
        "following": Follow.objects.filter(follower_id=viewer_id, followee_id=other_id).exists(),
        "followed_by": Follow.objects.filter(follower_id=other_id, followee_id=viewer_id).exists(),
        "blocking": Block.objects.filter(blocker_id=viewer_id, blockee_id=other_id).exists(),
        "blocked_by": Block.objects.filter(blocker_id=other_id, blockee_id=viewer_id).exists(),
    }

def post_likers(*, post_id: int, page: Page, focus_user_id: int | None = None) -> list[User]:
    order = ["-created_at", "-user_id"] if page.descending else ["created_at", "user_id"]
    user_ids = list(
        Like.objects.filter(post_id=post_id).order_by(*order).values_list("user_id", flat=True)[
            page.offset : page.offset + page.limit
        ]
    )
    users = {u.id: u for u in user_queryset(focus_user_id).filter(id__in=user_ids)}
    return [users[uid] for uid in user_ids if uid in users]
