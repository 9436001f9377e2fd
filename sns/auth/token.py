"""Who is asking, from a personal access token (docs/api.md, "Personal access tokens").

A request with `Authorization: Bearer stgy_pat_…` acts as the token's user: the user is
built from the same auth record a session's is (sns/auth/session.py), so the flags a
service checks (admin, frozen) are the current ones, and every rule, throttle and block
applies through the services as for a session. The token itself is looked up by the
sha256 of the secret; with `STGY_AUTH_RECORD_TTL` > 0 the lookup is kept in the shared
cache under the auth-record prefix, so a revocation deletes it at once and again after
commit, and a delete Redis missed is kept as a tombstone like a session's
(sns/auth/tombstones.py): a revoked token answers 401 on its next request.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from ..models import User
from ..models.tokens import AccessToken, TokenScope
from .session import AUTH_RECORD_PREFIX, auth_record, record_key_forget, recorded_user

# Recognisable by secret scanners and by the log filter (stgy/log_filters.py).
TOKEN_PREFIX = "stgy_pat_"


class TokenGrant(NamedTuple):
    token_id: int
    user_id: int
    can_write: bool


def token_secret_new() -> str:
    """256 random bits after the prefix."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _key(digest: str) -> str:
    return f"{AUTH_RECORD_PREFIX}token:{digest}"


def token_grant_forget(digest: str) -> None:
    """Called by the services that revoke a token."""
    record_key_forget(_key(digest))


def token_grant(secret: str) -> TokenGrant | None:
    """The token's grant, or None when no token has this secret (no longer)."""
    if not secret.startswith(TOKEN_PREFIX) or len(secret) > 200:
        return None
    digest = token_digest(secret)
    ttl = settings.STGY_AUTH_RECORD_TTL
    if ttl > 0:
        cached = cache.get(_key(digest))
        if cached is not None:
            return TokenGrant(*cached)
    row = AccessToken.objects.filter(digest=digest).values_list("id", "user_id", "scope").first()
    if row is None:
        return None  # not cached: a token made later must not meet a stale "no"
    grant = TokenGrant(row[0], row[1], row[2] == TokenScope.WRITE)
    if ttl > 0:
        cache.set(_key(digest), tuple(grant), ttl)
    return grant


def token_used(token_id: int) -> None:
    """Record the token's use, at most once per STGY_TOKEN_LAST_USED_STEP seconds (per
    the shared cache; per process without Redis) rather than an UPDATE per request."""
    step = settings.STGY_TOKEN_LAST_USED_STEP
    if step > 0 and not cache.add(f"token-used:{token_id}", 1, step):
        return
    AccessToken.objects.filter(pk=token_id).update(last_used_at=timezone.now())


def token_user(secret: str) -> tuple[User, TokenGrant] | None:
    """The token's user (a `User` with the recorded columns loaded, as a session's) and
    its grant, or None for an unknown or revoked token or a deleted user."""
    grant = token_grant(secret)
    if grant is None:
        return None
    record, latest_term = auth_record(grant.user_id)
    if record is None:
        return None
    token_used(grant.token_id)
    return recorded_user(grant.user_id, record, latest_term), grant
