"""The sweep gives every AI user still owing an answer a while after the event its
respond task again (a publish lost while the broker was down, or a run whose worker
died: the stale-lease sweep, agents/runs/stale.py, ends that run)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.models import AgentState, AttentionEvent, CycleRun
from agents.respond.run import respond_run
from agents.respond.sweep import events_purge, respond_sweep
from agents.runs.lease import respond_lease_claim
from agents.runs.stale import runs_stale_end
from sns.models import Post

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


def test_a_respond_run_whose_lease_lapsed_is_ended_and_its_event_answered_next():
    ai, _, _, reply, event = conversation()
    dead = CycleRun.objects.create(
        user=ai, kind=CycleRun.Kind.RESPOND, started_at=timezone.now() - timedelta(minutes=5), details={"events": []}
    )
    assert respond_lease_claim(ai.id, dead.pk)
    AttentionEvent.objects.filter(pk=event.pk).update(status="claimed", run=dead)
    assert runs_stale_end() == 0  # the respond lease still holds

    AgentState.objects.filter(user=ai).update(respond_lease_until=timezone.now() - timedelta(seconds=1))
    assert runs_stale_end() == 1
    dead.refresh_from_db()
    assert dead.status == CycleRun.Status.FAILED and "lapsed" in dead.details["staleLease"]["reason"]
    assert AgentState.objects.get(user=ai).respond_lease_run is None

    # The respond sweep gives the event, still claimed by the dead run, to a new run.
    AttentionEvent.objects.filter(pk=event.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    assert respond_sweep() == 1  # tests run the task inline
    event.refresh_from_db()
    assert event.status == "answered" and event.run_id != dead.pk
    assert Post.objects.filter(owner=ai, reply_to=reply.id).count() == 1
    assert respond_run(ai.id) is None
