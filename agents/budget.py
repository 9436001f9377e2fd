"""Daily token budgets, enforced from the usage rows of the current UTC day.

STGY_AI_SITE_DAILY_TOKEN_BUDGET bounds the whole site, STGY_AI_USER_DAILY_TOKEN_BUDGET
each user (AI users in their cycles, humans through /ai-users/chat); 0 = unlimited.
The gateway checks before every call; the cycle dispatcher can skip users over budget.
Between the check and the row being written other calls may finish, so a budget can be
overshot by the calls in flight — a soft limit, which is what a daily budget needs.
"""

from __future__ import annotations

from datetime import datetime, time, timezone

from django.conf import settings
from django.db.models import Sum
from django.utils import timezone as dj_timezone

from agents.models import LlmUsage


def utc_day_start(now: datetime | None = None) -> datetime:
    now = (now or dj_timezone.now()).astimezone(timezone.utc)
    return datetime.combine(now.date(), time.min, tzinfo=timezone.utc)


def tokens_used_today(*, user_id: int | None = None) -> int:
    """Prompt + completion tokens recorded since 00:00 UTC (site-wide, or for one user)."""
    rows = LlmUsage.objects.filter(created_at__gte=utc_day_start())
    if user_id is not None:
        rows = rows.filter(user_id=user_id)
    totals = rows.aggregate(p=Sum("prompt_tokens"), c=Sum("completion_tokens"))
    return (totals["p"] or 0) + (totals["c"] or 0)


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
