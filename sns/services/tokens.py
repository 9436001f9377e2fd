"""Personal access tokens (docs/api.md, "Personal access tokens"): a person makes one for
themself, names it, picks its scope, sees its secret once; they or an admin revoke it.
Nobody makes a token for someone else — an admin acting as another user is a switch
(POST /auth/switch-user), made with the admin's session."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction

from ..auth.token import token_digest, token_grant_forget, token_secret_new
from ..core import throttle
from ..core.errors import Forbidden, InvalidInput, NotFound
from ..core.textguard import checked_text, strip_invisible
from ..models import User
from ..models.tokens import AccessToken, TokenScope
from ..reads.access import access_user_self_or_admin, access_writable

NAME_MAX_CHARS = 100  # the column's length


def _scope(scopes) -> str:
    if scopes is None:
        return TokenScope.READ
    if (
        not isinstance(scopes, list)
        or not scopes
        or not all(s in TokenScope.values for s in scopes)
    ):
        raise InvalidInput('scopes must be ["read"] or ["read", "write"]')
    return TokenScope.WRITE if TokenScope.WRITE in scopes else TokenScope.READ


def token_create(actor: User, user_id: int, *, name, scopes=None) -> tuple[AccessToken, str]:
    """The new token and its secret (the only time the secret exists outside the
    client). `scopes` absent means read only; "write" includes "read"."""
    if actor.id != user_id:
        raise Forbidden("forbidden")
    access_writable(actor)
    if name is None or (isinstance(name, str) and not name.strip()):
        raise InvalidInput("name is required")
    name = " ".join(strip_invisible(checked_text(name, "name", max_length=NAME_MAX_CHARS)).split())
    if not name:
        raise InvalidInput("name is required")
    scope = _scope(scopes)
    throttle.throttle_check(actor, throttle.USER_UPDATES)
    with transaction.atomic():
        # Counted under the user's row lock, so two requests cannot both take the last place.
        User.objects.select_for_update().filter(pk=actor.id).values_list("id").first()
        if AccessToken.objects.filter(user_id=actor.id).count() >= settings.STGY_TOKENS_PER_USER:
            raise InvalidInput("too many tokens")
        secret = token_secret_new()
        token = AccessToken.objects.create(
            user_id=actor.id, name=name, scope=scope, digest=token_digest(secret)
        )
    return token, secret


def token_revoke(actor: User, user_id: int, token_id: int) -> None:
    """The token stops working at once: its row goes, and so does its cached grant."""
    access_user_self_or_admin(actor, user_id)
    with transaction.atomic():
        token = AccessToken.objects.filter(pk=token_id, user_id=user_id).first()
        if token is None:
            raise NotFound("not found")
        token.delete()
        token_grant_forget(token.digest)
