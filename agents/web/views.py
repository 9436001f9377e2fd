"""Admin-only pages: the AI users' activity (run records) and one run in detail."""

from __future__ import annotations

from collections import Counter

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from agents.budget import budget_status
from agents.cycle import STAGES
from agents.llm import gateway
from agents.llm.batch import batch_enabled
from agents.llm.task_tiers import JUDGING_TASKS, task_tiers
from agents.memory_history import interests_drifted
from agents.models import AgentState, CycleRun, FleetPause, LlmBatch, LlmUsage
from agents.respond.run import STAGE as RESPOND_STAGE
from agents.usage_report import ai_user_daily_cost, usage_by_day, usage_by_task_model, usage_by_user
from sns.core.errors import InvalidInput
from sns.core.ids import parse_id
from sns.models import User

from .call_traces import run_call_traces
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
            "own_tier_only": _own_tier_only(selected),
            "drifted": interests_drifted(),
            "drift_flag": settings.STGY_AI_INTEREST_DRIFT_FLAG,
        },
    )


def _own_tier_only(selected: User | None) -> bool | None:
    if selected is None:
        return None
    return AgentState.objects.filter(user=selected, own_tier_only=True).exists()


@login_required
@require_POST
def own_tier_pin(request, user_hex: str):
    """Pin an AI user to its own tier for every task, or unpin it (agents/llm/task_tiers.py)."""
    _admin_only(request)
    try:
        user_id = parse_id(user_hex)
    except InvalidInput as exc:
        raise Http404("no such AI user") from exc
    user = get_object_or_404(User, pk=user_id, ai_model__isnull=False)
    pinned = request.POST.get("own_tier_only") == "1"
    # A new schedule row is due now, as the dispatcher would have made it.
    AgentState.objects.update_or_create(
        user=user, defaults={"own_tier_only": pinned}, create_defaults={"own_tier_only": pinned, "next_run_at": timezone.now()}
    )
    what = "its own tier for every task" if pinned else "the cascade (judging on the judging tier)"
    messages.success(request, f"{user.nickname} now runs on {what}, from its next cycle")
    return redirect(f"{reverse('agents:activity')}?user={user.hex_id}")


def _usage(selected: User | None) -> dict:
    """The last days of model use, for the chart: one AI user's when one is selected,
    else the site's with the AI users that cost most."""
    days = usage_by_day(user_id=selected.id if selected else None)
    return {
        "days": days,
        "panels": usage_panels(days),
        "summary": usage_summary(days),
        "users": None if selected else usage_by_user(),
        "by_task_model": usage_by_task_model(user_id=selected.id if selected else None),
        "daily_cost": None if selected else ai_user_daily_cost(),
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
    """Provider, tier models and the task → tier map, the last real health check, today's
    use against the budgets (with their warnings) and the budget pauses of the fleet."""
    tiers = task_tiers()
    return {
        "provider": gateway.provider_name(),
        # The stand-in has no models and spends nothing: its page says so rather than
        # show tier → model names that are not called and a budget that is not used.
        "offline": gateway.provider_name() == "offline",
        "cached_weight": settings.STGY_AI_BUDGET_CACHED_TOKEN_WEIGHT,
        "enabled": gateway.ai_enabled(),
        "tiers": gateway.tiers(),
        "judging": JUDGING_TASKS,
        "judging_tier": settings.STGY_AI_JUDGING_TIER,
        "task_tiers": sorted(tiers.items()),
        "health": gateway.last_health(),
        "breaker": gateway.breaker_state(),
        "budget": budget_status(),
        "pauses": list(FleetPause.objects.order_by("-day")[:5]),
        "batch": _batch_status(),
    }


def _batch_status() -> dict | None:
    """Batch mode (agents/llm/batch.py): the summary batches under way and the last one ended."""
    if not batch_enabled():
        return None
    return {
        "under_way": LlmBatch.objects.filter(status=LlmBatch.Status.SUBMITTED).count(),
        "last": LlmBatch.objects.exclude(status=LlmBatch.Status.SUBMITTED).order_by("-finished_at").first(),
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
            "traces": run_call_traces(run),
        },
    )
