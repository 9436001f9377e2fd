"""GET /users/friends/by-nickname-prefix: people whose nickname starts with a prefix,
the focus user first, then the users they follow, then everyone else, each group by
lower-cased nickname then id (the original's order; a mention box's completion list)."""

from __future__ import annotations

from django.db.models.functions import Lower

from sns.models import Follow, User
from sns.selectors import Page, user_queryset


def friends_by_nickname_prefix(
    *, focus_user_id: int, prefix: str, page: Page, omit_self: bool = False, omit_others: bool = False
) -> list[User]:
    wanted = page.end
    matching = User.objects.annotate(nkey=Lower("nickname")).filter(nkey__startswith=prefix.strip().lower())
    followed = Follow.objects.filter(follower_id=focus_user_id).values("followee_id")
    ordered_ids: list[int] = []
    if not omit_self:
        ordered_ids += matching.filter(pk=focus_user_id).values_list("id", flat=True)
    ordered_ids += (
        matching.filter(pk__in=followed)
        .exclude(pk=focus_user_id)
        .order_by("nkey", "id")
        .values_list("id", flat=True)[:wanted]
    )
    if not omit_others and len(ordered_ids) < wanted:
        ordered_ids += (
            matching.exclude(pk=focus_user_id)
            .exclude(pk__in=followed)
            .order_by("nkey", "id")
            .values_list("id", flat=True)[: wanted - len(ordered_ids)]
        )
    page_ids = ordered_ids[page.offset : page.offset + page.limit]
    users = {u.id: u for u in user_queryset().filter(id__in=page_ids)}
    return [users[i] for i in page_ids if i in users]
