"""Respond runs on the Agent activity page, the run detail and the Django admin, with
their kind visible and every gate's verdict readable."""

from __future__ import annotations

import pytest
from django.test import Client

from agents.models import AttentionEvent, CycleRun
from agents.respond.run import respond_run
from agents.runs.record import run_record_json
from sns import services

from .helpers import conversation

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def runs():
    ai, person, _, _, _ = conversation()
    answered = respond_run(ai.id)
    *_, refused_event = conversation(ai=ai, person=person)
    services.block_add(person, ai.id)
    refused = respond_run(ai.id)
    return answered, refused, refused_event


def test_activity_lists_respond_runs_with_their_kind_and_outcome(admin, runs):
    answered, refused, _ = runs
    body = client_of(admin).get("/agents/activity").content.decode()
    assert body.count('class="kind-respond">respond</td>') == 2
    assert "1 events: 1 answered" in body and "1 events: 1 refused" in body
    assert f"/agents/runs/{answered.pk}" in body and f"/agents/runs/{refused.pk}" in body


def test_run_detail_shows_gates_the_call_and_the_answer(admin, runs):
    answered, refused, _ = runs
    body = client_of(admin).get(f"/agents/runs/{answered.pk}").content.decode()
    assert "Respond run #" in body and "respond-events" in body
    assert "loop_breaker: pass" in body and "budget: pass" in body
    reply_id = answered.details["events"][0]["replyId"]
    assert f'href="/posts/{reply_id}"' in body and "offline / gpt-5.6-terra" in body
    body = client_of(admin).get(f"/agents/runs/{refused.pk}").content.decode()
    assert "blocks: refuse (the sender blocks the AI user)" in body and "none</td>" in body


def test_run_record_json_carries_the_kind(runs):
    answered, _, _ = runs
    record = run_record_json(CycleRun.objects.select_related("user").get(pk=answered.pk))
    assert record["kind"] == "respond" and record["details"]["events"][0]["result"] == "answered"


def test_admin_lists_runs_by_kind_and_events_read_only(admin, runs):
    _, refused, event = runs
    client = client_of(admin)
    runs_page = client.get("/admin/agents/cyclerun/?kind__exact=respond")
    assert runs_page.status_code == 200 and f"/admin/agents/cyclerun/{refused.pk}/change/" in runs_page.content.decode()
    events_page = client.get("/admin/agents/attentionevent/")
    text = events_page.content.decode()
    assert events_page.status_code == 200 and "blocks: the sender blocks the AI user" in text
    detail = client.get(f"/admin/agents/attentionevent/{event.pk}/change/")
    assert detail.status_code == 200 and event.post.hex_id in detail.content.decode()
    assert client.post(f"/admin/agents/attentionevent/{event.pk}/delete/").status_code == 403
    assert AttentionEvent.objects.filter(pk=event.pk).exists()
