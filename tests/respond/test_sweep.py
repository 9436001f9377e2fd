"""The sweep gives every AI user still owing an answer a while after the event its
respond task again (a publish lost while the broker was down)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.models import AttentionEvent
from agents.respond.sweep import respond_sweep

from .helpers import conversation

pytestmark = pytest.mark.django_db


def test_only_events_older_than_the_minimum_age_are_swept(settings):
    settings.STGY_RESPOND_SWEEP_MIN_AGE_SECONDS = 60
    ai, *_, event = conversation()
    assert respond_sweep() == 0  # just recorded: its own task is on its way
    AttentionEvent.objects.filter(pk=event.pk).update(created_at=timezone.now() - timedelta(seconds=61))
    assert respond_sweep() == 1  # tests run the task inline
    event.refresh_from_db()
    assert event.status == "answered"
    assert respond_sweep() == 0
