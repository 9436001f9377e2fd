"""Pausing the dispatcher while the model is down.

Starting cycles against a dead model only turns every stage into a failure and every
AI user's turn into a wasted one. While the circuit breaker is open the dispatcher
starts nothing and leaves the due users due, so they run as soon as it closes. Once its
cool-down is over, `gateway.model_ready()` makes the probe call itself, so the cycles
resume without waiting for some other call to close the breaker.
"""

from __future__ import annotations

import logging

from django.utils import timezone

from agents.llm import gateway
from agents.llm.breaker import state_store

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
