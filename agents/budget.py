"""Daily budgets in tokens and in money, enforced from the usage rows of the current UTC day.

STGY_AI_SITE_DAILY_TOKEN_BUDGET and STGY_AI_SITE_DAILY_BUDGET (money) bound the whole
site, STGY_AI_USER_DAILY_TOKEN_BUDGET and STGY_AI_USER_DAILY_BUDGET each user (AI users
in their cycles, humans through /ai-users/chat); 0 = unlimited. Money is the usage rows'
`cost` (agents/llm/usage.py, the default price sheet unless STGY_AI_PRICES says
otherwise). When a real provider (`openai`) is configured and no site budget at all is
set — STGY_AI_SITE_DAILY_BUDGET left empty, no token budget — the site gets
STGY_AI_DEFAULT_SITE_DAILY_BUDGET a day, so a forgotten setting never means an
unbounded bill; the activity page and `manage.py llmcheck` say so (`budget_status`).
Setting STGY_AI_SITE_DAILY_BUDGET=0 is the explicit "no ceiling".

The gateway checks before every call; the cycle dispatcher pauses the fleet at the
site's ceiling (agents/cycle/pause.py) and skips users over theirs. Between the check
and the row being written other calls may finish, so a budget can be overshot by the
calls in flight — a soft limit, which is what a daily budget needs.

Tokens a provider served from its prompt cache count at STGY_AI_BUDGET_CACHED_TOKEN_WEIGHT
(default 0.1, what such a token costs against a fresh one at the common providers), so
the long shared prefix of every prompt (docs/prompts.md §2) does not use a token budget
up faster than it costs money.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, time, timezone
from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.db.models import F, FloatField, Sum
from django.db.models.functions import Cast
from django.utils import timezone as dj_timezone

from agents.models import LlmUsage

log = logging.getLogger(__name__)
_CENTS = Decimal("0.01")


def utc_day_start(now: datetime | None = None) -> datetime:
    now = (now or dj_timezone.now()).astimezone(timezone.utc)
    return datetime.combine(now.date(), time.min, tzinfo=timezone.utc)


def budget_tokens_sum() -> Sum:
    """The aggregate a budget is counted in: completion and uncached prompt tokens in full,
    cached prompt tokens at their weight."""
    weight = float(settings.STGY_AI_BUDGET_CACHED_TOKEN_WEIGHT)
    fresh = F("prompt_tokens") - F("cached_tokens") + F("completion_tokens")
    return Sum(Cast(fresh, FloatField()) + Cast(F("cached_tokens"), FloatField()) * weight)


def _today(user_id: int | None):
    rows = LlmUsage.objects.filter(created_at__gte=utc_day_start())
    return rows if user_id is None else rows.filter(user_id=user_id)


def used_today(*, user_id: int | None = None) -> tuple[int, Decimal]:
    """Budget tokens and money recorded since 00:00 UTC (site-wide, or for one user). One query."""
    found = _today(user_id).aggregate(t=budget_tokens_sum(), c=Sum("cost"))
    return round(found["t"] or 0), found["c"] or Decimal(0)


def tokens_used_today(*, user_id: int | None = None) -> int:
    return used_today(user_id=user_id)[0]


def _money(raw, name: str) -> Decimal | None:
    """A money setting: None when empty, else a non-negative amount (0 = unlimited)."""
    text = str(raw if raw is not None else "").strip()
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        log.warning("ignoring %s=%r: not an amount", name, text)
        return None
    return max(value, Decimal(0))


def real_provider() -> bool:
    """A provider that bills: the offline stand-in and `none` cost nothing."""
    return (settings.STGY_AI_PROVIDER or "none").strip().lower() == "openai"


@dataclass(frozen=True)
class SiteBudget:
    tokens: int  # 0 = none
    money: Decimal  # 0 = none
    default: (
        bool  # the money budget is STGY_AI_DEFAULT_SITE_DAILY_BUDGET, applied because none was set
    )


def site_budget() -> SiteBudget:
    tokens = int(settings.STGY_AI_SITE_DAILY_TOKEN_BUDGET or 0)
    money = _money(settings.STGY_AI_SITE_DAILY_BUDGET, "STGY_AI_SITE_DAILY_BUDGET")
    if money is None:
        if real_provider() and tokens <= 0:
            default = _money(
                settings.STGY_AI_DEFAULT_SITE_DAILY_BUDGET, "STGY_AI_DEFAULT_SITE_DAILY_BUDGET"
            )
            return SiteBudget(tokens=0, money=default or Decimal(0), default=bool(default))
        money = Decimal(0)
    return SiteBudget(tokens=max(tokens, 0), money=money, default=False)


def user_money_budget() -> Decimal:
    return _money(settings.STGY_AI_USER_DAILY_BUDGET, "STGY_AI_USER_DAILY_BUDGET") or Decimal(0)


def budget_exceeded(
    tokens: int, cost: Decimal, token_budget: int, money_budget: Decimal, whose: str
) -> str | None:
    """Why `tokens` and `cost` used today are over the budgets (0 = none), or None."""
    if token_budget > 0 and tokens >= token_budget:
        return f"{whose} daily token budget exceeded ({token_budget} tokens)"
    if money_budget > 0 and cost >= money_budget:
        return f"{whose} daily budget exceeded ({money_budget.quantize(_CENTS)} spent)"
    return None


def site_budget_refusal() -> str | None:
    """Why the site may make no more calls today, or None."""
    budget = site_budget()
    if budget.tokens <= 0 and budget.money <= 0:
        return None
    return budget_exceeded(*used_today(), budget.tokens, budget.money, "site")


def budget_refusal(*, user_id: int | None = None) -> str | None:
    """Why a call must be refused now, or None if it may go ahead."""
    refusal = site_budget_refusal()
    if refusal is not None or user_id is None:
        return refusal
    token_budget = int(settings.STGY_AI_USER_DAILY_TOKEN_BUDGET or 0)
    money_budget = user_money_budget()
    if token_budget <= 0 and money_budget <= 0:
        return None
    return budget_exceeded(*used_today(user_id=user_id), token_budget, money_budget, "user")


def user_over_budget(user_id: int) -> bool:
    """For the dispatcher: should this user's cycle wait for tomorrow?"""
    return budget_refusal(user_id=user_id) is not None


def budget_status() -> dict:
    """Today's use against the budgets, and the warnings an operator must see (the
    activity page, `manage.py llmcheck`)."""
    from agents.llm.usage import unpriced_models

    budget = site_budget()
    tokens, cost = used_today()
    warnings = []
    if budget.default:
        warnings.append(
            f"no AI budget is set: the default site budget of {budget.money} a day applies "
            "(set STGY_AI_SITE_DAILY_BUDGET, or 0 for none)"
        )
    elif real_provider() and budget.tokens <= 0 and budget.money <= 0:
        warnings.append(
            "no AI budget: STGY_AI_SITE_DAILY_BUDGET=0 and no token budget, spending is unbounded"
        )
    unpriced = unpriced_models() if real_provider() else []
    if unpriced:
        warnings.append(
            f"no price for {', '.join(unpriced)}: their calls cost 0 here and money budgets do not see them "
            "(set STGY_AI_PRICES)"
        )
    return {
        "tokens_today": tokens,
        "cost_today": cost,
        "site_token_budget": budget.tokens,
        "site_budget": budget.money,
        "site_budget_is_default": budget.default,
        "user_token_budget": int(settings.STGY_AI_USER_DAILY_TOKEN_BUDGET or 0),
        "user_budget": user_money_budget(),
        "warnings": warnings,
    }
