"""An AI user writes first only to a friend (agents/cycle/outreach.py): someone who
follows it, is at least a friend, wrote to it within 30 days and allows AI messages;
never while its last message waits for an answer, never past the caps; one message a
cycle at most, through the rulebook, and every refusal recorded."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.cycle.context import StageContext
from agents.cycle.outreach import outreach
from agents.models import AttentionEvent, CycleRun, Relationship
from agents.relationships import relationship_now
from sns import services
from sns.models.messages import ConversationMember, Message
from sns.selectors.boundaries import person_zone
from sns.services import boundaries, messages
from tests.factories import make_ai_user, make_post, make_user

from .helpers import base_vector, give_interest

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _outreach_settings(settings):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_USER_OUTREACH_PROBABILITY = 1.0


def friend_of(ai, *, score=0.6, follows=True, wrote_days_ago=2, name="Mina"):
    person = make_user(name)
    if follows:
        services.follow_add(person, ai.id)
    Relationship.objects.create(user=ai, peer=person, score=score, updated_at=timezone.now())
    if wrote_days_ago is not None:
        AttentionEvent.objects.create(
            user=ai, kind="mention", sender=person, created_at=timezone.now() - timedelta(days=wrote_days_ago),
            status="answered",
        )
    make_post(person, "My rye sourdough starter finally doubled overnight after a week of feeding.")
    return person


def run_outreach(ai) -> dict:
    run = CycleRun.objects.create(user=ai, started_at=timezone.now(), details={})
    ctx = StageContext(run=run, stage="follow_management")
    outreach(ctx)
    return run.details["outreach"]


@pytest.fixture
def ai():
    user = make_ai_user("Aiko", personality="A cheerful baker who loves sourdough and rye flour.")
    give_interest(user, base_vector())
    return user


def sent_to(ai, person) -> list[Message]:
    low, high = sorted((ai.id, person.id))
    return list(Message.objects.filter(sender=ai, conversation__user_low_id=low, conversation__user_high_id=high))


def test_writes_to_a_friend_about_their_post(ai):
    person = friend_of(ai)
    record = run_outreach(ai)
    [looked] = record["candidates"]
    assert looked["result"] == "sent" and looked["level"] == "friend"
    [message] = sent_to(ai, person)
    assert looked["messageId"] == message.hex_id
    assert "Mina" in message.content and "(offline stand-in)" in message.content
    # The person follows the AI user: the message lands in their inbox, not Requests.
    member = ConversationMember.objects.get(user=person, peer=ai)
    assert member.is_request is False


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"score": 0.45}, "no friend"),  # an acquaintance
        ({"follows": False}, "no friend"),
        ({"wrote_days_ago": 31}, "no friend"),
        ({"wrote_days_ago": None}, "no friend"),
    ],
)
def test_only_a_friend_who_follows_and_wrote_lately(ai, fields, why):
    person = friend_of(ai, **fields)
    record = run_outreach(ai)
    assert record["skipped"].startswith(why)
    assert sent_to(ai, person) == []


def test_the_boundary_and_the_wait_for_an_answer(ai):
    person = friend_of(ai)
    boundaries.ai_boundaries_update(person, person.id, allow_messages=False)
    assert run_outreach(ai)["candidates"][0]["refused"].startswith("boundaries:")
    boundaries.ai_boundaries_update(person, person.id, allow_messages=True)
    assert run_outreach(ai)["candidates"][0]["result"] == "sent"
    # Its message is unanswered: no second one, however many cycles come.
    assert run_outreach(ai)["candidates"][0]["refused"] == "waiting: the AI user's last message is not answered yet"
    messages.message_send(person, ai.id, content="Yes! It doubled again today.")
    assert run_outreach(ai)["candidates"][0]["result"] == "sent"
    assert len(sent_to(ai, person)) == 2


def test_the_closest_friend_first_and_one_message_a_cycle(ai):
    friend = friend_of(ai, score=0.6, name="Mina")
    closer = friend_of(ai, score=0.9, name="Kai")
    record = run_outreach(ai)
    assert [c["nickname"] for c in record["candidates"]] == ["Kai"]
    assert len(sent_to(ai, closer)) == 1 and sent_to(ai, friend) == []


def test_the_hourly_cap_on_messages(ai, settings):
    settings.STGY_AI_USER_HOURLY_MESSAGES_LIMIT = 1
    person = friend_of(ai)
    messages.message_send(ai, make_user("Other").id, content="Hello there.")
    refused = run_outreach(ai)["candidates"][0]["refused"]
    assert refused == "hourly_messages: 1 messages in the last hour (limit 1)"
    assert sent_to(ai, person) == []


def test_no_ai_to_ai_messages_by_default(ai, settings):
    other = make_ai_user("Bo")
    services.follow_add(other, ai.id)
    Relationship.objects.create(user=ai, peer=other, score=0.9, updated_at=timezone.now())
    AttentionEvent.objects.create(user=ai, kind="mention", sender=other, created_at=timezone.now(), status="answered")
    assert run_outreach(ai)["candidates"][0]["refused"].startswith("ai_messages:")


def test_not_every_cycle(ai, settings):
    settings.STGY_AI_USER_OUTREACH_PROBABILITY = 0.0
    friend_of(ai)
    assert run_outreach(ai) == {"skipped": "not this cycle"}


def test_quiet_hours_hold_back_an_opener_but_not_an_answer(ai):
    from datetime import time as clock

    from agents.respond.run import respond_run
    from sns.models import User
    from tests.respond.helpers import message_quietly

    person = friend_of(ai)
    User.objects.filter(pk=person.pk).update(timezone="Asia/Tokyo")
    person.refresh_from_db()
    # Quiet all day but the minute that has just begun: "now" is always inside.
    now_there = timezone.now().astimezone(person_zone(person))
    start = clock(now_there.hour, now_there.minute)
    end = clock((now_there.hour + 23) % 24, now_there.minute)
    boundaries.ai_boundaries_update(person, person.id, quiet_start=f"{start:%H:%M}", quiet_end=f"{end:%H:%M}")
    [looked] = run_outreach(ai)["candidates"]
    assert looked["refused"].startswith("quiet_hours: quiet hours") and "(Asia/Tokyo)" in looked["refused"]
    assert sent_to(ai, person) == []
    # What she writes is still answered in her quiet hours.
    message_quietly(person, ai, "How is your rye starter doing today?")
    respond_run(ai.id)
    assert len(sent_to(ai, person)) == 1
    # Out of her quiet hours, the AI user may open again (once she has answered).
    boundaries.ai_boundaries_update(person, person.id, quiet_start=None, quiet_end=None)
    message_quietly(person, ai, "Thanks!")
    assert "refused" not in run_outreach(ai)["candidates"][0]


def test_an_opener_left_unanswered_for_a_day_lowers_the_relationship_once(ai):
    from sns.core.ids import min_id_at

    person = friend_of(ai, score=0.7)
    assert run_outreach(ai)["candidates"][0]["result"] == "sent"
    [opener] = sent_to(ai, person)
    # Within the day: waiting, nothing lost.
    before = Relationship.objects.get(user=ai, peer=person)
    [looked] = run_outreach(ai)["candidates"]
    assert looked["refused"] == "waiting: the AI user's last message is not answered yet"
    assert Relationship.objects.get(user=ai, peer=person).score == before.score
    # The same opener, sent 25 hours ago (a message's time is its id's), after the
    # last exchange.
    sent_at = timezone.now() - timedelta(hours=25)
    Message.objects.filter(pk=opener.pk).update(id=min_id_at(sent_at) + 1)
    Relationship.objects.filter(pk=before.pk).update(updated_at=sent_at - timedelta(hours=1))
    before.refresh_from_db()
    [looked] = run_outreach(ai)["candidates"]
    assert looked["refused"].endswith("(relationship lowered)")
    after = Relationship.objects.get(user=ai, peer=person)
    assert after.score == pytest.approx(relationship_now(before)["score"] - 0.01, abs=1e-3)
    # Once per opener: the next look lowers nothing more.
    [looked] = run_outreach(ai)["candidates"]
    assert looked["refused"] == "waiting: the AI user's last message is not answered yet"
    assert Relationship.objects.get(user=ai, peer=person).score == after.score
