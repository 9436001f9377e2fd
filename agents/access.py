"""Who may call the AI services through the API (docs/api.md §6): the checks the chat,
features and interest routes share, so their rule and its message are written once."""

from __future__ import annotations

from agents.llm import gateway
from sns.core.errors import Forbidden, InvalidInput


def access_ai_model(user) -> None:
    """An admin, or a user with a model tier of their own."""
    if not user.is_admin and not user.ai_model:
        raise Forbidden("no model configured for this user")


def chat_tier(user, requested: str) -> str:
    """Whose tier a proxied chat uses: an admin may name one, everyone else uses their own."""
    if user.is_admin:
        if requested:
            if requested not in gateway.TIERS:
                raise InvalidInput("no such model")
            return requested
        if not user.ai_model:
            raise InvalidInput("model is required")
        return user.ai_model
    if requested:
        raise Forbidden("model override not allowed")
    access_ai_model(user)
    return user.ai_model
