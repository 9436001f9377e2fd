"""Smoke run of the benchmark tooling at a tiny size: the community generator and the
cycle_overhead bench produce their figures (on SQLite and on PostgreSQL)."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from agents.models import Interest, PostSummary
from sns.models import Follow, Like, Post, User

pytestmark = pytest.mark.django_db(transaction=False)


@pytest.fixture
def community(settings):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_USER_STAGE_CONCURRENCY = 1
    call_command("gen_community", "--size", "custom", "--users", "50", "--posts", "300", "--workers", "0",
                 "--seed", "4", "--anchor-ms", "1790000000000")


def test_generator_writes_a_consistent_community(community):
    assert User.objects.count() == 50
    assert Post.objects.count() == 300
    assert User.objects.filter(ai_model__isnull=False).count() == 5
    assert Interest.objects.count() == 5
    assert PostSummary.objects.filter(summary__isnull=False, embedding_model="hash-v1").count() == 300
    assert all(len(bytes(f)) == 512 for f in PostSummary.objects.values_list("features", flat=True)[:20])
    # Counters agree with the rows.
    user = User.objects.order_by("-follower_count").first()
    assert user.follower_count == Follow.objects.filter(followee=user).count()
    post = Post.objects.order_by("-like_count").first()
    assert post.like_count == Like.objects.filter(post=post).count() > 0
    assert Post.objects.filter(reply_to__isnull=False).exists()
    assert Post.objects.filter(owner__locale="ja-JP").exists()


def test_cycle_overhead_produces_figures(community):
    from bench.cycle_overhead import run

    result = run(cycles=2, warmup=0, seed=1)
    assert result["cycles"] == 2
    per_cycle = result["per_cycle"]
    assert per_cycle["queries"]["p50"] > 0
    assert per_cycle["cpu_ms"]["p50"] > 0
    assert per_cycle["llm_calls"]["p50"] > 0
    assert set(result["per_stage"]) >= {"cycle_begin", "select_posts", "post_impressions", "cycle_end"}


def test_generated_texts_match_the_site_functions(settings):
    """The generator's shortcuts give what to_plain_text and post_embedding_input give."""
    from agents.embeddings.inputs import post_embedding_input
    from agents.synthetic_community import text
    from sns.reads.markdown import to_plain_text

    rng = random.Random(9)
    for _ in range(300):
        body = text.post_text(rng, lang=rng.choice(["en", "ja"]), topic=rng.randrange(16),
                              side_topic=rng.randrange(16), is_reply=rng.random() < 0.2)
        assert to_plain_text(body.content) == body.plain
        assert post_embedding_input(body.summary, body.keywords, body.content) == text.embedding_input(
            body, settings.STGY_AI_SUMMARY_SUMMARY_LENGTH)


def test_same_seed_same_texts():
    from agents.synthetic_community.generate import _post_chunk, _post_jobs
    from agents.synthetic_community.plan import make_plan

    plans = [make_plan(users=20, posts=40, seed=8, ai_share=0.2, anchor_ms=1790000000000) for _ in range(2)]
    chunks = [_post_chunk(next(_post_jobs(p, p.counters(), 8))) for p in plans]
    assert chunks[0]["posts"] == chunks[1]["posts"]
    assert chunks[0]["summaries"] == chunks[1]["summaries"]
