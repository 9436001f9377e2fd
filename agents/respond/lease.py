"""The respond lease: at most one respond run of an AI user at a time.

It sits on the user's AgentState row beside the cycle's lease and is independent of
it (a respond run never waits for a cycle). Claimed by a conditional UPDATE; it expires
on its own, so a worker that dies mid-run never locks the user's answers out.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from agents.cycle.schedule import next_interval
from agents.models import AgentState


def respond_lease_claim(user_id: int, run_id: int) -> bool:
    now = timezone.now()
    until = now + timedelta(seconds=settings.STGY_RESPOND_LEASE_SECONDS)
    free = Q(respond_lease_until__isnull=True) | Q(respond_lease_until__lt=now)
    if AgentState.objects.filter(free, user_id=user_id).update(
        respond_lease_until=until, respond_lease_run=run_id
    ):
        return True
    # No schedule row yet: create one as the dispatcher would (first cycle soon, spread
    # over a twentieth of an interval), holding the lease.
    _, created = AgentState.objects.get_or_create(
        user_id=user_id,
        defaults={
            "next_run_at": now + random.uniform(0, 1) * next_interval() * 0.05,
            "respond_lease_until": until,
            "respond_lease_run": run_id,
        },
    )
    return created


def respond_lease_held(user_id: int) -> bool:
    """A cheap look before a run record is made for nothing; the claim decides."""
    return AgentState.objects.filter(user_id=user_id, respond_lease_until__gte=timezone.now()).exists()


def respond_lease_release(user_id: int, run_id: int) -> None:
    AgentState.objects.filter(user_id=user_id, respond_lease_run=run_id).update(
        respond_lease_until=None, respond_lease_run=None
    )
