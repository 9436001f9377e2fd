"""Run a stage twice → same rows (docs/architecture.md, convention 20), for every stage, and replayed Celery
deliveries. These run on committed data with several LLM calls in flight at once
(the concurrent path), as a worker does."""

from __future__ import annotations

import pytest

from agents.cycle import STAGES
from agents.cycle.run import cycle_begin, stage_execute
from agents.cycle.tasks import cycle_finish, cycle_stage, cycle_start
from agents.models import CycleRun, Interest, LlmUsage
from sns import services
from sns.models import Post
from tests.factories import make_user

from .helpers import assert_all_stages_recorded, make_site, push_answers, row_counts

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def site(model_server, settings):
    """Every stage has something to write: three posts to read and judge, two of
    them similar enough to like and reply to, a similar peer to follow, a followee
    with no posts to drop, and an interest to update."""
    settings.STGY_AI_USER_STAGE_CONCURRENCY = 4
    ai, posts = make_site(cosines=(100, 90, 80))
    services.follow_add(ai, make_user("Silent").id)
    push_answers(model_server, count=100)
    return ai, posts


def snapshot(ai) -> dict:
    interest = Interest.objects.filter(user=ai).first()
    return row_counts(ai) | {
        "interest": (interest.interest, bytes(interest.features)) if interest else None
    }


@pytest.mark.parametrize("stage", STAGES)
def test_running_a_stage_twice_gives_the_same_rows(site, stage):
    ai, _ = site
    run = cycle_begin(ai.id)
    for earlier in STAGES[: STAGES.index(stage)]:
        stage_execute(run.pk, earlier)
    start = snapshot(ai)
    first = stage_execute(run.pk, stage)
    assert first["outcome"] == "ok", first
    after_first = snapshot(ai)
    run.refresh_from_db()
    reads_first = run.details.get("reads")

    # A redelivery after a crash between the stage's writes and its record.
    run.stages.pop(stage)
    run.save(update_fields=["stages"])
    second = stage_execute(run.pk, stage)
    assert second["outcome"] == "ok", second
    assert snapshot(ai) == after_first
    run.refresh_from_db()
    assert run.details.get("reads") == reads_first

    changed = {key for key in after_first if after_first[key] != start[key]}
    expected_change = {
        "select_posts": set(),  # it writes only the run record
        "post_impressions": {"post_impressions"},
        "peer_impressions": {"peer_impressions"},
        "likes_and_replies": {"likes", "reposts", "replies"},
        "interest_update": {"interest"},
        "new_post": {"posts"},
        "follow_management": {"followees"},
    }[stage]
    assert changed == expected_change  # the stage did write, so the replay had something to repeat
    if stage == "new_post":
        # The replay found the post it wrote (on the own posts' query) and reused it.
        assert run.details["newPost"]["reused"] is True
        assert run.details["newPost"]["postId"] == second["postId"]
    if stage == "interest_update":
        # Blended once: the replay neither called the model nor mixed the vector again.
        assert LlmUsage.objects.filter(run=run, stage="interest_update").count() == 1


def test_a_replayed_cycle_start_while_the_cycle_runs_starts_nothing(site):
    ai, _ = site
    running = cycle_begin(ai.id)
    assert cycle_start.apply(args=[ai.id]).get() is None
    assert list(CycleRun.objects.values_list("pk", flat=True)) == [running.pk]


def test_replayed_stage_and_finish_tasks_do_not_duplicate(site):
    ai, _ = site
    run_id = cycle_start.delay(ai.id).get()  # eager: the whole chain runs here
    run = CycleRun.objects.get(pk=run_id)
    assert run.status == "done"
    assert_all_stages_recorded(run)
    counts = row_counts(ai)
    assert counts["likes"] == 2 and counts["replies"] == 2 and counts["posts"] == 1
    calls = LlmUsage.objects.count()

    for stage in STAGES:
        assert cycle_stage.apply(args=[run_id, stage]).get()["outcome"] == run.stages[stage]["outcome"]
    assert cycle_finish.apply(args=[run_id]).get() == "done"
    assert row_counts(ai) == counts
    assert LlmUsage.objects.count() == calls  # recorded stages are not run again

    # A late duplicate of cycle_start after the cycle ended is just another cycle: it
    # finds nothing new to read and must not repeat any like, reply or post.
    second = CycleRun.objects.get(pk=cycle_start.delay(ai.id).get())
    assert second.details["reads"] == []
    assert row_counts(ai) == counts


def test_post_impressions_are_requested_concurrently(model_server, settings):
    settings.STGY_AI_USER_STAGE_CONCURRENCY = 4
    ai, posts = make_site(cosines=(100, 90, 80))
    # Posts of one language are judged in one call: three languages make three calls.
    for post, locale in zip(posts, ("en-US", "ja-JP", "de-DE")):
        Post.objects.filter(pk=post.pk).update(locale=locale)
    push_answers(model_server, count=3, delay=1.5)
    run = cycle_begin(ai.id)
    stage_execute(run.pk, "select_posts")
    record = stage_execute(run.pk, "post_impressions")
    assert record["read"] == 3
    arrivals = sorted(r.at for r in model_server.chat_requests())
    assert len(arrivals) == 3
    # One after another they would arrive 1.5 s apart and take 4.5 s in all.
    assert arrivals[-1] - arrivals[0] < 1.0
    assert record["ms"] < 4000
