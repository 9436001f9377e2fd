"""A reading stage's record saved by the next stage's read (agents/cycle/run.py
`stage_execute_chained`, agents/cycle/run_read.py), and every stage's usage rows saved
with its record (agents/runs/usage_held.py): the record is the one the stage
returned, exactly, and the usage rows go in once, with it; a stage task delivered
twice never puts older details back; a lost lease is still noted; the Celery chain
passes the record on."""

from __future__ import annotations

import pytest
from django.db import connection

from agents.cycle import STAGES
from agents.cycle.run import WRITING_STAGES, cycle_begin, cycle_end, stage_execute_chained
from agents.cycle.tasks import cycle_stage
from agents.models import AgentState, CycleRun, LlmUsage

from .helpers import assert_all_stages_recorded, make_site, push_answers

pytestmark = pytest.mark.django_db

ON_POSTGRESQL = connection.vendor == "postgresql"


def stored(run_id: int) -> CycleRun:
    return CycleRun.objects.get(pk=run_id)


def test_each_record_is_stored_exactly_as_its_stage_returned_it(model_server):
    ai, _ = make_site(cosines=(100, 90))
    push_answers(model_server)
    run = cycle_begin(ai.id)
    returned, unsaved = {}, None
    for stage in STAGES:
        returned[stage], unsaved = stage_execute_chained(run.pk, stage, unsaved)
        leaves = ON_POSTGRESQL and stage not in WRITING_STAGES and stage != "interest_update"
        # A reading stage's record waits for the next stage on PostgreSQL; the others save their own.
        assert (unsaved is not None) == leaves, stage
        assert (stage in stored(run.pk).stages) == (not leaves), stage
        if leaves:
            assert unsaved["record"] == returned[stage] and unsaved["details"]["reads"]
        # The stage's usage rows are written with its record, not before.
        calls = LlmUsage.objects.filter(run_id=run.pk, stage=stage).count()
        if leaves and stage != "select_posts":  # select_posts calls no model
            assert calls == 0 and unsaved["usage"] and {u["stage"] for u in unsaved["usage"]} == {stage}, stage
        elif stage in ("likes_and_replies", "interest_update", "new_post"):
            assert calls >= 1, stage
    assert unsaved is None
    by_stage = {stage: LlmUsage.objects.filter(run_id=run.pk, stage=stage).count() for stage in STAGES}
    assert all(by_stage[stage] >= 1 for stage in ("post_impressions", "peer_impressions", "likes_and_replies"))
    run = cycle_end(run.pk)
    assert run.status == "done"
    assert_all_stages_recorded(run)
    assert run.stages == returned
    assert len(run.details["reads"]) == 2 and run.details["likes"]


@pytest.mark.skipif(not ON_POSTGRESQL, reason="records are left unsaved on PostgreSQL only")
def test_a_stage_delivered_again_never_puts_older_details_back(model_server):
    ai, _ = make_site(cosines=(100, 90))
    push_answers(model_server)
    run = cycle_begin(ai.id)
    _, after_select = stage_execute_chained(run.pk, "select_posts", None)
    _, after_posts = stage_execute_chained(run.pk, "post_impressions", after_select)
    _, after_peers = stage_execute_chained(run.pk, "peer_impressions", after_posts)
    stage_execute_chained(run.pk, "likes_and_replies", after_peers)
    saved = stored(run.pk)
    assert saved.details["likes"] and saved.details["postDecisions"]
    calls = LlmUsage.objects.filter(run_id=run.pk).count()
    assert LlmUsage.objects.filter(run_id=run.pk, stage="post_impressions").count() == len(after_posts["usage"]) >= 1

    # Late duplicates of earlier stage tasks, each with the record it was given.
    record, unsaved = stage_execute_chained(run.pk, "post_impressions", after_select)
    assert (record, unsaved) == (saved.stages["post_impressions"], None)
    record, unsaved = stage_execute_chained(run.pk, "peer_impressions", after_posts)
    assert (record, unsaved) == (saved.stages["peer_impressions"], None)
    again = stored(run.pk)
    assert (again.stages, again.details) == (saved.stages, saved.details)
    assert LlmUsage.objects.filter(run_id=run.pk).count() == calls  # carried usage rows not written twice


@pytest.mark.skipif(not ON_POSTGRESQL, reason="records are left unsaved on PostgreSQL only")
def test_a_lease_lost_before_the_next_read_is_noted_on_the_record_it_saves(model_server):
    ai, _ = make_site(cosines=(100,))
    push_answers(model_server)
    run = cycle_begin(ai.id)
    _, unsaved = stage_execute_chained(run.pk, "select_posts", None)
    AgentState.objects.filter(user=ai).update(lease_run=run.pk + 1000)  # taken by another run
    stage_execute_chained(run.pk, "post_impressions", unsaved)
    record = stored(run.pk).stages["select_posts"]
    assert record["notes"]["lease"].startswith("lost")
    assert record["outcome"] == "ok"


def test_the_chain_passes_the_record_on_and_an_old_result_carries_none(model_server):
    ai, _ = make_site(cosines=(100,))
    push_answers(model_server)
    run = cycle_begin(ai.id)
    first = cycle_stage.apply(args=[run.pk, "select_posts"]).get()
    assert first["outcome"] == "ok"
    assert (first["unsaved"] is not None) == ON_POSTGRESQL
    second = cycle_stage.apply(args=[first, run.pk, "post_impressions"]).get()
    assert "select_posts" in stored(run.pk).stages
    # A task of the code before saved its own record and gave its outcome string.
    stage_execute_chained(run.pk, "peer_impressions", second["unsaved"], leave_unsaved=False)
    third = cycle_stage.apply(args=["ok", run.pk, "likes_and_replies"]).get()
    assert third == {"outcome": "ok", "unsaved": None}
    assert set(stored(run.pk).stages) == set(STAGES[:4])


def test_only_the_stage_s_own_calls_are_held():
    """A respond run that a stage's write ran inline (the embedded mode) saves its own
    usage rows: the hold is for that run's stage only, and ends with it."""
    from agents.runs.usage_held import usage_held, usage_holding

    with usage_holding(5, "new_post") as held:
        assert usage_held(5, "new_post") is held
        assert usage_held(5, "respond") is None and usage_held(6, "new_post") is None
        assert usage_held(None, "new_post") is None
    assert usage_held(5, "new_post") is None
