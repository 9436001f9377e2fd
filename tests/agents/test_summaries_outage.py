"""Post summaries while the model is down: no retries burnt, no attempts counted against
the posts, and the sweep picks them up once the model answers again."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from agents.llm import gateway
from agents.models import PostSummary
from agents.summaries.sweep import summaries_sweep
from agents.tasks import summarize_post
from tests.factories import make_post
from tests.llm_down import open_breaker

pytestmark = pytest.mark.django_db

ANSWER = json.dumps(
    {"summary": "Tomatoes in a small garden.", "tags": ["garden"], "keywords": ["tomato"]}
)


@pytest.fixture(autouse=True)
def _breaker(settings):
    settings.STGY_AI_BREAKER_FAILURES = 2
    settings.STGY_AI_BREAKER_COOLDOWN_SECONDS = 30
    settings.STGY_EMBEDDING_PROVIDER = "hash"


def _pending_posts(settings, owner, n: int):
    """Posts written while AI was off and long enough ago for the sweep."""
    provider = settings.STGY_AI_PROVIDER
    settings.STGY_AI_PROVIDER = "none"
    posts = [make_post(owner, f"Post {i} about gardening and tomatoes.") for i in range(n)]
    settings.STGY_AI_PROVIDER = provider
    PostSummary.objects.filter(post__in=posts).update(
        source_updated_at=timezone.now() - timedelta(hours=1)
    )
    return posts


def test_summary_task_while_open_neither_retries_nor_counts_an_attempt(llm_server, human, settings):
    (post,) = _pending_posts(settings, human, 1)
    open_breaker(llm_server, settings)
    settings.STGY_AI_MAX_RETRIES = 3
    result = summarize_post.apply(args=[post.id])
    assert result.successful() and result.get() == "unavailable"
    assert len(llm_server.chat_requests()) == 2  # only the calls that opened it
    row = PostSummary.objects.get(post=post)
    assert row.summary is None and row.attempts == 0
    assert "LlmUnavailable" in row.last_error


def test_sweep_queues_nothing_while_open_then_catches_up(llm_server, human, settings, wall_clock):
    posts = _pending_posts(settings, human, 2)
    open_breaker(llm_server, settings)
    assert summaries_sweep() == 0
    assert len(llm_server.chat_requests()) == 2
    assert not PostSummary.objects.filter(post__in=posts).exclude(last_error="").exists()

    wall_clock.advance(31)
    for _ in range(3):  # the sweep's probe, then one summary per post
        llm_server.push_chat(ANSWER)
    assert summaries_sweep() == 2
    assert gateway.breaker_state()["state"] == "closed"
    assert llm_server.chat_requests()[2].body["max_completion_tokens"] == 1
    summaries = PostSummary.objects.filter(post__in=posts)
    assert [s.summary for s in summaries] == ["Tomatoes in a small garden."] * 2
