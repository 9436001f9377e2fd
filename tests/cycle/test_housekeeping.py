"""What a cycle does besides reading and writing: it marks the notifications it
consumed and renews its lease at every stage (runs whose lease lapsed:
tests/cycle/test_stale_runs.py)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.cycle.run import cycle_begin, run_cycle_sync, stage_execute
from agents.models import AgentState
from sns.models import Notification
from tests.factories import make_post


@pytest.mark.django_db
def test_reply_notifications_consumed_by_the_ai_user_are_marked_read(human, ai_user):
    own = make_post(ai_user, "Koji needs warmth and patience.", tags=["koji"])
    make_post(human, "How warm exactly? I keep mine at 30 degrees.", reply_to=own.id)
    note = Notification.objects.get(user=ai_user, slot=f"reply:{own.hex_id}")
    assert note.is_read is False

    run = run_cycle_sync(ai_user.id)

    note.refresh_from_db()
    assert note.is_read is True
    reply_candidates = [c for c in run.details["candidates"] if "reply-notification" in c["sources"]]
    assert reply_candidates, run.details["candidates"]


@pytest.mark.django_db
def test_every_stage_renews_the_lease(settings, ai_user):
    settings.STGY_AI_USER_LOCK_SECONDS = 600
    run = cycle_begin(ai_user.id)
    AgentState.objects.filter(user=ai_user).update(lease_until=timezone.now() + timedelta(seconds=5))
    stage_execute(run.pk, "select_posts")
    lease = AgentState.objects.get(user=ai_user).lease_until
    assert lease > timezone.now() + timedelta(seconds=590)


@pytest.mark.django_db
def test_a_stage_whose_lease_was_taken_records_it_and_leaves_the_new_holder_alone(ai_user):
    run = cycle_begin(ai_user.id)
    # The lease expired and another run took it (a worker that stalled past the lease).
    AgentState.objects.filter(user=ai_user).update(lease_run=run.pk + 1000, lease_until=timezone.now() + timedelta(minutes=5))
    record = stage_execute(run.pk, "select_posts")
    assert record["notes"]["lease"].startswith("lost")
    run.refresh_from_db()
    assert run.stages["select_posts"]["notes"]["lease"].startswith("lost")
    assert AgentState.objects.get(user=ai_user).lease_run == run.pk + 1000
