"""Reads of users, with the focus user's follow and block flags."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet

from ..core.errors import InvalidInput, NotFound
from ..models import Block, Follow, User
from .paging import Page, id_order, page_slice


def user_queryset(focus_user_id: int | None = None) -> QuerySet[User]:
    qs = User.objects.all()
    if focus_user_id is not None:
        qs = qs.annotate(
            is_followed_by_focus=Exists(Follow.objects.filter(follower_id=focus_user_id, followee_id=OuterRef("pk"))),
            is_following_focus=Exists(Follow.objects.filter(follower_id=OuterRef("pk"), followee_id=focus_user_id)),
            is_blocked_by_focus=Exists(Block.objects.filter(blocker_id=focus_user_id, blockee_id=OuterRef("pk"))),
            is_blocking_focus=Exists(Block.objects.filter(blocker_id=OuterRef("pk"), blockee_id=focus_user_id)),
        )
    return qs


def users_list(
    *,
    page: Page,
    query: str | None = None,
    nickname: str | None = None,
    nickname_prefix: str | None = None,
    after: int | None = None,
    focus_user_id: int | None = None,
    ai_only: bool = False,
) -> list[User]:
    """Users by id; `page.order == "social"` puts the focus user first, then the users
    the focus follows, then those following the focus, then the rest by id ascending
    (without a focus user: by id descending). `query` is the admin-only text match; the
    caller checks the role."""
    social = page.order == "social"
    if after is not None and social:
        raise InvalidInput("after requires order asc or desc")
    qs = _users_filtered(
        user_queryset(focus_user_id), query=query, nickname=nickname, nickname_prefix=nickname_prefix
    )
    if ai_only:
        qs = qs.filter(ai_model__isnull=False)
    if social:
        if focus_user_id is None:
            return page_slice(qs.order_by("-id"), page)
        qs = qs.annotate(is_self=Q(pk=focus_user_id))
        return page_slice(qs.order_by("-is_self", "-is_followed_by_focus", "-is_following_focus", "id"), page)
    if after is not None:
        qs = qs.filter(id__lt=after) if page.descending else qs.filter(id__gt=after)
    return page_slice(qs.order_by(id_order(page)), page)


def _users_filtered(qs, *, query=None, nickname=None, nickname_prefix=None):
    if query:
        qs = qs.filter(Q(nickname__icontains=query) | Q(introduction__icontains=query))
    if nickname:
        qs = qs.filter(nickname__iexact=nickname)
    if nickname_prefix:
        qs = qs.filter(nickname__istartswith=nickname_prefix)
    return qs


def users_count(*, query: str | None = None, nickname: str | None = None, nickname_prefix: str | None = None) -> int:
    """GET /users/count: the original counts by the first of query, nickname and
    nicknamePrefix that is given."""
    if query:
        nickname = nickname_prefix = None
    elif nickname:
        nickname_prefix = None
    return _users_filtered(
        User.objects.all(), query=query, nickname=nickname, nickname_prefix=nickname_prefix
    ).count()


def user_get(user_id: int, *, focus_user_id: int | None = None) -> User:
    user = user_queryset(focus_user_id).filter(pk=user_id).first()
    if user is None:
        raise NotFound("not found")
    return user
