"""The cycle while the model is down: the dispatcher starts nothing and resumes on its
own, and the stages of a cycle already running fail at once instead of retrying."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from agents.cycle import STAGES
from agents.cycle.run import cycle_begin, cycle_end, stage_execute
from agents.cycle.tasks import dispatch_cycles
from agents.llm import gateway
from agents.models import AgentState, CycleRun, LlmUsage
from sns.models import Post
from tests.llm_down import open_breaker

from .helpers import make_site, push_answers

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _breaker(settings):
    settings.STGY_AI_BREAKER_FAILURES = 2
    settings.STGY_AI_BREAKER_COOLDOWN_SECONDS = 30


def _due(user):
    due_at = timezone.now() - timedelta(minutes=5)
    AgentState.objects.update_or_create(user=user, defaults={"next_run_at": due_at})
    return due_at


def _messages(caplog, text: str) -> int:
    return sum(text in record.getMessage() for record in caplog.records)


def test_dispatcher_pauses_while_open_and_resumes_by_itself(
    model_server, settings, wall_clock, caplog
):
    caplog.set_level(logging.INFO, logger="agents")
    ai, _ = make_site(cosines=(100,))
    due_at = _due(ai)
    open_breaker(model_server, settings)

    for _ in range(3):
        assert dispatch_cycles.apply().get() == 0
    assert not CycleRun.objects.exists()
    assert AgentState.objects.get(user=ai).next_run_at == due_at  # still due, not claimed
    assert len(model_server.chat_requests()) == 2  # no probe during the cool-down
    assert _messages(caplog, "AI cycles paused") == 1

    wall_clock.advance(31)
    push_answers(model_server)
    assert dispatch_cycles.apply().get() == 1
    probe = model_server.chat_requests()[2]
    assert probe.body["max_completion_tokens"] == 1  # the dispatcher's one-token probe
    assert gateway.breaker_state()["state"] == "closed"
    run = CycleRun.objects.get(user=ai)
    assert run.status == "done"
    assert run.stages["post_impressions"]["outcome"] == "ok"
    assert _messages(caplog, "AI cycles resumed") == 1
    assert _messages(caplog, "AI cycles paused") == 1


def test_a_failed_probe_keeps_the_dispatcher_paused(model_server, settings, wall_clock):
    ai, _ = make_site(cosines=(100,))
    due_at = _due(ai)
    open_breaker(model_server, settings)
    wall_clock.advance(31)
    model_server.push_chat(status=503)
    assert dispatch_cycles.apply().get() == 0
    assert len(model_server.chat_requests()) == 3  # the probe, asked once
    assert gateway.breaker_state()["state"] == "open"
    assert not CycleRun.objects.exists()
    assert AgentState.objects.get(user=ai).next_run_at == due_at


def test_stages_of_a_running_cycle_fail_fast_while_open(model_server, settings):
    settings.STGY_AI_MAX_RETRIES = 3
    ai, _ = make_site(cosines=(100, 90))
    run = cycle_begin(ai.id)
    stage_execute(run.pk, "select_posts")
    open_breaker(model_server, settings)
    requests_before = len(model_server.requests)

    started = time.monotonic()
    for stage in STAGES[1:]:
        stage_execute(run.pk, stage)
    run = cycle_end(run.pk)
    assert time.monotonic() - started < 2.0
    assert len(model_server.requests) == requests_before  # nothing reached the model
    for stage in ("post_impressions", "interest_update"):
        record = run.stages[stage]
        assert record["outcome"] == "failed", (stage, record)
        assert (
            "LlmUnavailable" in record["error"] and "ai service is unavailable" in record["error"]
        )
    assert run.status == "done"  # every stage ran and was recorded


def test_a_breaker_opening_mid_stage_fails_the_stage(model_server, settings):
    settings.STGY_AI_BREAKER_FAILURES = 1
    settings.STGY_AI_MAX_RETRIES = 0
    ai, posts = make_site(cosines=(100, 90))
    # Posts of one language are judged in one call; two languages make two calls.
    Post.objects.filter(pk=posts[1].pk).update(locale="ja-JP")
    run = cycle_begin(ai.id)
    stage_execute(run.pk, "select_posts")
    model_server.push_chat(status=503)  # the first post's call fails and opens it
    record = stage_execute(run.pk, "post_impressions")
    assert record["outcome"] == "failed" and "LlmUnavailable" in record["error"]
    assert len(model_server.chat_requests()) == 1  # the second post's call was refused
    outcomes = sorted(LlmUsage.objects.filter(run=run).values_list("outcome", flat=True))
    assert outcomes == ["error", "refused"]
