"""Plain factory functions for the test cast; they go through the services where a
rule applies, so tests exercise the same paths as the app."""

from __future__ import annotations

import itertools

from django.test import TestCase

from sns import services
from sns.models import User

_counter = itertools.count(1)
PASSWORD = "correct-horse-battery"


def make_user(nickname: str | None = None, **fields) -> User:
    n = next(_counter)
    nickname = nickname or f"user{n}"
    email = fields.pop("email", f"{nickname.lower().replace(' ', '')}{n}@example.com")
    return User.objects.create_user(email=email, password=PASSWORD, nickname=nickname, **fields)


def make_ai_user(nickname: str | None = None, tier: str = "balanced", personality: str = "", **fields) -> User:
    return make_user(
        nickname or f"ai{next(_counter)}",
        ai_model=tier,
        ai_personality=personality or "A curious reader who likes databases and cooking.",
        **fields,
    )


def make_post(owner: User, content: str = "Hello world", tags=None, **fields):
    """Create a post and run its after-commit work (summary, notifications) as a real
    commit would, even inside a test's transaction."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return services.post_create(owner, content=content, tags=tags or [], **fields)
