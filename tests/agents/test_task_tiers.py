"""The cascade's task → tier map (agents/llm/task_tiers.py), and JSON mode on every call
of a task that expects JSON, read off the requests the local OpenAI-compatible server
received."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agents import prompts
from agents.llm.task_tiers import JUDGING_TASKS, WRITING_TASKS, task_tier, task_tiers
from agents.models import LlmUsage
from agents.runs.llm_calls import LlmJob, run_job
from tests.factories import make_post

AGENTS_DIR = Path(__file__).resolve().parents[2] / "agents"


def test_every_prompt_task_is_judging_or_writing():
    assert set(JUDGING_TASKS) | set(WRITING_TASKS) == set(prompts.AGENT_TASKS) | {
        prompts.SUMMARY_TASK
    }
    assert not set(JUDGING_TASKS) & set(WRITING_TASKS)


def test_judging_on_basic_writing_on_the_ai_users_own_tier():
    for task in JUDGING_TASKS:
        assert task_tier(task, "advanced") == "basic", task
    for task in WRITING_TASKS:
        assert task_tier(task, "advanced") == "advanced", task
    assert task_tier("post-summary", None) == "basic"  # a summary is on no one's behalf


def test_a_pinned_ai_user_uses_its_own_tier_for_everything():
    for task in (*JUDGING_TASKS, *WRITING_TASKS):
        assert task_tier(task, "balanced", pinned=True) == "balanced", task


def test_the_judging_tier_and_single_tasks_are_settings(settings, caplog):
    settings.STGY_AI_JUDGING_TIER = "balanced"
    assert task_tier("post-impressions", "advanced") == "balanced"
    settings.STGY_AI_JUDGING_TIER = "own"
    assert task_tier("post-impressions", "advanced") == "advanced"
    assert task_tier("post-summary", None) == "basic"

    settings.STGY_AI_JUDGING_TIER = "basic"
    settings.STGY_AI_TASK_TIERS = "interest=own, reply-post=basic, nonsense=basic, new-post=huge"
    table = task_tiers()
    assert table["interest"] == "own" and table["reply-post"] == "basic"
    assert (
        table["new-post"] == "own" and "nonsense" not in table
    )  # bad entries ignored, with a warning
    assert task_tier("interest", "advanced") == "advanced"
    assert task_tier("reply-post", "advanced") == "basic"
    assert task_tier("peer-impressions", "advanced") == "basic"  # the rest keeps its default
    assert "nonsense=basic" in caplog.text and "new-post=huge" in caplog.text


# ------------------------------------------------------------------ JSON mode, every task


def test_only_four_places_call_the_model(settings):
    """Every chat call of the site goes through one of these; the two that ask for JSON
    are tested below, the proxy sends JSON mode when its caller asks (test_ai_api.py),
    and an admin's replay resends a traced call with the JSON mode it was sent with
    (tests/agents/test_call_traces.py)."""
    callers = sorted(
        str(path.relative_to(AGENTS_DIR))
        for path in AGENTS_DIR.rglob("*.py")
        if re.search(r"\bgateway\.chat\(", path.read_text(encoding="utf-8"))
    )
    assert callers == ["api/ai_views.py", "llm/replay.py", "runs/llm_calls.py", "summaries/service.py"]


@pytest.mark.parametrize("task", prompts.AGENT_TASKS)
def test_every_ai_user_task_is_sent_in_json_mode_on_its_tier(task, llm_server, ai_user):
    """Every task of the cycle and of the respond path is one `run_job`: its request asks
    for JSON, on the model of the tier the cascade gives it; a prose answer is that
    item's recorded failure."""
    llm_server.push_chat("I think this post is lovely.")
    job = LlmJob(
        key=task,
        task=task,
        locale="en",
        payload={"post": {"content": "Bread"}},
        max_chars=200,
        tag_num=3,
        parse=lambda text: json.loads(text),
    )
    tier = task_tier(task, "advanced")
    usage = run_job(
        job, profile={"nickname": "Aiko"}, tier=tier, user_id=ai_user.id, run_id=None, stage="test"
    )

    (request,) = llm_server.chat_requests()
    assert request.body["response_format"] == {"type": "json_object"}
    expected = settings_model(tier)
    assert request.body["model"] == expected
    assert job.result is None and "JSONDecodeError" in job.error
    (row,) = usage
    assert (row.task, row.model, row.outcome) == (task, expected, "ok")


def settings_model(tier: str) -> str:
    from agents.llm.gateway import model_for_tier

    return model_for_tier(tier)


@pytest.mark.django_db
def test_the_summary_is_sent_in_json_mode_and_prose_fails_that_post(llm_server, human):
    from agents.models import PostSummary

    llm_server.push_chat("This post is about a telescope.")  # prose, not JSON
    post = make_post(human, "Jupiter and four moons through a small telescope tonight.")
    (request,) = llm_server.chat_requests()
    assert request.body["response_format"] == {"type": "json_object"}
    assert request.body["model"] == settings_model("basic")
    row = PostSummary.objects.get(post=post)
    assert row.summary is None and row.attempts == 1 and row.last_error  # recorded, not stored
    assert LlmUsage.objects.get(task="post-summary").model == settings_model("basic")
