"""Reads of AI users for the API (docs/api.md §6)."""

from __future__ import annotations

from sns.core.errors import NotFound
from sns.models import User
from sns.selectors import Page


def ai_users_list(*, page: Page, after: int | None = None) -> list[User]:
    """AI users that are not frozen, by id; `after` is an ascending cursor."""
    qs = User.objects.filter(ai_model__isnull=False, is_frozen=False)
    if after is not None:
        qs = qs.filter(id__gt=after)
    qs = qs.order_by("-id" if page.descending else "id")
    return list(qs[page.offset : page.offset + page.limit])


def ai_user_get(user_id: int) -> User:
    """An AI user, frozen or not; anyone else is `not found`."""
    user = User.objects.filter(pk=user_id, ai_model__isnull=False).first()
    if user is None:
        raise NotFound("not found")
    return user
