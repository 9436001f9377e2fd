"""The respond path and a person who asked AI users not to remember them (aiMemory
"none"): her reply is still answered, but the AI user keeps a read marker of it without
text and no relationship, and the run record says so."""

from __future__ import annotations

import pytest

from agents.models import PostImpression, Relationship
from agents.respond.run import respond_run
from sns import services
from sns.models import Post

from .helpers import answer_json, conversation

pytestmark = pytest.mark.django_db


def test_her_reply_is_answered_and_nothing_of_her_is_kept(llm_server):
    ai, person, _, reply, _ = conversation()
    services.user_update(person, person.id, ai_memory="none")
    llm_server.push_chat(answer_json())

    run = respond_run(ai.id)

    assert Post.objects.filter(owner=ai, reply_to=reply.id).exists()
    assert PostImpression.objects.get(user=ai, post=reply).payload == ""
    assert not Relationship.objects.filter(user=ai, peer=person).exists()
    [record] = run.details["events"]
    assert record["result"] == "answered" and record["notRemembered"] is True


def test_with_memory_allowed_the_same_answer_is_remembered(llm_server):
    ai, person, _, reply, _ = conversation()
    llm_server.push_chat(answer_json())

    run = respond_run(ai.id)

    assert PostImpression.objects.get(user=ai, post=reply).payload != ""
    assert Relationship.objects.filter(user=ai, peer=person).exists()
    assert "notRemembered" not in run.details["events"][0]
