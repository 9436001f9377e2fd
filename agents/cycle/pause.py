"""Pausing the dispatcher while the model is down, and while the site's budget is used up.

Starting cycles against a dead model only turns every stage into a failure and every
AI user's turn into a wasted one. While the circuit breaker is open the dispatcher
starts nothing and leaves the due users due, so they run as soon as it closes. Once its
cool-down is over, `gateway.model_ready()` makes the probe call itself, so the cycles
resume without waiting for some other call to close the breaker.
"""

from __future__ import annotations

import logging

from django.utils import timezone

from agents.budget import site_budget_refusal, utc_day_start
from agents.llm import gateway
from agents.llm.breaker import state_store
from agents.models import FleetPause

log = logging.getLogger(__name__)
PAUSED_KEY = "agents:cycle:dispatch-paused"


def dispatch_paused() -> bool:
    """True while no cycle may start; logs once when the pause begins and once when it ends
    (across processes, through the shared state)."""
    if gateway.model_ready():
        paused_since = state_store.get(PAUSED_KEY)
        if paused_since is not None:
            state_store.delete_many([PAUSED_KEY])
            log.warning(
                "AI cycles resumed: the ai service answers again (paused since %s)", paused_since
            )
        return False
    if state_store.add(PAUSED_KEY, timezone.now().isoformat()):
        state = gateway.breaker_state()
        log.warning(
            "AI cycles paused: the ai service is unavailable (circuit breaker %s until %s)",
            state["state"],
            state["open_until"],
        )
    return True


def budget_paused() -> bool:
    """True while the site's daily budget is used up (agents/budget.py): no cycle starts,
    and the due users stay due. The pause is recorded (FleetPause, one row a UTC day,
    shown on the activity page) and logged when it begins and when it ends — the next
    day, when the day's spending starts from zero, or sooner if the budget was raised."""
    refusal = site_budget_refusal()
    now = timezone.now()
    if refusal is None:
        ended = FleetPause.objects.filter(ended_at__isnull=True).update(ended_at=now)
        if ended:
            log.warning("AI cycles resumed: the site's daily budget allows calls again")
        return False
    pause, created = FleetPause.objects.get_or_create(
        day=utc_day_start(now).date(), defaults={"started_at": now, "reason": refusal[:200]}
    )
    if created or pause.ended_at is not None:
        if not created:  # the budget was raised, then used up again the same day
            FleetPause.objects.filter(pk=pause.pk).update(ended_at=None, reason=refusal[:200])
        log.warning("AI cycles paused until the next UTC day: %s", refusal)
    return True
