"""Direct messages to AI users: the hook records a `message` event, the respond run
answers it through the message service as the AI user, a request is accepted by
answering (or left by the model's no), a redelivery never sends twice, and messages
from AI users record nothing while STGY_RESPOND_AI_MESSAGES is off."""

from __future__ import annotations

import pytest
from django.test import TestCase

from agents.models import AttentionEvent
from agents.respond.run import respond_run
from sns.models.messages import ConversationMember, Message
from sns.services import messages
from tests.factories import make_ai_user, make_user

from .helpers import answer_json, dm, message_quietly

pytestmark = pytest.mark.django_db


def sent_by(user) -> list[Message]:
    return list(Message.objects.filter(sender=user).order_by("id"))


def test_a_message_to_an_ai_user_is_answered_by_message():
    ai, person, message, event = dm()
    assert (event.kind, event.sender_id, event.post_id) == ("message", person.id, None)
    run = respond_run(ai.id)
    [answer] = sent_by(ai)
    assert answer.conversation_id == message.conversation_id
    assert "Mina" in answer.content  # the stand-in addresses the sender by nickname
    event.refresh_from_db()
    assert (event.status, event.outcome) == ("answered", answer.hex_id)
    [record] = run.details["events"]
    assert record["kind"] == "message" and record["messageId"] == message.hex_id
    assert record["answerMessageId"] == answer.hex_id
    assert [g["gate"] for g in record["gates"]] == [
        "ai_enabled",
        "ai_user_active",
        "message_exists",
        "sender_active",
        "blocks",
        "boundaries",
        "backoff",
        "not_answered",
        "hourly_fleet",
        "hourly_messages",
        "hourly_to_person",
        "budget",
    ]
    assert record["llm"]["task"] == "respond-message"


def test_a_redelivered_run_does_not_send_twice():
    ai, _, _, event = dm()
    respond_run(ai.id)
    # A redelivery: the event is taken back as claimed by a dead run, and run again.
    AttentionEvent.objects.filter(pk=event.pk).update(status="claimed")
    run = respond_run(ai.id)
    assert len(sent_by(ai)) == 1
    [record] = run.details["events"]
    assert record["result"] == "refused" and record["reason"].startswith("not_answered")


def test_a_request_is_accepted_by_answering_it():
    ai, person, message, event = dm(follow=False)
    member = ConversationMember.objects.get(user=ai, peer=person)
    assert member.is_request
    run = respond_run(ai.id)
    member.refresh_from_db()
    assert (member.is_request, member.accepted) == (False, True)
    assert len(sent_by(ai)) == 1
    assert run.details["events"][0]["request"] == "accepted"


def test_a_request_the_model_declines_is_left_in_requests(settings, llm_server):
    ai, person, _, event = dm(follow=False)
    llm_server.push_chat('{"answer": false, "content": ""}')
    respond_run(ai.id)
    assert '"isRequest":true' in llm_server.chat_requests()[-1].prompt
    event.refresh_from_db()
    assert (event.status, event.outcome) == (
        "refused",
        "model: ignored the message request (left in Requests)",
    )
    assert ConversationMember.objects.get(user=ai, peer=person).is_request
    assert sent_by(ai) == []


def test_a_malformed_answer_fails_the_event_and_sends_nothing(settings, llm_server):
    ai, _, _, event = dm()
    llm_server.push_chat('{"answer": "yes", "content": "Sure!"}')
    respond_run(ai.id)
    event.refresh_from_db()
    assert event.status == "failed" and event.outcome.startswith("model:")
    assert sent_by(ai) == []


def test_ai_to_ai_messages_record_no_event_unless_switched_on(settings):
    ai, other = make_ai_user("Aiko"), make_ai_user("Bo")
    message_quietly(other, ai, "Hello from one AI user to another.")
    assert not AttentionEvent.objects.exists()
    settings.STGY_RESPOND_AI_MESSAGES = True
    message_quietly(other, ai, "And again.")
    assert AttentionEvent.objects.filter(user=ai, kind="message", sender=other).count() == 1


def test_a_message_to_a_person_records_nothing():
    ai, person = make_ai_user("Aiko"), make_user("Mina")
    message_quietly(ai, person, "Hello Mina.")
    message_quietly(make_user("Bo"), person, "Hi.")
    assert not AttentionEvent.objects.exists()


def test_with_ai_off_a_message_records_nothing(settings):
    settings.STGY_AI_PROVIDER = "none"
    ai, person = make_ai_user("Aiko"), make_user("Mina")
    message_quietly(person, ai, "Hello?")
    assert not AttentionEvent.objects.exists()


def test_the_hook_runs_the_respond_task_after_the_send(settings):
    """End to end through the real hook and task (inline in tests): the answer is there
    when the send's after-commit work is done."""
    ai, person = make_ai_user("Aiko"), make_user("Mina")
    with TestCase.captureOnCommitCallbacks(execute=True):
        messages.message_send(person, ai.id, content="Which flour do you like for rye bread?")
    assert len(sent_by(ai)) == 1
    assert AttentionEvent.objects.get(user=ai).status == "answered"


def test_the_prompt_shows_the_conversation_oldest_first(settings, llm_server):
    ai, person, *_ = dm(text="First question about rye.")
    llm_server.push_chat(answer_json(content="First answer."))
    respond_run(ai.id)
    *_, event = dm(ai=ai, person=person, text="Second question, about spelt.")
    llm_server.push_chat(answer_json(content="Second answer."))
    respond_run(ai.id)
    prompt = llm_server.chat_requests()[-1].prompt
    first, answer, second = (
        prompt.index(t) for t in ("First question", "First answer", "Second question")
    )
    assert first < answer < second
    assert '"author":"Aiko","isSelf":true' in prompt
    assert '"isRequest"' not in prompt  # false is left out, as every empty input field


def test_the_stand_in_answers_a_message_without_content_words_as_a_message():
    ai, _, _, event = dm(text="?!")
    respond_run(ai.id)
    [answer] = sent_by(ai)
    # The plain answer of a direct message, not the one that speaks of a reply.
    assert "reply" not in answer.content
    assert "Thanks for the message" in answer.content or "thanks for writing" in answer.content
