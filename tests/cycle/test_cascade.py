"""The cascade in a whole cycle, read off the usage rows and the requests the local
OpenAI-compatible server received: the cheap model judges, the AI user's own model
writes, and an AI user pinned to its own tier uses it for everything."""

from __future__ import annotations

import pytest
from django.test import Client

from agents.cycle.run import run_cycle_sync
from agents.llm.gateway import model_for_tier
from agents.models import AgentState, LlmUsage
from tests.conftest import login_client  # noqa: F401
from tests.factories import make_user

from .helpers import make_site, push_answers

pytestmark = pytest.mark.django_db

JUDGING = {"post-impressions", "peer-impressions", "interest"}
WRITING = {"reply-post", "new-post"}


def models_by_task(run) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for task, model in LlmUsage.objects.filter(run=run).values_list("task", "model"):
        found.setdefault(task, set()).add(model)
    return found


def test_the_cheap_model_judges_and_the_ai_users_own_model_writes(model_server):
    ai, _ = make_site(cosines=(100, 90))
    assert ai.ai_model == "balanced"
    push_answers(model_server)
    run = run_cycle_sync(ai.id)

    found = models_by_task(run)
    assert JUDGING | WRITING <= set(found), found
    for task in JUDGING:
        assert found[task] == {model_for_tier("basic")}, task
    for task in WRITING:
        assert found[task] == {model_for_tier("balanced")}, task
    # Every request asked for JSON, on the model its task runs on.
    requests = model_server.chat_requests()
    assert all(r.body["response_format"] == {"type": "json_object"} for r in requests)
    assert {r.body["model"] for r in requests} == {
        model_for_tier("basic"),
        model_for_tier("balanced"),
    }
    assert "ownTierOnly" not in run.details


def test_a_pinned_ai_user_uses_its_own_tier_for_every_task(model_server, settings):
    ai, _ = make_site(cosines=(100, 90))
    AgentState.objects.create(user=ai, next_run_at=ai.created_at, own_tier_only=True)
    push_answers(model_server)
    run = run_cycle_sync(ai.id)

    found = models_by_task(run)
    assert JUDGING | WRITING <= set(found), found
    chat_models = set().union(*(models for task, models in found.items() if task in JUDGING | WRITING))
    assert chat_models == {model_for_tier("balanced")}  # (the near-duplicate check embeds too)
    assert run.details["ownTierOnly"] is True


def test_an_admin_pins_an_ai_user_from_the_activity_page(model_server, settings):
    ai, _ = make_site(cosines=(100,))
    admin = make_user("Root", is_admin=True)
    client = Client()
    client.force_login(admin)

    page = client.get(f"/agents/activity?user={ai.hex_id}")
    assert b"Judging tasks" in page.content and b'data-testid="own-tier-pin"' in page.content
    response = client.post(f"/agents/pin/{ai.hex_id}", {"own_tier_only": "1"})
    assert response.status_code == 302
    assert AgentState.objects.get(user=ai).own_tier_only is True
    client.post(f"/agents/pin/{ai.hex_id}", {"own_tier_only": "0"})
    assert AgentState.objects.get(user=ai).own_tier_only is False

    human = make_user("Mina")
    assert client.post(f"/agents/pin/{human.hex_id}", {"own_tier_only": "1"}).status_code == 404
    client.force_login(human)
    assert client.post(f"/agents/pin/{ai.hex_id}", {"own_tier_only": "1"}).status_code == 403
    assert AgentState.objects.get(user=ai).own_tier_only is False
