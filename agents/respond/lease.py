"""The respond lease: at most one writer among an AI user's respond runs and its
cycle's writing stages (turn.py) at a time.

It sits on the user's AgentState row beside the cycle's lease, which is independent of
it (a cycle's reading stages never wait, and a respond run never waits at all).
Claimed by a conditional UPDATE; it expires on its own, so a worker that dies mid-run
never locks the user's answers out, and the same run may claim it again (a redelivered
stage).
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
    free = Q(respond_lease_until__isnull=True) | Q(respond_lease_until__lt=now) | Q(respond_lease_run=run_id)
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
