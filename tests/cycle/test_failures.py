"""Failure isolation (docs/differences.md item 3, docs/architecture.md, convention 10): a failed item loses only its own
decision, a failed stage is recorded and the next stage runs, every stage leaves a
record. The model fails for real, at the HTTP boundary of the local server."""

from __future__ import annotations

import json

import pytest

from agents.cycle import STAGES
from agents.cycle.run import cycle_begin, cycle_end, stage_execute
from agents.models import Interest, LlmUsage, PostImpression
from sns.models import Like, Post

from .helpers import answer, assert_all_stages_recorded, make_site, push_answers

pytestmark = pytest.mark.django_db


def test_a_malformed_answer_for_one_post_costs_only_that_post(model_server):
    ai, posts = make_site(cosines=(100, 90))
    run = cycle_begin(ai.id)
    stage_execute(run.pk, "select_posts")
    run.refresh_from_db()
    first, second = [r["postId"] for r in run.details["reads"]]  # calls go in read order
    # Both posts are judged in one call; the answer's entry for the first is unusable.
    entries = json.loads(answer())["impressions"]
    entries[0] = {"n": 1, "impression": ["not", "a", "text"], "shouldLike": True}
    model_server.push_chat(answer(impressions=entries))
    push_answers(model_server)
    for stage in STAGES[1:]:
        stage_execute(run.pk, stage)
    run = cycle_end(run.pk)

    decisions = run.details["postDecisions"]
    assert decisions[first]["shouldLike"] is False and decisions[first]["shouldReply"] is False
    assert "item 1" in decisions[first]["error"]
    assert decisions[second] == {"shouldLike": True, "shouldReply": True}
    assert run.stages["post_impressions"]["outcome"] == "ok"
    assert (
        run.stages["post_impressions"]["failed"] == 1
        and run.stages["post_impressions"]["read"] == 1
    )

    by_hex = {p.hex_id: p for p in posts}
    bad, good = by_hex[first], by_hex[second]
    # The failed post is not marked read, so a later cycle may read it again.
    assert not PostImpression.objects.filter(user=ai, post=bad).exists()
    assert PostImpression.objects.filter(user=ai, post=good).exists()
    assert list(Like.objects.filter(user=ai).values_list("post_id", flat=True)) == [good.id]
    assert list(
        Post.objects.filter(owner=ai, reply_to__isnull=False).values_list("reply_to", flat=True)
    ) == [good.id]
    assert run.status == "done"
    assert_all_stages_recorded(run)


def test_a_failed_interest_update_does_not_stop_the_new_post_or_follow_management(
    model_server, settings
):
    settings.STGY_AI_MAX_RETRIES = 0
    ai, _ = make_site(cosines=(100,))
    before = Interest.objects.get(user=ai)
    # In stage order: post impression, peer impression, (like, no reply), interest, new post.
    model_server.push_chat(answer(shouldReply=False))
    model_server.push_chat(answer())
    model_server.push_chat(status=500)
    model_server.push_chat(answer(content="A new post written with the previous interest."))

    run = cycle_begin(ai.id)
    for stage in STAGES:
        stage_execute(run.pk, stage)
    run = cycle_end(run.pk)

    assert_all_stages_recorded(run)
    assert run.stages["interest_update"]["outcome"] == "failed"
    assert "500" in run.stages["interest_update"]["error"]
    assert run.stages["new_post"]["outcome"] == "ok", run.stages["new_post"]
    assert run.stages["follow_management"]["outcome"] in ("ok", "skipped")
    assert run.status == "done"

    after = Interest.objects.get(user=ai)
    assert (after.interest, bytes(after.features)) == (before.interest, bytes(before.features))
    new = Post.objects.get(owner=ai, reply_to__isnull=True)
    assert new.content == "A new post written with the previous interest."
    # The new post's prompt carried the interest from before the failed update.
    prompt = model_server.chat_requests()[-1].prompt
    assert json.dumps(before.interest)[1:-1] in prompt
    failed = LlmUsage.objects.get(run=run, stage="interest_update")
    assert (failed.outcome, failed.attempts) == ("error", 1)


def test_every_stage_is_recorded_when_the_model_answers_nonsense_to_everything(model_server):
    ai, _ = make_site(cosines=(100, 90))
    # Nothing pushed: the server answers "ok" to every chat call, which no parser accepts.
    run = cycle_begin(ai.id)
    for stage in STAGES:
        stage_execute(run.pk, stage)
    run = cycle_end(run.pk)

    assert_all_stages_recorded(run)
    outcomes = {stage: record["outcome"] for stage, record in run.stages.items()}
    assert outcomes == {
        "select_posts": "ok",
        "post_impressions": "failed",
        "peer_impressions": "failed",
        "likes_and_replies": "ok",
        "interest_update": "failed",
        "new_post": "failed",
        "follow_management": "ok",
    }
    assert run.status == "done"
    assert not Like.objects.filter(user=ai).exists()
    assert not Post.objects.filter(owner=ai).exists()
    assert run.llm_calls == LlmUsage.objects.filter(run=run).count() > 0
