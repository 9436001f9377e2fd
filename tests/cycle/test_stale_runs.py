"""The stale-lease sweep (agents/runs/stale.py): a cycle run still "running" whose lease
has lapsed — its worker died, its tasks were lost — is ended with the reason on its
record; its late tasks then do nothing and the user's next cycle starts. (Respond runs:
tests/respond/test_sweep.py.)"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.cycle import STAGES
from agents.cycle.run import cycle_begin, cycle_end, run_cycle_sync, stage_execute
from agents.cycle.schedule import due_user_ids
from agents.models import AgentState, CycleRun, LlmUsage
from agents.runs.stale import runs_stale_end
from agents.tasks import sweep_stale_runs
from sns.models import Like
from tests.cycle.helpers import assert_all_stages_recorded, make_site, push_answers

pytestmark = pytest.mark.django_db

LONG_AGO = timedelta(minutes=5)


def lapse_cycle_lease(user, seconds: int = 1) -> None:
    AgentState.objects.filter(user=user).update(lease_until=timezone.now() - timedelta(seconds=seconds))


def started_long_ago(run: CycleRun) -> None:
    CycleRun.objects.filter(pk=run.pk).update(started_at=timezone.now() - LONG_AGO)


def test_a_cycle_whose_lease_lapsed_is_ended_and_says_why(model_server):
    ai, _ = make_site(cosines=(100, 90))
    push_answers(model_server)
    run = cycle_begin(ai.id)
    for stage in STAGES[:3]:
        stage_execute(run.pk, stage)
    started_long_ago(run)
    assert runs_stale_end() == 0  # the lease still holds: a live run is left alone

    lapse_cycle_lease(ai)
    assert sweep_stale_runs.apply().get() == 1
    run.refresh_from_db()
    assert run.status == CycleRun.Status.FAILED and run.finished_at is not None
    assert "its lease lapsed at" in run.details["staleLease"]["reason"]
    assert set(run.stages) == set(STAGES[:3])
    # Its model calls are counted as cycle_end would count them.
    assert run.llm_calls == LlmUsage.objects.filter(run_id=run.pk).count() >= 2
    state = AgentState.objects.get(user=ai)
    assert (state.lease_run, state.lease_until) == (None, None)
    assert runs_stale_end() == 0  # ended once


def test_late_tasks_of_an_ended_cycle_do_nothing_and_the_next_cycle_runs(model_server):
    ai, _ = make_site(cosines=(100, 90))
    push_answers(model_server)
    run = cycle_begin(ai.id)
    for stage in STAGES[:3]:
        stage_execute(run.pk, stage)
    started_long_ago(run)
    lapse_cycle_lease(ai)
    runs_stale_end()
    ended = CycleRun.objects.get(pk=run.pk)

    # The killed stage and the rest of the chain, delivered again: nothing runs.
    record = stage_execute(run.pk, "likes_and_replies")
    assert record["outcome"] == "skipped" and "ended" in record["skipped"]
    assert not Like.objects.filter(user=ai).exists()
    assert cycle_end(run.pk).status == CycleRun.Status.FAILED
    again = CycleRun.objects.get(pk=run.pk)
    assert (again.stages, again.details, again.finished_at) == (ended.stages, ended.details, ended.finished_at)

    # The user is free: once due, the dispatcher sends it and its next cycle runs whole.
    AgentState.objects.filter(user=ai).update(next_run_at=timezone.now() - timedelta(seconds=1))
    assert due_user_ids() == [ai.id]
    following = run_cycle_sync(ai.id)
    assert following.pk != run.pk and following.status == CycleRun.Status.DONE
    assert_all_stages_recorded(following)


def test_a_cycle_whose_lease_another_run_took_is_ended(ai_user):
    run = cycle_begin(ai_user.id)
    started_long_ago(run)
    AgentState.objects.filter(user=ai_user).update(
        lease_run=run.pk + 1000, lease_until=timezone.now() + timedelta(minutes=5)
    )
    assert runs_stale_end() == 1
    run.refresh_from_db()
    assert run.status == CycleRun.Status.FAILED
    assert f"taken by run {run.pk + 1000}" in run.details["staleLease"]["reason"]
    assert AgentState.objects.get(user=ai_user).lease_run == run.pk + 1000  # the holder keeps it


def test_a_run_just_inserted_is_not_stale_before_it_claims_its_lease(ai_user):
    young = CycleRun.objects.create(user=ai_user, started_at=timezone.now())
    old = CycleRun.objects.create(user=ai_user, started_at=timezone.now() - LONG_AGO)
    assert runs_stale_end() == 1
    young.refresh_from_db()
    old.refresh_from_db()
    assert (young.status, old.status) == (CycleRun.Status.RUNNING, CycleRun.Status.FAILED)
    assert "it held no lease" in old.details["staleLease"]["reason"]
