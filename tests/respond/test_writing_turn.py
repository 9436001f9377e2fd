"""One writer at a time (agents/runs/turn.py): a respond run and the same AI user's
cycle writing stages never write at once. A respond run finding a writing stage at work
leaves its event owed and returns; the stage, on its way out, has it answered. A
writing stage finding a respond run at work waits, and past the wait records a skip."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from agents.cycle.run import WRITING_STAGES, cycle_begin, stage_execute
from agents.cycle.run_read import run_read_taking_turn
from agents.models import AgentState, CycleRun
from agents.respond.run import respond_run
from agents.runs.lease import respond_lease_claim, respond_lease_release
from agents.runs.turn import writing_turn
from sns.models import Post

from .helpers import conversation

pytestmark = pytest.mark.django_db


def test_a_respond_run_during_a_writing_stage_is_answered_when_the_stage_ends(settings):
    settings.STGY_EAGER_TASKS_INLINE = True  # the respond task the stage enqueues runs here
    ai, _person, _root, reply, event = conversation()
    with writing_turn(ai.id, run_id=10**12):
        assert respond_run(ai.id) is None
        event.refresh_from_db()
        assert event.status == "pending"
        assert not Post.objects.filter(owner=ai, reply_to=reply.id).exists()
    event.refresh_from_db()
    assert event.status == "answered"
    assert Post.objects.filter(owner=ai, reply_to=reply.id).count() == 1
    state = AgentState.objects.get(user=ai)
    assert state.respond_lease_until is None and state.respond_lease_run is None


@pytest.mark.django_db(transaction=True)  # the releasing thread must see the lease
def test_a_writing_stage_waits_for_a_respond_run_and_then_writes(settings, ai_user):
    settings.STGY_CYCLE_WRITING_WAIT_SECONDS = 10
    run = cycle_begin(ai_user.id)
    holder = run.pk + 1000
    assert respond_lease_claim(ai_user.id, holder)
    release_after = 0.6
    timer = threading.Timer(release_after, respond_lease_release, args=(ai_user.id, holder))
    started = time.monotonic()
    timer.start()
    try:
        record = stage_execute(run.pk, "follow_management")
    finally:
        timer.cancel()
    waited = time.monotonic() - started
    assert waited >= release_after * 0.9
    assert "skipped" not in record or "writing turn" not in record["skipped"]
    assert AgentState.objects.get(user=ai_user).respond_lease_run is None  # released again


def test_past_the_wait_a_writing_stage_is_skipped_and_recorded(settings, ai_user):
    settings.STGY_CYCLE_WRITING_WAIT_SECONDS = 0.3
    run = cycle_begin(ai_user.id)
    assert respond_lease_claim(ai_user.id, run.pk + 1000)
    for stage in sorted(WRITING_STAGES):
        record = stage_execute(run.pk, stage)
        assert record["outcome"] == "skipped"
        assert record["skipped"] == "a respond run of this AI user kept the writing turn over 0.3 s"
    # A reading stage does not take the turn.
    assert "writing turn" not in stage_execute(run.pk, "select_posts").get("skipped", "")
    assert CycleRun.objects.get(pk=run.pk).stages["new_post"]["outcome"] == "skipped"
    assert AgentState.objects.get(user=ai_user).respond_lease_run == run.pk + 1000  # not ours to free


def test_the_same_run_may_take_the_turn_again(ai_user):
    """A redelivered stage of the run that holds the turn is not locked out by itself."""
    assert respond_lease_claim(ai_user.id, 7)
    assert respond_lease_claim(ai_user.id, 7)
    assert not respond_lease_claim(ai_user.id, 8)


@pytest.mark.parametrize("lease_lost", [False, True])
def test_a_writing_stage_gives_the_turn_back_with_its_record(settings, lease_lost):
    """The turn goes back in the statement that saves the stage's record and renews the
    cycle lease (one statement on PostgreSQL): owed events are answered, the respond
    lease is free, and the cycle lease is renewed only while this run holds it."""
    settings.STGY_EAGER_TASKS_INLINE = True
    ai, _person, _root, _reply, event = conversation()
    run = cycle_begin(ai.id)
    if lease_lost:
        AgentState.objects.filter(user=ai).update(lease_run=run.pk + 1000)
    record = stage_execute(run.pk, "follow_management")
    assert record["outcome"] in ("ok", "skipped")
    assert ("lease" in record.get("notes", {})) is lease_lost
    assert CycleRun.objects.get(pk=run.pk).stages["follow_management"]["ms"] == record["ms"]
    event.refresh_from_db()
    assert event.status == "answered"
    state = AgentState.objects.get(user=ai)
    assert state.respond_lease_until is None and state.respond_lease_run is None
    assert state.lease_run == (run.pk + 1000 if lease_lost else run.pk)


def test_a_redelivered_writing_stage_takes_the_turn_with_its_read_and_gives_it_back(ai_user):
    """The writing turn rides on the stage's read of its record
    (agents/cycle/run_read.py); a stage already recorded returns that record and leaves
    the turn free, and a respond run's turn is not taken by the read."""
    run = cycle_begin(ai_user.id)
    read, taken = run_read_taking_turn(run.pk)
    assert read.pk == run.pk and read.user_id == ai_user.id
    state = AgentState.objects.get(user_id=ai_user.id)
    if connection.vendor == "postgresql":
        assert taken and state.respond_lease_run == run.pk
    respond_lease_release(ai_user.id, run.pk)
    assert respond_lease_claim(ai_user.id, 999_999)  # a respond run holds the turn
    read, taken = run_read_taking_turn(run.pk)
    assert not taken
    assert AgentState.objects.get(user_id=ai_user.id).respond_lease_run == 999_999
    respond_lease_release(ai_user.id, 999_999)

    CycleRun.objects.filter(pk=run.pk).update(stages={"new_post": {"outcome": "ok", "ms": 1}})
    assert stage_execute(run.pk, "new_post") == {"outcome": "ok", "ms": 1}
    assert AgentState.objects.get(user_id=ai_user.id).respond_lease_run is None
