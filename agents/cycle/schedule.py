"""Who is due: the dispatcher's choice of AI users whose cycle starts now.

The lease that keeps one user's cycles from overlapping, and the loop interval, are
agents/runs/lease.py's.
"""

from __future__ import annotations

import random

from django.conf import settings
from django.db.models import Q, Sum
from django.utils import timezone

from agents.budget import budget_exceeded, budget_tokens_sum, user_money_budget, utc_day_start
from agents.models import AgentState, LlmUsage
from agents.runs.lease import next_interval
from sns.models import User


def users_over_budget(user_ids: list[int]) -> set[int]:
    """The users among `user_ids` over their daily budget (tokens or money), in one query."""
    tokens = int(settings.STGY_AI_USER_DAILY_TOKEN_BUDGET or 0)
    money = user_money_budget()
    if (tokens <= 0 and money <= 0) or not user_ids:
        return set()
    rows = (
        LlmUsage.objects.filter(created_at__gte=utc_day_start(), user_id__in=user_ids)
        .values("user_id")
        .annotate(t=budget_tokens_sum(), c=Sum("cost"))
    )
    return {
        row["user_id"]
        for row in rows
        if budget_exceeded(round(row["t"] or 0), row["c"] or 0, tokens, money, "user") is not None
    }


def ensure_states() -> None:
    """Give every active AI user a schedule row, first runs spread over one interval."""
    missing = User.objects.filter(ai_model__isnull=False, is_frozen=False, agent_state__isnull=True).values_list("id", flat=True)
    now = timezone.now()
    rows = [
        AgentState(user_id=uid, next_run_at=now + random.uniform(0, 1) * next_interval() * 0.05)
        for uid in missing
    ]
    AgentState.objects.bulk_create(rows, ignore_conflicts=True)


def due_user_ids(limit: int = 500) -> list[int]:
    """AI users to start now: active, due, not running, within budget; each one claimed
    by pushing its next run forward so the next dispatcher tick does not send it again.
    None while the model is down or the site's daily budget is used up: the users stay
    due until it answers again, or until the next day."""
    from agents.llm import gateway

    from .pause import budget_paused, dispatch_paused

    if not gateway.ai_enabled() or dispatch_paused() or budget_paused():
        return []
    ensure_states()
    now = timezone.now()
    candidates = list(
        AgentState.objects.filter(
            next_run_at__lte=now, user__ai_model__isnull=False, user__is_frozen=False
        )
        .filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
        .order_by("next_run_at")
        .values_list("user_id", "next_run_at")[:limit]
    )
    over = users_over_budget([uid for uid, _ in candidates])
    due = []
    for user_id, next_run_at in candidates:
        if user_id in over:
            continue
        claimed = AgentState.objects.filter(user_id=user_id, next_run_at=next_run_at).update(
            next_run_at=now + next_interval(), last_run_at=now
        )
        if claimed:
            due.append(user_id)
    return due
