"""The gates in front of answering a direct message, at and beyond their boundaries;
a refusal sends nothing and makes no model call."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from agents.models import AttentionEvent, LlmUsage
from agents.respond.facts_message import CONVERSATION_LIMIT
from agents.respond.run import respond_run
from sns import services
from sns.models import User
from sns.models.messages import Message
from sns.services import boundaries
from tests.factories import make_ai_user, make_user

from .helpers import dm, message_quietly

pytestmark = pytest.mark.django_db


def refused_by(ai, event) -> str | None:
    before = Message.objects.filter(sender=ai).count()
    run = respond_run(ai.id)
    event.refresh_from_db()
    record = next(r for r in run.details["events"] if r["eventId"] == event.pk)
    if event.status == "answered":
        assert Message.objects.filter(sender=ai).count() == before + 1
        return None
    assert event.status == "refused", (event.status, event.outcome)
    last = record["gates"][-1]
    assert last["verdict"] == "refuse" and event.outcome == f"{last['gate']}: {last['why']}"
    assert Message.objects.filter(sender=ai).count() == before
    assert not LlmUsage.objects.filter(run=run).exists()
    return last["gate"]


def test_ai_messages_switched_off_after_sending():
    ai, person, _, event = dm()
    boundaries.ai_boundaries_update(person, person.id, allow_messages=False)
    assert refused_by(ai, event) == "boundaries"
    assert event.outcome.endswith("the user does not accept messages from AI users")


def test_the_reply_switch_does_not_stop_a_message_answer():
    ai, person, _, event = dm()
    boundaries.ai_boundaries_update(person, person.id, allow_replies=False)
    assert refused_by(ai, event) is None


def test_the_person_stopped_this_ai_user():
    ai, person, _, event = dm()
    boundaries.ai_stop_add(person, ai.id)
    assert refused_by(ai, event) == "boundaries"


@pytest.mark.parametrize("who", ["ai", "sender"])
def test_frozen(who):
    ai, person, _, event = dm()
    User.objects.filter(pk=(ai if who == "ai" else person).pk).update(is_frozen=True)
    ai.refresh_from_db()
    assert refused_by(ai, event) == ("ai_user_active" if who == "ai" else "sender_active")


@pytest.mark.parametrize("direction", ["person blocks", "ai blocks"])
def test_blocks_either_way(direction):
    ai, person, _, event = dm()
    if direction == "person blocks":
        services.block_add(person, ai.id)
    else:
        services.block_add(ai, person.id)
    assert refused_by(ai, event) == "blocks"


def test_a_deleted_message():
    ai, _, message, event = dm()
    Message.objects.filter(pk=message.pk).delete()
    assert refused_by(ai, event) == "message_exists"


def test_a_burst_of_messages_gets_one_answer_to_the_newest():
    ai, person, _, first = dm(text="Hello?")
    *_, second = dm(ai=ai, person=person, text="Are you there? I wanted to ask about rye.")
    run = respond_run(ai.id)
    first.refresh_from_db(), second.refresh_from_db()
    assert first.outcome == "not_answered: a newer message of the sender is answered instead"
    assert second.status == "answered"
    assert Message.objects.filter(sender=ai).count() == 1
    assert [r["result"] for r in run.details["events"]] == ["refused", "answered"]


def ai_messages(ai, person, n):
    """`n` messages the AI user sent `person` (by any path: the caps count writes)."""
    for i in range(n):
        message_quietly(ai, person, f"A thought about rye ({i}).")


def test_hourly_message_limit_of_the_ai_user(settings):
    settings.STGY_AI_USER_HOURLY_MESSAGES_LIMIT = 2
    ai = make_ai_user("Aiko")
    for _ in range(2):
        ai_messages(ai, make_user(), 1)
    *_, event = dm(ai=ai, person=make_user())
    assert refused_by(ai, event) == "hourly_messages"
    settings.STGY_AI_USER_HOURLY_MESSAGES_LIMIT = 3
    *_, again = dm(ai=ai, person=make_user())
    assert refused_by(ai, again) is None


@pytest.mark.parametrize(("sent", "refused"), [(1, False), (2, True)])
def test_per_person_limit_for_someone_who_is_not_answering(sent, refused):
    """The AI user's messages are out of sight: the person wrote a whole screen of
    messages after them, so the newest does not answer the AI user.
    STGY_AI_USER_HOURLY_MESSAGES_TO_ONE_LIMIT (2) messages an hour then."""
    ai, person = make_ai_user("Aiko"), make_user("Mina")
    services.follow_add(ai, person.id)
    ai_messages(ai, person, sent)
    for i in range(CONVERSATION_LIMIT):
        message_quietly(person, ai, f"And another thing ({i}).")
    AttentionEvent.objects.filter(user=ai).delete()  # only the newest is asked here
    *_, event = dm(ai=ai, person=person, text="One more thing about rye.")
    assert refused_by(ai, event) == ("hourly_to_person" if refused else None)


def test_per_person_limit_waived_while_the_person_is_answering():
    ai, person = make_ai_user("Aiko"), make_user("Mina")
    for i in range(4):  # four real exchanges: the person answers each of the AI's messages
        *_, event = dm(ai=ai, person=person, text=f"Question {i} about rye?")
        assert refused_by(ai, event) is None
    assert Message.objects.filter(sender=ai).count() == 4


def test_query_count_of_a_run_with_a_message_event():
    ai, *_ = dm()
    with CaptureQueriesContext(connection) as queries:
        run = respond_run(ai.id)
    assert run.details["events"][0]["result"] == "answered"
    # owed check, run record, lease, claim, rate counts; per message the message, the
    # sender, the member row, the newest messages (two), boundaries (two), back-off
    # (two), budget, usage row, and the send with its accept check, the event update and
    # the relationship (two); whether the person lets AI users remember her, and the
    # recent texts the near-duplicate check compares with (agents/runs/near_duplicate.py:
    # one UNION ALL on PostgreSQL, one read per kind elsewhere).
    print(f"\nrespond run with one message event: {len(queries)} queries")
    assert len(queries) <= (49 if connection.vendor == "postgresql" else 52)


def test_ai_to_ai_when_switched_on_is_answered_like_a_persons(settings):
    settings.STGY_RESPOND_AI_MESSAGES = True
    ai, other = make_ai_user("Aiko"), make_ai_user("Bo")
    services.follow_add(ai, other.id)
    message_quietly(other, ai, "Hello, fellow bot.")
    respond_run(ai.id)
    assert Message.objects.filter(sender=ai).count() == 1


def test_ai_to_ai_switched_on_still_breaks_the_loop(settings):
    """With AI-to-AI messages on and both AI users answering through the real hook and
    task (inline in tests), an opening message gets one answer and no more."""
    from django.test import TestCase

    from sns.services import messages

    settings.STGY_RESPOND_AI_MESSAGES = True
    aiko, kenji = make_ai_user("Aiko"), make_ai_user("Kenji")
    services.follow_add(aiko, kenji.id), services.follow_add(kenji, aiko.id)
    with TestCase.captureOnCommitCallbacks(execute=True):
        messages.message_send(kenji, aiko.id, content="Hello Aiko, do you bake rye?")
    assert Message.objects.filter(sender=aiko).count() == 1  # Aiko answered
    assert Message.objects.filter(sender=kenji).count() == 1  # Kenji did not answer back
    assert AttentionEvent.objects.count() == 1
