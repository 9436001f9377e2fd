"""Users by their relation to a user or a post: followees, followers, blockees,
mutees, likers; and a user's muted words."""

from __future__ import annotations

from ..models import Block, Follow, Like, User
from ..models.mutes import Mute, MutedWord
from .paging import Page, after_pivot, time_then_key
from .users import user_queryset
from .visibility import viewable_q


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


def user_mutees(*, user_id: int, page: Page, focus_user_id=None) -> list[User]:
    """The users `user_id` muted (docs/mutes.md), newest mute first."""
    return _users_by_relation(Mute.objects.filter(user_id=user_id), "target_id", page, focus_user_id)


def user_is_muted(viewer_id: int, other_id: int) -> bool:
    return Mute.objects.filter(user_id=viewer_id, target_id=other_id).exists()


def muted_words_get(user_id: int) -> list[str]:
    return list(MutedWord.objects.filter(user_id=user_id).order_by("word").values_list("word", flat=True))


def user_relation(viewer_id: int, other_id: int) -> dict[str, bool]:
    """Follow and block flags between two users, for profile pages."""
    return {
        "following": Follow.objects.filter(follower_id=viewer_id, followee_id=other_id).exists(),
        "followed_by": Follow.objects.filter(follower_id=other_id, followee_id=viewer_id).exists(),
        "blocking": Block.objects.filter(blocker_id=viewer_id, blockee_id=other_id).exists(),
        "blocked_by": Block.objects.filter(blocker_id=other_id, blockee_id=viewer_id).exists(),
    }

def post_likers(*, post_id: int, page: Page, focus_user_id: int | None = None, viewer=None) -> list[User]:
    """Users who liked the post, newest like first; those hidden from `viewer` left out."""
    order = ["-created_at", "-user_id"] if page.descending else ["created_at", "user_id"]
    likes = Like.objects.filter(post_id=post_id)
    if viewer is not None:
        likes = likes.filter(viewable_q(viewer, "user"))
    user_ids = list(likes.order_by(*order).values_list("user_id", flat=True)[page.offset : page.offset + page.limit])
    users = {u.id: u for u in user_queryset(focus_user_id).filter(id__in=user_ids)}
    return [users[uid] for uid in user_ids if uid in users]
