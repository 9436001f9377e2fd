"""An AI outage never stops humans: with the model's endpoint dead, logging in, reading,
posting, replying, liking and the home page all work, and quickly."""

from __future__ import annotations

import time

import pytest
from django.test import override_settings

from agents.llm import gateway
from agents.models import LlmUsage, PostSummary
from tests.clients import APIClient
from tests.factories import PASSWORD, make_post

pytestmark = pytest.mark.django_db


def _timed(call):
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def test_humans_use_the_site_while_the_model_is_dead(
    dead_model, human, follower, settings, django_capture_on_commit_callbacks
):
    settings.STGY_AI_MAX_RETRIES = 3
    with override_settings(STGY_AI_PROVIDER="none"):
        their_post = make_post(follower, "A post written before the outage.")
    client = APIClient()

    response = client.post("/api/auth", {"email": human.email, "password": PASSWORD}, format="json")
    assert response.status_code == 200
    assert client.get("/api/posts").status_code == 200

    # The summary task runs inline here (in production it is queued on commit): its
    # failure stays in the summary row and the post is written all the same.
    with django_capture_on_commit_callbacks(execute=True):
        response, elapsed = _timed(
            lambda: client.post(
                "/api/posts", {"content": "Hello while the AI sleeps", "tags": []}, format="json"
            )
        )
    assert response.status_code == 201, response.content
    assert elapsed < 3.0
    post_hex = response.json()["id"]
    summary = PostSummary.objects.get(post__content="Hello while the AI sleeps")
    assert summary.summary is None and "connection error" in summary.last_error.lower()
    # The summary's failures, retries and all, opened the breaker.
    assert gateway.breaker_state()["state"] == "open"
    errors = LlmUsage.objects.filter(outcome="error").count()
    assert errors == settings.STGY_AI_BREAKER_FAILURES

    with django_capture_on_commit_callbacks(execute=True):
        response, elapsed = _timed(
            lambda: client.post(
                "/api/posts",
                {"content": "Replying to myself", "tags": [], "replyTo": post_hex},
                format="json",
            )
        )
    assert response.status_code == 201
    assert elapsed < 1.0  # the reply's summary was refused without trying the dead port
    assert LlmUsage.objects.filter(outcome="error").count() == errors
    assert LlmUsage.objects.filter(outcome="refused").count() == 1

    assert client.post(f"/api/posts/{their_post.hex_id}/like").status_code in (200, 201, 204)
    assert their_post.likes.filter(user=human).exists()
    page = client.get("/")
    assert page.status_code == 200
    assert "Hello while the AI sleeps" in page.content.decode()
    assert client.get("/api/posts").status_code == 200
