"""Boundaries said in words (agents/respond/stop.py): a message, reply or mention that
asks the AI user to stop sets the person's stop (48 hours, listed with the others,
undoable) — caught by the matcher before any model call, or by the model's `stop`
field — is acknowledged once with a fixed line, and nothing follows while it holds."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.models import CycleRun, Relationship
from agents.relationships import relationship_bump
from agents.respond.run import respond_run
from agents.respond.stop import ACKNOWLEDGEMENT
from sns.models import AiStop, Post
from sns.models.messages import Message
from sns.selectors.boundaries import ai_contact_allowed, ai_stops_list
from sns.services import boundaries
from tests.conftest import login_client
from tests.factories import make_ai_user, make_user

from .helpers import PERSONA, answer_json, conversation, dm, message_quietly

pytestmark = pytest.mark.django_db


def sent_by(user) -> list[Message]:
    return list(Message.objects.filter(sender=user).order_by("id"))


def test_please_stop_messaging_me_sets_the_stop_and_is_acknowledged_once(llm_server, settings):
    settings.STGY_AI_STOP_HOURS = 48
    ai, person, message, _event = dm(text="Thanks, but please stop messaging me.")
    before = timezone.now()
    run = respond_run(ai.id)
    # No model call: the matcher decided before it.
    assert llm_server.chat_requests() == []
    [stop] = ai_stops_list(person.id)
    assert (stop.ai_user_id, stop.source, stop.said_in) == (ai.id, "words", message.id)
    assert before + timedelta(hours=48) <= stop.until <= timezone.now() + timedelta(hours=48)
    [ack] = sent_by(ai)
    assert ack.content == ACKNOWLEDGEMENT["en"].format(nick="Mina")
    [record] = run.details["events"]
    assert record["result"] == "answered" and record["answerMessageId"] == ack.hex_id
    assert record["stop"]["detectedBy"] == "matcher" and record["stop"]["new"] is True
    assert record["stop"]["acknowledged"] is True
    assert "words" not in record["stop"]  # a message's text stays private
    assert "llm" not in record
    # The stop is the Stop button's: listed by the API and refusing every kind.
    listed = login_client(person).get(f"/api/users/{person.hex_id}/ai-stops").json()
    assert [(s["aiUserId"], s["source"]) for s in listed] == [(ai.hex_id, "words")]
    assert ai_contact_allowed(ai, person, "reply")[0] is False

    # The next message is not answered, and the stop is not extended by it.
    message_quietly(person, ai, "Also, how is the rye starter?")
    run = respond_run(ai.id)
    [record] = run.details["events"]
    assert record["result"] == "refused" and record["reason"].startswith("boundaries:")
    assert len(sent_by(ai)) == 1
    assert AiStop.objects.get(person=person).until == stop.until


def test_a_japanese_reply_asking_to_stop_is_acknowledged_in_japanese(llm_server):
    ai, person, _root, reply, _event = conversation(text="ごめんなさい、もう返信しないでください。")
    run = respond_run(ai.id)
    assert llm_server.chat_requests() == []
    [answer] = Post.objects.filter(owner=ai, reply_to=reply.id)
    assert answer.content == ACKNOWLEDGEMENT["ja"].format(nick="Mina")
    [record] = run.details["events"]
    assert record["stop"] == {
        "detectedBy": "matcher", "words": "返信しないで", "until": record["stop"]["until"], "new": True,
        "acknowledged": True,
    }
    assert AiStop.objects.get(person=person, ai_user=ai).said_in == reply.id


def test_the_model_may_add_a_stop_the_matcher_missed(llm_server):
    ai, person, message, _event = dm(text="I think I would like some distance from you for a while.")
    llm_server.push_chat(answer_json(stop=True, content="Oh no, but we were such good friends!"))
    run = respond_run(ai.id)
    [stop] = ai_stops_list(person.id)
    assert (stop.source, stop.said_in) == ("model", message.id)
    # The fixed line, not the model's words: no guilt-trip gets through.
    [ack] = sent_by(ai)
    assert ack.content == ACKNOWLEDGEMENT["en"].format(nick="Mina")
    [record] = run.details["events"]
    assert record["stop"]["detectedBy"] == "model" and record["llm"]["task"] == "respond-message"


def test_the_model_cannot_lift_or_shorten_a_stop(llm_server):
    ai, person = make_ai_user("Aiko", personality=PERSONA), make_user("Mina")
    forever = boundaries.ai_stop_add(person, ai.id, forever=True)
    # Words asking again leave the stop for good as it is.
    stop, new = boundaries.ai_stop_from_words(person, ai, said_in=1, source="model")
    assert (new, stop.until, stop.source) == (False, None, "button") and stop.pk == forever.pk
    boundaries.ai_stop_remove(person, ai.id)
    # A model's "stop": false after the person lifted it sets nothing; "stop" other
    # than a literal true is no stop either.
    dm(ai=ai, person=person, text="What do you bake on Sundays?")
    llm_server.push_chat(answer_json(stop="yes"))
    respond_run(ai.id)
    assert ai_stops_list(person.id) == []


def test_the_stop_is_recorded_even_when_a_gate_refuses_the_answer(settings):
    settings.STGY_AI_USER_HOURLY_MESSAGES_LIMIT = 0  # the hourly limit refuses any answer
    ai, person, _message, _event = dm(text="leave me alone")
    run = respond_run(ai.id)
    [record] = run.details["events"]
    assert record["result"] == "refused" and record["reason"].startswith("hourly_messages")
    assert record["stop"]["new"] is True and "acknowledged" not in record["stop"]
    assert sent_by(ai) == []
    assert AiStop.objects.filter(person=person, ai_user=ai, source="words").exists()


def test_a_stop_said_again_is_not_acknowledged_again():
    ai, person, _message, _event = dm(text="stop messaging me")
    respond_run(ai.id)
    message_quietly(person, ai, "I said: stop messaging me!")
    run = respond_run(ai.id)
    [record] = run.details["events"]
    assert record["result"] == "refused" and record["stop"]["new"] is False
    assert len(sent_by(ai)) == 1


def test_a_mention_asking_to_stop_stops_the_mentioned_ai_user():
    ai, person = make_ai_user("Aiko", personality=PERSONA), make_user("Mina")
    from .helpers import post_quietly

    post_quietly(person, "@Aiko please don't reply to me, I only want to read.")
    run = respond_run(ai.id)
    [record] = run.details["events"]
    assert record["kind"] == "mention" and record["stop"]["words"] == "don't reply to me"
    assert AiStop.objects.filter(person=person, ai_user=ai).exists()


def test_relationship_scores_freeze_while_a_stop_holds():
    ai, person = make_ai_user("Aiko", personality=PERSONA), make_user("Mina")
    now = timezone.now()
    Relationship.objects.create(user=ai, peer=person, score=0.5, updated_at=now)
    boundaries.ai_stop_add(person, ai.id)
    relationship_bump(ai.id, person.id, "like", at=now)
    relationship_bump(ai.id, person.id, "message", at=now)
    row = Relationship.objects.get(user=ai, peer=person)
    assert (row.score, row.updated_at) == (0.5, now)
    boundaries.ai_stop_remove(person, ai.id)
    relationship_bump(ai.id, person.id, "like", at=now)
    assert Relationship.objects.get(user=ai, peer=person).score > 0.5


def test_the_acknowledgement_moves_no_relationship():
    ai, person, _message, _event = dm(text="please stop messaging me")
    respond_run(ai.id)
    assert not Relationship.objects.filter(user=ai, peer=person).exists()
    assert CycleRun.objects.filter(user=ai, kind="respond").count() == 1


def test_the_person_can_lift_a_stop_said_in_words():
    ai, person, _message, _event = dm(text="もう連絡しないで")
    respond_run(ai.id)
    client = login_client(person)
    assert client.delete(f"/api/users/{person.hex_id}/ai-stops/{ai.hex_id}").status_code == 200
    assert ai_contact_allowed(ai, person, "message") == (True, "")
    assert ai_stops_list(person.id) == []
