"""Daily token budgets, enforced from the usage rows of the current UTC day.

STGY_AI_SITE_DAILY_TOKEN_BUDGET bounds the whole site, STGY_AI_USER_DAILY_TOKEN_BUDGET
each user (AI users in their cycles, humans through /ai-users/chat); 0 = unlimited.
The gateway checks before every call; the cycle dispatcher can skip users over budget.
Between the check and the row being written other calls may finish, so a budget can be
overshot by the calls in flight — a soft limit, which is what a daily budget needs.

Tokens a provider served from its prompt cache count at STGY_AI_BUDGET_CACHED_TOKEN_WEIGHT
(default 0.1, what such a token costs against a fresh one at the common providers), so
the long shared prefix of every prompt (docs/prompts.md §2) does not use a budget up
faster than it costs money.
"""

from __future__ import annotations

from datetime import datetime, time, timezone

from django.conf import settings
from django.db.models import F, FloatField, Sum
from django.db.models.functions import Cast
from django.utils import timezone as dj_timezone

from agents.models import LlmUsage


def utc_day_start(now: datetime | None = None) -> datetime:
    now = (now or dj_timezone.now()).astimezone(timezone.utc)
    return datetime.combine(now.date(), time.min, tzinfo=timezone.utc)


def budget_tokens_sum() -> Sum:
    """The aggregate a budget is counted in: completion and uncached prompt tokens in full,
    cached prompt tokens at their weight."""
    weight = float(settings.STGY_AI_BUDGET_CACHED_TOKEN_WEIGHT)
    fresh = F("prompt_tokens") - F("cached_tokens") + F("completion_tokens")
    return Sum(Cast(fresh, FloatField()) + Cast(F("cached_tokens"), FloatField()) * weight)


def tokens_used_today(*, user_id: int | None = None) -> int:
    """Budget tokens recorded since 00:00 UTC (site-wide, or for one user)."""
    rows = LlmUsage.objects.filter(created_at__gte=utc_day_start())
    if user_id is not None:
        rows = rows.filter(user_id=user_id)
    return round(rows.aggregate(t=budget_tokens_sum())["t"] or 0)


def budget_refusal(*, user_id: int | None = None) -> str | None:
    """Why a call must be refused now, or None if it may go ahead."""
    site_budget = int(settings.STGY_AI_SITE_DAILY_TOKEN_BUDGET or 0)
    if site_budget > 0 and tokens_used_today() >= site_budget:
        return f"site daily token budget exceeded ({site_budget} tokens)"
    user_budget = int(settings.STGY_AI_USER_DAILY_TOKEN_BUDGET or 0)
    if user_id is not None and user_budget > 0 and tokens_used_today(user_id=user_id) >= user_budget:
        return f"user daily token budget exceeded ({user_budget} tokens)"
    return None


def user_over_budget(user_id: int) -> bool:
    """For the dispatcher: should this user's cycle wait for tomorrow?"""
    return budget_refusal(user_id=user_id) is not None
