"""What the model calls cost, read from the usage rows (one per gateway call,
agents/llm/usage.py), summed in the database: per UTC day for the site or one AI user,
per AI user over the same days (the dearest, and the median AI user's cost a day), and
per task and model (which model did what). The Agent activity page draws them
(agents/web/usage_chart.py); a fixed number of queries whatever the number of rows or users."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

from django.db.models import Count, Min, Q, Sum
from django.db.models.functions import TruncDate

from agents.budget import utc_day_start
from agents.models import LlmUsage

DAYS = 14
TOP_USERS = 20


@dataclass(frozen=True)
class DayUsage:
    day: date
    calls: int = 0
    prompt_tokens: int = 0
    cached_tokens: int = 0
    completion_tokens: int = 0
    cost: Decimal = Decimal(0)

    @property
    def fresh_tokens(self) -> int:
        """Prompt tokens billed at the full input price."""
        return max(0, self.prompt_tokens - self.cached_tokens)

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True)
class UserUsage:
    user_id: int
    nickname: str
    hex_id: str
    calls: int
    prompt_tokens: int
    cached_tokens: int
    completion_tokens: int
    cost: Decimal
    cost_today: Decimal
    days: int  # since its first call in the window, today included

    @property
    def cost_per_day(self) -> Decimal:
        return (self.cost / self.days).quantize(Decimal("0.000001")) if self.days else Decimal(0)

    @property
    def cached_percent(self) -> int:
        return round(100 * self.cached_tokens / self.prompt_tokens) if self.prompt_tokens else 0


def _sums():
    return {
        "calls": Count("id"),
        "prompt": Sum("prompt_tokens"),
        "cached": Sum("cached_tokens"),
        "completion": Sum("completion_tokens"),
        "total_cost": Sum("cost"),
    }


def window_start(days: int = DAYS, now: datetime | None = None) -> datetime:
    """00:00 UTC of the first of the last `days` days, today included."""
    return utc_day_start(now) - timedelta(days=days - 1)


def usage_by_day(*, user_id: int | None = None, days: int = DAYS, now: datetime | None = None) -> list[DayUsage]:
    """One entry per UTC day of the last `days` (oldest first, days without calls as
    zeros), for the whole site or one user. One query."""
    start = window_start(days, now)
    rows = LlmUsage.objects.filter(created_at__gte=start)
    if user_id is not None:
        rows = rows.filter(user_id=user_id)
    found = {
        row["day"]: row
        for row in rows.annotate(day=TruncDate("created_at", tzinfo=timezone.utc))
        .values("day")
        .annotate(**_sums())
        .order_by()
    }
    result = []
    for offset in range(days):
        day = (start + timedelta(days=offset)).date()
        row = found.get(day)
        if row is None:
            result.append(DayUsage(day=day))
            continue
        result.append(DayUsage(
            day=day, calls=row["calls"], prompt_tokens=row["prompt"] or 0, cached_tokens=row["cached"] or 0,
            completion_tokens=row["completion"] or 0, cost=row["total_cost"] or Decimal(0),
        ))
    return result


def usage_by_user(
    *, days: int = DAYS, limit: int = TOP_USERS, now: datetime | None = None, user_ids: list[int] | None = None
) -> list[UserUsage]:
    """The AI users that cost most over the last `days` (then most tokens): totals,
    today's cost, and the days since each one's first call in the window, for the cost
    per day (a count of distinct days would make PostgreSQL sort every row: ≈ 3× the
    time at 640k rows). One query."""
    from sns.core.ids import id_to_hex

    start = window_start(days, now)
    today = utc_day_start(now)
    rows = LlmUsage.objects.filter(created_at__gte=start, user__ai_model__isnull=False)
    if user_ids is not None:
        rows = rows.filter(user_id__in=user_ids)
    rows = (
        rows.values("user_id", "user__nickname")
        .annotate(
            **_sums(),
            cost_today=Sum("cost", filter=Q(created_at__gte=today)),
            first_call=Min("created_at"),
        )
        .order_by("-total_cost", "-prompt", "user_id")[:limit]
    )
    return [
        UserUsage(
            user_id=row["user_id"], nickname=row["user__nickname"], hex_id=id_to_hex(row["user_id"]),
            calls=row["calls"], prompt_tokens=row["prompt"] or 0, cached_tokens=row["cached"] or 0,
            completion_tokens=row["completion"] or 0, cost=row["total_cost"] or Decimal(0),
            cost_today=row["cost_today"] or Decimal(0),
            days=max(1, (today.date() - row["first_call"].astimezone(timezone.utc).date()).days + 1),
        )
        for row in rows
    ]


@dataclass(frozen=True)
class TaskModelUsage:
    task: str
    model: str
    calls: int
    prompt_tokens: int
    completion_tokens: int
    cost: Decimal


def usage_by_task_model(
    *, user_id: int | None = None, days: int = DAYS, now: datetime | None = None
) -> list[TaskModelUsage]:
    """Which model did what: calls, tokens and cost per task and model over the last
    `days`, dearest first. One query."""
    rows = LlmUsage.objects.filter(created_at__gte=window_start(days, now))
    if user_id is not None:
        rows = rows.filter(user_id=user_id)
    found = rows.values("task", "model").annotate(**_sums()).order_by("-total_cost", "-prompt", "task", "model")
    return [
        TaskModelUsage(
            task=row["task"] or "—", model=row["model"], calls=row["calls"], prompt_tokens=row["prompt"] or 0,
            completion_tokens=row["completion"] or 0, cost=row["total_cost"] or Decimal(0),
        )
        for row in found
    ]


@dataclass(frozen=True)
class DailyCost:
    """What AI users cost a day over the window: the median AI user's and the dearest ten."""

    users: int
    median: Decimal
    top: list[UserUsage]


def ai_user_daily_cost(*, days: int = DAYS, top: int = 10, now: datetime | None = None) -> DailyCost:
    """Each AI user's cost per day over the last `days` (its total over the days since
    its first call in the window, as `UserUsage.cost_per_day`): the median and the top
    `top`. One query for every AI user's total, then the top ones' rows."""
    from statistics import median

    start = window_start(days, now)
    today = utc_day_start(now)
    per_day: dict[int, Decimal] = {}
    rows = (
        LlmUsage.objects.filter(created_at__gte=start, user__ai_model__isnull=False)
        .values("user_id")
        .annotate(total_cost=Sum("cost"), first_call=Min("created_at"))
        .order_by()
    )
    for row in rows:
        spanned = max(1, (today.date() - row["first_call"].astimezone(timezone.utc).date()).days + 1)
        per_day[row["user_id"]] = ((row["total_cost"] or Decimal(0)) / spanned).quantize(Decimal("0.000001"))
    if not per_day:
        return DailyCost(users=0, median=Decimal(0), top=[])
    dearest = sorted(per_day, key=lambda uid: (-per_day[uid], uid))[:top]
    by_id = {u.user_id: u for u in usage_by_user(days=days, limit=len(per_day), now=now, user_ids=dearest)}
    return DailyCost(
        users=len(per_day),
        median=Decimal(median(per_day.values())).quantize(Decimal("0.000001")),
        top=[by_id[uid] for uid in dearest if uid in by_id],
    )
