"""Ids-only stage tasks (docs/architecture.md §6): each stage reads its run by id and
saves its own record, exactly as it returned it, with its usage rows; a stage task
delivered twice changes nothing; a lost lease is noted; the Celery chain carries
only the run's id and the stage's name."""

from __future__ import annotations

import json

import pytest
from celery.signals import before_task_publish

from agents.cycle import STAGES
from agents.cycle.run import cycle_begin, cycle_end, stage_execute
from agents.cycle.tasks import cycle_stage, cycle_start
from agents.models import AgentState, CycleRun, LlmUsage
from tests.integration.worker import sending_to

from .helpers import assert_all_stages_recorded, make_site, push_answers

pytestmark = pytest.mark.django_db

CALLING_STAGES = ("post_impressions", "peer_impressions", "likes_and_replies", "interest_update", "new_post")


def stored(run_id: int) -> CycleRun:
    return CycleRun.objects.get(pk=run_id)


def test_each_stage_saves_its_own_record_as_it_returned_it(model_server):
    ai, _ = make_site(cosines=(100, 90))
    push_answers(model_server)
    run = cycle_begin(ai.id)
    returned = {}
    for stage in STAGES:
        returned[stage] = stage_execute(run.pk, stage)
        # Saved by the stage itself, before the next one runs, with its usage rows.
        assert stored(run.pk).stages[stage] == returned[stage], stage
        calls = LlmUsage.objects.filter(run_id=run.pk, stage=stage).count()
        assert (calls >= 1) == (stage in CALLING_STAGES), (stage, calls)
    assert stored(run.pk).details["reads"] and stored(run.pk).details["likes"]
    run = cycle_end(run.pk)
    assert run.status == "done"
    assert_all_stages_recorded(run)
    assert run.stages == returned


def test_a_stage_delivered_again_changes_nothing(model_server):
    ai, _ = make_site(cosines=(100, 90))
    push_answers(model_server)
    run = cycle_begin(ai.id)
    for stage in STAGES[:4]:
        stage_execute(run.pk, stage)
    saved, calls = stored(run.pk), LlmUsage.objects.filter(run_id=run.pk).count()
    assert saved.details["likes"] and saved.details["postDecisions"]

    # Late duplicates of earlier stage tasks: the stored record, nothing run again.
    assert stage_execute(run.pk, "post_impressions") == saved.stages["post_impressions"]
    assert stage_execute(run.pk, "peer_impressions") == saved.stages["peer_impressions"]
    again = stored(run.pk)
    assert (again.stages, again.details) == (saved.stages, saved.details)
    assert LlmUsage.objects.filter(run_id=run.pk).count() == calls


def test_a_lease_lost_is_noted_on_the_stage_record(model_server):
    ai, _ = make_site(cosines=(100,))
    push_answers(model_server)
    run = cycle_begin(ai.id)
    AgentState.objects.filter(user=ai).update(lease_run=run.pk + 1000)  # taken by another run
    stage_execute(run.pk, "select_posts")
    record = stored(run.pk).stages["select_posts"]
    assert record["notes"]["lease"].startswith("lost")
    assert record["outcome"] == "ok"


def test_the_chain_carries_the_run_id_and_the_stage_name_only(ai_user):
    published = []

    def keep(body=None, headers=None, **_):
        published.append((headers["task"], json.loads(json.dumps(body))))  # as the broker gets it

    before_task_publish.connect(keep)
    try:
        with sending_to("memory://"):  # published, and delivered to nobody
            run_id = cycle_start.apply(args=[ai_user.id]).get()
    finally:
        before_task_publish.disconnect(keep)
    assert run_id is not None
    [(task, (args, kwargs, embed))] = published  # the chain goes as one message
    chained = [(s["task"], s["args"], s["immutable"]) for s in reversed(embed["chain"])]
    assert (task, args, kwargs) == ("agents.cycle_stage", [run_id, STAGES[0]], {})
    assert chained == [
        *(("agents.cycle_stage", [run_id, stage], True) for stage in STAGES[1:]),
        ("agents.cycle_finish", [run_id], True),
    ]


def test_a_stage_message_of_the_carrying_chain_still_runs(model_server):
    """Queued before the deploy: the previous stage's result in front of the ids."""
    ai, _ = make_site(cosines=(100,))
    push_answers(model_server)
    run = cycle_begin(ai.id)
    carried = {"outcome": "ok", "unsaved": None}
    assert cycle_stage.apply(args=[carried, run.pk, "select_posts"]).get() == {"outcome": "ok"}
    assert cycle_stage.apply(args=[run.pk, "post_impressions"]).get() == {"outcome": "ok"}
    assert set(stored(run.pk).stages) == {"select_posts", "post_impressions"}


def test_only_the_stage_s_own_calls_are_held():
    """A respond run that a stage's write ran inline (the embedded mode) saves its own
    usage rows: the hold is for that run's stage only, and ends with it."""
    from agents.runs.usage_held import usage_held, usage_holding

    with usage_holding(5, "new_post") as held:
        assert usage_held(5, "new_post") is held
        assert usage_held(5, "respond") is None and usage_held(6, "new_post") is None
        assert usage_held(None, "new_post") is None
    assert usage_held(5, "new_post") is None
