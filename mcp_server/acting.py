"""Who a tool call acts as: the personal access token's user, looked up again on every
call (sns/auth/token.py), so a revoked token, a freeze or a deleted account takes
effect on the next call. Over HTTP the token is the request's `Authorization: Bearer`
header; over stdio it is STGY_MCP_TOKEN, given to the process by the desktop assistant
that starts it. There is no other way in: no token, no user."""

from __future__ import annotations

from django.conf import settings
from mcp.server.mcpserver.exceptions import ToolError

from sns.auth.token import token_user
from sns.models import User


def bearer(headers) -> str | None:
    """The secret of an `Authorization: Bearer` header (a Starlette or plain mapping)."""
    value = (headers or {}).get("authorization") or ""
    scheme, _, secret = value.partition(" ")
    return secret.strip() if scheme.lower() == "bearer" and secret.strip() else None


def acting_user(headers, *, http: bool, write: bool = False) -> User:
    """The token's user; a ToolError when there is none or a write needs more scope."""
    secret = bearer(headers) if http else settings.STGY_MCP_TOKEN
    found = token_user(secret) if secret else None
    if found is None:
        raise ToolError("invalid token")
    user, grant = found
    if write and not grant.can_write:
        raise ToolError("read-only token")
    return user
