"""A person's personal access tokens (docs/api.md, "Personal access tokens")."""

from __future__ import annotations

from ..models import User
from ..models.tokens import AccessToken
from ..reads.access import access_user_self_or_admin


def user_tokens(actor: User, user_id: int) -> list[AccessToken]:
    """The user's tokens, newest first: the user themself or an admin."""
    access_user_self_or_admin(actor, user_id)
    return list(AccessToken.objects.filter(user_id=user_id).order_by("-id"))
