"""The sweep that recovers summaries the on-commit task never produced, and the
`summarize` management command."""

from __future__ import annotations

import contextlib
import time
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from agents.models import PostSummary
from agents.runner import drain_publishes
from agents.summaries import sweep
from agents.summaries.sweep import summaries_sweep
from agents.tasks import sweep_summaries
from sns.core.ids import id_to_hex
from stgy.celery import app as celery_app
from tests.conftest import login_client
from tests.factories import make_post

CLOSED_BROKER = "redis://127.0.0.1:1/0"


@pytest.fixture
def offline(settings):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_EMBEDDING_PROVIDER = "hash"


@pytest.fixture
def queued(monkeypatch):
    """Capture what the sweep enqueues instead of running it."""
    ids: list[int] = []
    monkeypatch.setattr(sweep, "submit_task", lambda task, post_id: ids.append(post_id))
    return ids


def _pending_posts(settings, owner, n: int):
    """Posts written while AI was off: their summaries stay pending."""
    settings.STGY_AI_PROVIDER = "none"
    posts = [make_post(owner, f"Post number {i} about gardening and tomatoes.") for i in range(n)]
    settings.STGY_AI_PROVIDER = "offline"
    return posts


def _age(posts, seconds: int = 3600) -> None:
    PostSummary.objects.filter(post__in=posts).update(
        source_updated_at=timezone.now() - timedelta(seconds=seconds)
    )


@contextlib.contextmanager
def broker(url: str):
    """Point the Celery app at `url` with eager mode off, as a deployment with a
    broker is; afterwards restore the test configuration and drop pooled connections."""
    conf = celery_app.conf
    saved = (conf.broker_url, conf.task_always_eager)

    def reset_pools():
        celery_app._pool = None
        celery_app.amqp._producer_pool = None

    conf.broker_url, conf.task_always_eager = url, False
    reset_pools()
    try:
        yield
    finally:
        drain_publishes()  # the publisher thread is done with this broker
        conf.broker_url, conf.task_always_eager = saved
        reset_pools()


@pytest.mark.django_db
def test_sweep_queues_missing_and_stale_oldest_first_and_bounded(offline, settings, human, queued):
    posts = _pending_posts(settings, human, 4)
    _age(posts)
    # One post has a summary made with another embedding model: stale, so due again.
    PostSummary.objects.filter(post=posts[1]).update(summary="old", embedding_model="retired-model")
    assert summaries_sweep(batch=3) == 3
    assert queued == [p.id for p in posts[:3]]


@pytest.mark.django_db
def test_sweep_skips_recent_posts_and_puts_failures_last(offline, settings, human, queued):
    posts = _pending_posts(settings, human, 3)
    _age(posts[:2])
    PostSummary.objects.filter(post=posts[0]).update(attempts=2)
    settings.STGY_AI_SUMMARY_SWEEP_MIN_AGE_SECONDS = 600
    assert summaries_sweep() == 2
    assert queued == [posts[1].id, posts[0].id]


@pytest.mark.django_db
def test_sweep_does_nothing_when_ai_is_off(settings, human, queued):
    posts = _pending_posts(settings, human, 2)
    _age(posts)
    settings.STGY_AI_PROVIDER = "none"
    assert summaries_sweep() == 0 and queued == []


@pytest.mark.django_db
def test_beat_task_summarises_pending_posts(offline, settings, human):
    posts = _pending_posts(settings, human, 2)
    _age(posts)
    assert sweep_summaries.apply().get() == 2
    assert not PostSummary.objects.filter(post__in=posts, summary__isnull=True).exists()
    assert sweep_summaries.apply().get() == 0


@pytest.mark.django_db
def test_post_created_while_broker_is_down_is_summarised_by_the_sweep(
    offline, settings, human, django_capture_on_commit_callbacks, caplog
):
    client = login_client(human)
    started = time.monotonic()
    with broker(CLOSED_BROKER):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                "/api/posts", {"content": "Tomatoes need deep watering.", "tags": []}, format="json"
            )
    assert response.status_code == 201, response.content
    assert time.monotonic() - started < 30
    assert "could not enqueue agents.summarize_post" in caplog.text
    post_id = int(response.json()["id"], 16)
    assert PostSummary.objects.get(post_id=post_id).summary is None

    # The broker is back (eager again); the next sweep picks the post up.
    settings.STGY_AI_SUMMARY_SWEEP_MIN_AGE_SECONDS = 0
    assert summaries_sweep() == 1
    row = PostSummary.objects.get(post_id=post_id)
    assert row.summary and len(bytes(row.features)) == 512


@pytest.mark.django_db
def test_summarize_command_missing_all_and_ids(offline, settings, human):
    posts = _pending_posts(settings, human, 3)
    out = StringIO()
    call_command("summarize", "--missing", stdout=out)
    text = out.getvalue()
    assert "3/3 (100%)" in text and "stored 3" in text
    assert not PostSummary.objects.filter(summary__isnull=True).exists()

    out = StringIO()
    call_command("summarize", id_to_hex(posts[0].id), stdout=out)
    assert "1 posts: stored 1" in out.getvalue()

    out = StringIO()
    call_command("summarize", "--all", stdout=out)
    assert "stored 3" in out.getvalue()

    with pytest.raises(CommandError):
        call_command("summarize", "not-an-id", stdout=StringIO())


def test_summarize_command_refuses_when_ai_is_off(settings):
    settings.STGY_AI_PROVIDER = "none"
    with pytest.raises(CommandError, match="AI is off"):
        call_command("summarize", "--missing", stdout=StringIO())
