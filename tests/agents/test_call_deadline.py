"""STGY_AI_CALL_DEADLINE_MS bounds the whole wall time of every model call, wherever it
is made: a model endpoint that sends its answer a byte at a time (which renews the SDK's
per-read timeout forever) or says nothing at all ends in a recorded failure at the
bound, and so holds a Celery worker no longer (agents/llm/http_deadline.py)."""

from __future__ import annotations

import pytest

from agents.embeddings.providers import OpenAiEmbedder
from agents.llm import gateway
from agents.llm.deadline import call_time_limit
from agents.llm.errors import LlmDeadlineExceeded
from agents.llm.retry import RetryPolicy
from agents.models import AttentionEvent, LlmUsage
from agents.respond.run import respond_run
from tests.llm_server import EMBEDDINGS_PATH
from tests.respond.helpers import conversation

pytestmark = pytest.mark.django_db

HELLO = [{"role": "user", "content": "hello"}]


@pytest.fixture
def hanging(llm_server, settings):
    """A model whose answers would take ~20 s, a byte every 50 ms; the SDK's timeout per
    wait (5 s) never trips, the call's deadline (400 ms) must."""
    settings.STGY_AI_RPC_TIMEOUT_MS = 5000
    settings.STGY_AI_CALL_DEADLINE_MS = 400
    settings.STGY_AI_MAX_RETRIES = 3
    llm_server.hang_chat(dribble=0.05, times=5)
    return llm_server


def test_a_dribbling_model_ends_in_a_recorded_failure_at_the_deadline(hanging):
    with pytest.raises(LlmDeadlineExceeded, match="400 ms time limit"):
        gateway.chat(messages=HELLO, tier="basic", task="probe")
    [usage] = LlmUsage.objects.all()
    assert (usage.task, usage.outcome) == ("probe", "error")
    assert "time limit" in usage.error and usage.attempts >= 1
    assert hanging.chat_requests(), "the call reached the model"
    assert gateway.breaker_state()["failures"] == 1  # a hang counts against the model


def test_a_silent_model_ends_at_the_deadline_not_after_every_attempts_timeout(llm_server, settings):
    settings.STGY_AI_RPC_TIMEOUT_MS = 5000
    settings.STGY_AI_CALL_DEADLINE_MS = 300
    llm_server.push_chat("ok", delay=30)
    with pytest.raises(LlmDeadlineExceeded):
        gateway.chat(messages=HELLO, tier="basic")
    assert len(llm_server.chat_requests()) == 1  # no retry after the time was spent


def test_embeddings_have_the_same_bound(llm_server, settings):
    settings.STGY_AI_RPC_TIMEOUT_MS = 5000
    settings.STGY_AI_CALL_DEADLINE_MS = 300
    llm_server.push(EMBEDDINGS_PATH, dribble=0.05)
    with pytest.raises(LlmDeadlineExceeded):
        OpenAiEmbedder("text-embedding-3-small").embed(["a post"])
    assert LlmUsage.objects.get(task="embedding").outcome == "error"


def test_an_answer_to_a_person_fails_at_the_bound_and_is_recorded(hanging):
    ai, _, _, _, event = conversation()
    run = respond_run(ai.id)
    event.refresh_from_db()
    assert event.status == AttentionEvent.Status.FAILED and "time limit" in event.outcome
    run.refresh_from_db()
    assert run.details["events"][0]["llm"]["outcome"] == "error"


def test_the_bound_is_the_shorter_of_the_call_deadline_and_a_web_requests(settings):
    settings.STGY_AI_RPC_TIMEOUT_MS = 600_000
    settings.STGY_AI_CALL_DEADLINE_MS = 180_000
    policy = RetryPolicy.from_settings()
    assert (policy.deadline, policy.timeout) == (180.0, 180.0)
    with call_time_limit(5.0):
        assert RetryPolicy.from_settings().deadline == 5.0
    settings.STGY_AI_CALL_DEADLINE_MS = 0  # no bound, as before the setting
    assert RetryPolicy.from_settings().deadline is None
    assert RetryPolicy.from_settings().timeout == 600.0
