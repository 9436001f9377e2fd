"""The respond path's safety net: a respond task for every AI user still owing an
answer a while after the event was recorded (its publish was lost while the broker
was down, or the run that claimed it died and no redelivery came). It also forgets
events handled long ago: no unbounded history is kept, and what a redelivery or the
hourly limits need is minutes and an hour old."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from agents.models import AttentionEvent
from agents.runs.owed import respond_enqueue

SWEEP_USERS_LIMIT = 500  # AI users enqueued per sweep; the next sweep takes the rest


def respond_sweep() -> int:
    """Enqueue what is owed, purge what is long done; the number of AI users enqueued."""
    events_purge()
    cutoff = timezone.now() - timedelta(seconds=settings.STGY_RESPOND_SWEEP_MIN_AGE_SECONDS)
    user_ids = list(
        AttentionEvent.objects.filter(
            status__in=(AttentionEvent.Status.PENDING, AttentionEvent.Status.CLAIMED), created_at__lt=cutoff
        )
        .order_by("user_id")
        .values_list("user_id", flat=True)
        .distinct()[:SWEEP_USERS_LIMIT]
    )
    for user_id in user_ids:
        respond_enqueue(user_id)
    return len(user_ids)


def events_purge() -> int:
    cutoff = timezone.now() - timedelta(days=settings.STGY_RESPOND_EVENT_RETENTION_DAYS)
    deleted, _ = AttentionEvent.objects.filter(handled_at__lt=cutoff).exclude(
        status__in=(AttentionEvent.Status.PENDING, AttentionEvent.Status.CLAIMED)
    ).delete()
    return deleted
