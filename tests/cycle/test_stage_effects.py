"""What the stages write, end to end through the real gateway: the model is the local
OpenAI-compatible server saying "yes" to everything, so only the code's rules decide."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.cycle import STAGES
from agents.cycle.run import cycle_begin, run_cycle_sync, stage_execute
from sns import services
from sns.core.ids import min_id_at
from sns.models import Like, Post

from .helpers import (
    assert_all_stages_recorded,
    base_vector,
    give_interest,
    int8_bytes,
    make_site,
    push_answers,
    summarise,
)

pytestmark = pytest.mark.django_db


def run_stages(run, stages):
    return {stage: stage_execute(run.pk, stage) for stage in stages}


def test_likes_and_replies_are_written_as_the_ai_user(model_server):
    ai, (p1, p2, _p3) = make_site(cosines=(100, 90, 80))
    push_answers(model_server)
    run = run_cycle_sync(ai.id)
    assert_all_stages_recorded(run)

    liked = set(Like.objects.filter(user=ai).values_list("post_id", flat=True))
    assert liked == {p1.id, p2.id}  # rank 3 is not liked although the model said yes
    replies = {r.reply_to: r for r in Post.objects.filter(owner=ai, reply_to__isnull=False)}
    assert set(replies) == {p1.id, p2.id}
    for parent_id, reply in replies.items():
        assert reply.idempotency_key == f"run:{run.pk}:reply:{Post(id=parent_id).hex_id}"
    assert [(r["postId"], r["rank"], r["result"]) for r in run.details["likes"]] == [
        (p1.hex_id, 1, "liked"),
        (p2.hex_id, 2, "liked"),
    ]
    assert {r["postId"] for r in run.details["replies"]} == {p1.hex_id, p2.hex_id}


def test_the_like_threshold_applies_to_the_raw_cosine(model_server):
    """A cosine a hair below 0.5 (0.4999999975) must not be rounded up to a like."""
    ai, (post,) = make_site(cosines=(50,))
    values = {i: 127 for i in range(50)} | {100 + i: 127 for i in range(50)} | {300: 1}
    summarise(post, int8_bytes(values))
    push_answers(model_server)
    run = cycle_begin(ai.id)
    run_stages(run, STAGES[:4])
    run.refresh_from_db()
    assert run.details["reads"][0]["sim"] < 0.5
    assert not Like.objects.filter(user=ai).exists()


def test_a_reply_in_the_same_cycle_does_not_suppress_the_new_post(model_server, admin):
    ai, (p1,) = make_site(cosines=(100,))
    two_days_ago = timezone.now() - timedelta(days=2)
    old_root = services.post_create(
        admin,
        content="an old root post",
        tags=[],
        post_id=min_id_at(two_days_ago) + 1,
        owned_by=ai.id,
    )
    push_answers(model_server)
    run = run_cycle_sync(ai.id)

    reply = Post.objects.get(owner=ai, reply_to=p1.id)
    assert run.stages["new_post"]["outcome"] == "ok", run.stages["new_post"]
    new = Post.objects.get(owner=ai, reply_to__isnull=True, idempotency_key=f"run:{run.pk}:post")
    assert new.id > reply.id > old_root.id


def test_a_recent_root_post_suppresses_the_new_post(ai_user, human):
    give_interest(ai_user, base_vector())
    services.post_create(ai_user, content="a root post made today", tags=[])
    run = run_cycle_sync(ai_user.id)
    assert run.stages["new_post"]["outcome"] == "skipped"
    assert Post.objects.filter(owner=ai_user).count() == 1


def test_only_a_reply_of_the_ai_user_does_not_suppress_the_new_post(ai_user, human):
    give_interest(ai_user, base_vector())
    parent = services.post_create(human, content="a human's post", tags=[])
    services.post_create(ai_user, content="a reply made today", tags=[], reply_to=parent.id)
    run = run_cycle_sync(ai_user.id)
    assert run.stages["new_post"]["outcome"] == "ok", run.stages["new_post"]
    assert Post.objects.filter(owner=ai_user, reply_to__isnull=True).count() == 1


def test_no_new_post_and_no_follows_without_any_interest(ai_user):
    run = run_cycle_sync(ai_user.id)  # an empty site: nothing to read, so no interest
    assert_all_stages_recorded(run)
    assert run.stages["interest_update"]["outcome"] == "skipped"
    assert run.stages["new_post"]["outcome"] == "skipped"
    assert run.stages["follow_management"]["outcome"] == "skipped"
    assert not Post.objects.filter(owner=ai_user).exists()
    assert run.status == "done"
