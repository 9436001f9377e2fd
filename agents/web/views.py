"""Admin-only pages: the AI users' activity (run records) and one run in detail."""

from __future__ import annotations

from collections import Counter

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from agents.budget import tokens_used_today
from agents.cycle import STAGES
from agents.llm import gateway
from agents.memory_history import interests_drifted
from agents.models import CycleRun, LlmUsage
from agents.respond.run import STAGE as RESPOND_STAGE
from agents.usage_report import usage_by_day, usage_by_user
from sns.errors import InvalidInput
from sns.ids import parse_id
from sns.models import User

from .names import names_for
from .usage_chart import usage_panels, usage_summary

RUNS_PER_PAGE = 25


def _admin_only(request) -> None:
    if not request.user.is_admin:
        raise PermissionDenied("admin only")


@login_required
def activity(request):
    _admin_only(request)
    runs = CycleRun.objects.select_related("user").order_by("-started_at", "-id")
    selected = None
    raw_user = request.GET.get("user", "").strip()
    if raw_user:
        try:
            selected = User.objects.filter(pk=parse_id(raw_user), ai_model__isnull=False).first()
        except InvalidInput:
            selected = None
        runs = runs.filter(user=selected) if selected else runs.none()
    page = Paginator(runs, RUNS_PER_PAGE).get_page(request.GET.get("page"))
    rows = [_activity_row(run) for run in page]
    names = names_for(*[{"newPost": row["details"].get("newPost")} for row in rows])
    ai_users = User.objects.filter(ai_model__isnull=False).order_by("nickname")
    return render(
        request,
        "agents/activity.html",
        {
            "page": page,
            "rows": rows,
            "ai_users": ai_users,
            "selected": selected,
            "stage_names": STAGES,
            "names": names,
            "llm": _llm_status(),
            "usage": _usage(selected),
            "drifted": interests_drifted(),
            "drift_flag": settings.STGY_AI_INTEREST_DRIFT_FLAG,
        },
    )


def _usage(selected: User | None) -> dict:
    """The last days of model use, for the chart: one AI user's when one is selected,
    else the site's with the AI users that cost most."""
    days = usage_by_day(user_id=selected.id if selected else None)
    return {
        "days": days,
        "panels": usage_panels(days),
        "summary": usage_summary(days),
        "users": None if selected else usage_by_user(),
    }


def _stage_names(run: CycleRun) -> tuple[str, ...]:
    return (RESPOND_STAGE,) if run.kind == CycleRun.Kind.RESPOND else STAGES


def _activity_row(run: CycleRun) -> dict:
    row = {
        "run": run,
        "stages": [(name, (run.stages.get(name) or {}).get("outcome", "—")) for name in _stage_names(run)],
        "details": run.details or {},
    }
    if run.kind == CycleRun.Kind.RESPOND:
        results = Counter(e.get("result", "?") for e in row["details"].get("events", []))
        parts = ", ".join(f"{n} {result}" for result, n in sorted(results.items()))
        row["summary"] = f"{sum(results.values())} events" + (f": {parts}" if parts else "")
    return row


def _llm_status() -> dict:
    """Provider, tier models, the last real health check and today's token use."""
    return {
        "provider": gateway.provider_name(),
        "enabled": gateway.ai_enabled(),
        "tiers": gateway.tiers(),
        "health": gateway.last_health(),
        "breaker": gateway.breaker_state(),
        "tokens_today": tokens_used_today(),
        "site_budget": settings.STGY_AI_SITE_DAILY_TOKEN_BUDGET,
        "user_budget": settings.STGY_AI_USER_DAILY_TOKEN_BUDGET,
    }


@login_required
@require_POST
def llm_check(request):
    """Generate one real token through the configured provider (the llmcheck command)."""
    _admin_only(request)
    result = gateway.health_check()
    if result["ok"]:
        messages.success(request, f"LLM answered: {result['provider']} / {result['model']} in {result['latency_ms']} ms")
    else:
        messages.error(request, f"LLM check failed ({result['provider']}): {result['error']}")
    return redirect("agents:activity")


@login_required
def run_detail(request, run_id: int):
    _admin_only(request)
    run = get_object_or_404(CycleRun.objects.select_related("user"), pk=run_id)
    stages = [(name, run.stages.get(name)) for name in _stage_names(run)]
    usages = LlmUsage.objects.filter(run=run).order_by("created_at", "id")
    details = run.details or {}
    return render(
        request,
        "agents/run_detail.html",
        {
            "run": run,
            "stages": stages,
            "usages": usages,
            "details": details,
            "candidates": details.get("candidates", [])[:100],
            "names": names_for(details),
        },
    )
