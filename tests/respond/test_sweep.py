"""The sweep gives every AI user still owing an answer a while after the event its
respond task again (a publish lost while the broker was down)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.models import AttentionEvent
from agents.respond.sweep import events_purge, respond_sweep

from .helpers import conversation

pytestmark = pytest.mark.django_db


def test_only_events_older_than_the_minimum_age_are_swept(settings):
    settings.STGY_RESPOND_SWEEP_MIN_AGE_SECONDS = 60
    *_, event = conversation()
    assert respond_sweep() == 0  # just recorded: its own task is on its way
    AttentionEvent.objects.filter(pk=event.pk).update(created_at=timezone.now() - timedelta(seconds=61))
    assert respond_sweep() == 1  # tests run the task inline
    event.refresh_from_db()
    assert event.status == "answered"
    assert respond_sweep() == 0


def test_handled_events_are_forgotten_after_the_retention_period(settings):
    settings.STGY_RESPOND_EVENT_RETENTION_DAYS = 31
    ai, *_, old = conversation()
    *_, recent = conversation(ai=ai)
    *_, owed = conversation(ai=ai)
    long_ago = timezone.now() - timedelta(days=32)
    AttentionEvent.objects.filter(pk=old.pk).update(status="answered", handled_at=long_ago)
    AttentionEvent.objects.filter(pk=recent.pk).update(status="refused", handled_at=timezone.now() - timedelta(days=30))
    AttentionEvent.objects.filter(pk=owed.pk).update(handled_at=long_ago)  # still pending: kept
    assert events_purge() == 1
    assert sorted(AttentionEvent.objects.values_list("pk", flat=True)) == sorted([recent.pk, owed.pk])
