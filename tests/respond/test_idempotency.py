"""Run it twice → same rows; one respond run of a user at a time; a run that died is
taken over; and the respond path and the cycle never both answer one post."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.cycle.run import cycle_begin, run_cycle_sync, stage_execute
from agents.models import AgentState, AttentionEvent, CycleRun, LlmUsage, PostImpression
from agents.respond.run import respond_run
from agents.runs.lease import respond_lease_claim
from sns.models import Post
from tests.cycle.helpers import (
    base_vector,
    give_interest,
    push_answers,
    summarise,
    vector_with_cosine,
)

from .helpers import conversation

pytestmark = pytest.mark.django_db


def rows(ai) -> dict:
    return {
        "answers": sorted(Post.objects.filter(owner=ai, reply_to__isnull=False).values_list("id", flat=True)),
        "impressions": PostImpression.objects.filter(user=ai).count(),
        "events": sorted(AttentionEvent.objects.values_list("id", "status")),
        "runs": CycleRun.objects.filter(user=ai).count(),
        "usage": LlmUsage.objects.filter(user=ai).count(),
    }


def test_running_it_twice_gives_the_same_rows():
    ai, *_ = conversation()
    assert respond_run(ai.id) is not None
    first = rows(ai)
    assert respond_run(ai.id) is None  # nothing owed: no second record
    assert rows(ai) == first
    assert len(first["answers"]) == 1 and first["runs"] == 1


def test_a_redelivered_run_after_a_crash_takes_the_event_over_without_duplicates():
    """The first run claimed the event and died (its lease ran out); the answer it may
    have written carries the event's key, so the next run answers exactly once."""
    ai, _, _, reply, event = conversation()
    dead = CycleRun.objects.create(user=ai, kind="respond", started_at=timezone.now())
    assert respond_lease_claim(ai.id, dead.pk)
    AttentionEvent.objects.filter(pk=event.pk).update(status="claimed", run=dead)

    assert respond_run(ai.id) is None  # the lease still holds: no second run at once
    assert CycleRun.objects.filter(user=ai).count() == 1

    AgentState.objects.filter(user=ai).update(respond_lease_until=timezone.now() - timedelta(seconds=1))
    run = respond_run(ai.id)
    event.refresh_from_db()
    assert (event.status, event.run_id) == ("answered", run.pk)
    assert Post.objects.filter(owner=ai, reply_to=reply.id).count() == 1
    state = AgentState.objects.get(user=ai)
    assert state.respond_lease_run is None and state.respond_lease_until is None


def test_the_respond_lease_is_independent_of_the_cycles():
    ai, *_, event = conversation()
    running = cycle_begin(ai.id)  # a cycle holds its own lease
    assert running is not None
    respond_run(ai.id)
    event.refresh_from_db()
    assert event.status == "answered"
    assert AgentState.objects.get(user=ai).lease_run == running.pk


def test_events_beyond_one_batch_are_answered_by_a_follow_up_run(settings):
    settings.STGY_RESPOND_BATCH = 2
    ai, *_ = conversation()
    for _ in range(2):
        conversation(ai=ai)
    respond_run(ai.id)  # tests run tasks inline: the follow-up run happens inside
    assert sorted(AttentionEvent.objects.values_list("status", flat=True)) == ["answered"] * 3
    runs = CycleRun.objects.filter(user=ai, kind="respond").order_by("id")
    assert [len(r.details["events"]) for r in runs] == [2, 1]


@pytest.fixture
def judged(model_server, settings):
    """A cycle of Aiko that has read the person's reply (cosine 1 to her interest, so it
    ranks first) and judged it worth a reply, and is about to write."""
    settings.STGY_AI_PROVIDER = "openai"
    ai, _, root, reply, event = conversation()
    for post in (root, reply):
        summarise(post, vector_with_cosine(100))
    give_interest(ai, base_vector())
    push_answers(model_server, count=20, answer=True)  # every parser, the respond one too
    run = cycle_begin(ai.id)
    for stage in ("select_posts", "post_impressions", "peer_impressions"):
        assert stage_execute(run.pk, stage)["outcome"] == "ok"
    return ai, reply, event, run


def test_the_cycle_does_not_reply_again_where_the_respond_path_answered(judged):
    ai, reply, event, run = judged
    respond_run(ai.id)
    event.refresh_from_db()
    assert event.status == "answered"
    record = stage_execute(run.pk, "likes_and_replies")
    assert record["outcome"] == "ok"
    run.refresh_from_db()
    [planned] = [r for r in run.details["replies"] if r["postId"] == reply.hex_id]
    assert planned == planned | {"skipped": "already replied to this post"} and "replyId" not in planned
    assert Post.objects.filter(owner=ai, reply_to=reply.id).count() == 1


def test_the_respond_path_does_not_answer_where_the_cycle_replied(judged):
    ai, reply, event, run = judged
    stage_execute(run.pk, "likes_and_replies")
    assert Post.objects.filter(owner=ai, reply_to=reply.id).count() == 1
    respond_run(ai.id)
    event.refresh_from_db()
    assert event.status == "refused" and event.outcome.startswith("not_answered")
    assert Post.objects.filter(owner=ai, reply_to=reply.id).count() == 1


def test_the_next_cycle_does_not_read_a_post_the_respond_path_answered(settings):
    ai, _, _, reply, _ = conversation()
    respond_run(ai.id)
    run = run_cycle_sync(ai.id)
    read = {r["postId"] for r in run.details.get("reads", [])}
    candidates = {c["postId"]: c for c in run.details.get("candidates", [])}
    assert reply.hex_id not in read
    assert reply.hex_id not in candidates or candidates[reply.hex_id]["alreadyRead"] is True
