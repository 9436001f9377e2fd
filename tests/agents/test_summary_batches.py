"""Post summaries in batch mode (agents/summaries/batch.py) through the local
OpenAI-compatible server's batch endpoints: the round trip, and the fall back to direct
calls when a batch fails, expires or cannot be sent."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from agents.llm.gateway import model_for_tier
from agents.models import LlmBatch, LlmUsage, PostSummary
from agents.summaries.batch import summary_batches_tick
from agents.summaries.sweep import summaries_sweep
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db

JUPITER = "Last night I pointed my small telescope at Jupiter and counted four moons."
BREAD = "My sourdough starter finally doubled in six hours; the crumb came out open."


def summary_answer(text: str) -> str:
    return json.dumps({"summary": text, "tags": ["Astronomy"], "keywords": ["telescope"]})


@pytest.fixture
def batch_mode(settings, llm_server):
    settings.STGY_AI_BATCH = "on"
    settings.STGY_EAGER_TASKS_INLINE = True  # a fallen-back post's task runs at once
    return llm_server


def test_summaries_go_in_one_batch_and_come_back_stored(batch_mode, human):
    server = batch_mode
    posts = [make_post(human, JUPITER), make_post(human, BREAD)]
    assert not server.chat_requests()  # no direct call on commit
    assert summaries_sweep(min_age_seconds=0) == 0  # nor from the sweep

    assert summary_batches_tick() == {"polled": 0, "ended": 0, "sent": 2}
    lines = server.batch_lines()
    assert [line["custom_id"] for line in lines] == [f"post-{p.id}" for p in posts]
    for line in lines:
        assert line["url"] == "/v1/chat/completions"
        assert line["body"]["response_format"] == {"type": "json_object"}
        assert line["body"]["model"] == model_for_tier("basic")
    (batch,) = LlmBatch.objects.all()
    assert batch.status == "submitted"
    assert set(PostSummary.objects.filter(batch=batch).values_list("post_id", flat=True)) == {
        p.id for p in posts
    }

    assert summary_batches_tick() == {"polled": 1, "ended": 0, "sent": 0}  # still running: it waits
    server.push_chat(
        summary_answer("Four moons of Jupiter."), prompt_tokens=1000, completion_tokens=100
    )
    server.push_chat(
        summary_answer("A sourdough starter."), prompt_tokens=1000, completion_tokens=100
    )
    server.finish_batches("completed")
    assert summary_batches_tick() == {"polled": 1, "ended": 1, "sent": 0}

    rows = {r.post_id: r for r in PostSummary.objects.all()}
    assert rows[posts[0].id].summary == "Four moons of Jupiter." and rows[posts[0].id].features
    assert rows[posts[1].id].summary == "A sourdough starter."
    assert all(r.batch_id is None for r in rows.values())
    batch.refresh_from_db()
    assert (batch.status, batch.answered, batch.fell_back) == ("completed", 2, 0)
    admin = make_user("Root", is_admin=True)
    client = Client()
    client.force_login(admin)
    page = client.get("/agents/activity").content.decode()
    assert 'data-testid="llm-batch"' in page and "the last ended completed" in page
    assert not server.chat_requests()  # every answer came through the batch
    usage = list(LlmUsage.objects.filter(task="post-summary"))
    assert len(usage) == 2 and all(u.outcome == "ok" for u in usage)
    # 1000 × 0.05 + 100 × 0.4 per million for gpt-5.6-luna, at half the price in a batch
    assert all(u.cost == Decimal("0.000045") for u in usage)


@pytest.mark.parametrize("ending", ["failed", "expired"])
def test_a_failed_or_expired_batch_falls_back_to_direct_calls(batch_mode, human, ending):
    server = batch_mode
    post = make_post(human, JUPITER)
    summary_batches_tick()
    server.finish_batches(ending)
    server.push_chat(summary_answer("Jupiter, asked directly."))
    assert summary_batches_tick()["ended"] == 1

    (request,) = server.chat_requests()  # the direct call
    assert request.body["response_format"] == {"type": "json_object"}
    row = PostSummary.objects.get(post=post)
    assert row.summary == "Jupiter, asked directly." and row.batch_id is None
    batch = LlmBatch.objects.get()
    assert (batch.status, batch.answered, batch.fell_back) == (ending, 0, 1)
    assert f"the batch ended {ending}" in batch.error


def test_an_answer_missing_or_failed_in_a_batch_falls_back_for_that_post(batch_mode, human):
    server = batch_mode
    good, bad = make_post(human, JUPITER), make_post(human, BREAD)
    summary_batches_tick()
    server.push_chat(summary_answer("Four moons."))
    server.push_chat(status=500)  # that line of the batch failed
    server.finish_batches("completed")
    server.push_chat(summary_answer("Bread, asked directly."))
    summary_batches_tick()

    assert PostSummary.objects.get(post=good).summary == "Four moons."
    assert PostSummary.objects.get(post=bad).summary == "Bread, asked directly."
    assert len(server.chat_requests()) == 1
    assert LlmBatch.objects.get().fell_back == 1


def test_a_batch_that_cannot_be_sent_falls_back_at_once(batch_mode, human, settings):
    settings.STGY_AI_SITE_DAILY_BUDGET = "0.000001"
    LlmUsage.objects.create(
        created_at=timezone.now(),
        provider="openai",
        model="m",
        outcome="ok",
        cost=Decimal("1"),
    )
    post = make_post(human, JUPITER)
    assert summary_batches_tick()["sent"] == 0
    assert not LlmBatch.objects.exists() and not batch_mode.batch_lines()
    # The direct path took it, and was refused by the same budget: recorded on the post.
    row = PostSummary.objects.get(post=post)
    assert (
        row.summary is None
        and row.batch_id is None
        and "site daily budget exceeded" in row.last_error
    )


def test_an_edit_while_batched_drops_the_stale_answer(batch_mode, human):
    from sns import services

    server = batch_mode
    post = make_post(human, JUPITER)
    summary_batches_tick()
    services.post_update(human, post.id, content=BREAD)
    server.push_chat(summary_answer("About Jupiter (stale)."))
    server.finish_batches("completed")
    server.push_chat(summary_answer("About bread."))
    summary_batches_tick()  # the first batch ends, the edited post goes in a second one
    row = PostSummary.objects.get(post=post)
    assert row.summary is None and row.batch_id is not None
    server.finish_batches("completed")
    summary_batches_tick()
    assert PostSummary.objects.get(post=post).summary == "About bread."


def test_batch_mode_is_off_by_default_and_never_for_other_providers(settings, llm_server, human):
    assert settings.STGY_AI_BATCH == "off"
    llm_server.push_chat(summary_answer("Direct."))
    post = make_post(human, JUPITER)
    assert PostSummary.objects.get(post=post).summary == "Direct."
    assert summary_batches_tick() == {"polled": 0, "ended": 0, "sent": 0}
    settings.STGY_AI_BATCH = "on"
    settings.STGY_AI_PROVIDER = "offline"
    assert summary_batches_tick() == {"polled": 0, "ended": 0, "sent": 0}
