"""Every gate in front of the model call, at and beyond its boundary. A refusal closes
the event as refused with the gate's reason, records every verdict up to it, and makes
no model call."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.llm.usage import usage_record
from agents.models import AttentionEvent, LlmUsage
from agents.respond.run import respond_run
from sns import services
from sns.core.ids import min_id_at
from sns.models import Post, User
from tests.factories import make_ai_user, make_user

from .helpers import conversation, post_quietly, reply_quietly

pytestmark = pytest.mark.django_db


def refused_by(ai, event) -> str | None:
    """Run the respond path; the gate that refused `event`, None if it was answered."""
    run = respond_run(ai.id)
    event.refresh_from_db()
    record = next(r for r in run.details["events"] if r["eventId"] == event.pk)
    if event.status == "answered":
        assert record["gates"][-1] == {"gate": "budget", "verdict": "pass"}
        return None
    assert event.status == "refused", (event.status, event.outcome)
    last = record["gates"][-1]
    assert last["verdict"] == "refuse" and all(g["verdict"] == "pass" for g in record["gates"][:-1])
    assert event.outcome == f"{last['gate']}: {last['why']}"
    assert not Post.objects.filter(idempotency_key=f"respond:{event.pk}").exists()
    assert not LlmUsage.objects.filter(run=run).exists()
    return last["gate"]


def test_ai_off_between_the_reply_and_the_run(settings):
    ai, *_, event = conversation()
    settings.STGY_AI_PROVIDER = "none"
    assert refused_by(ai, event) == "ai_enabled"


def test_with_ai_off_a_reply_records_no_event(settings):
    settings.STGY_AI_PROVIDER = "none"
    ai, person = make_ai_user("Aiko"), make_user("Mina")
    reply_quietly(person, post_quietly(ai, "Hello"), "Hi!")
    assert not AttentionEvent.objects.exists()


@pytest.mark.parametrize("who", ["ai", "sender"])
def test_frozen_ai_user_or_sender(who):
    ai, person, *_, event = conversation()
    User.objects.filter(pk=(ai if who == "ai" else person).pk).update(is_frozen=True)
    ai.refresh_from_db()
    assert refused_by(ai, event) == ("ai_user_active" if who == "ai" else "sender_active")


def test_the_sender_blocks_the_ai_user_after_replying():
    ai, person, *_, event = conversation()
    services.block_add(person, ai.id)
    assert refused_by(ai, event) == "blocks"
    assert "sender blocks" in event.outcome


def test_the_sender_accepts_no_strangers_unless_following_the_ai_user():
    ai, person, *_, event = conversation()
    services.user_update(person, person.id, block_strangers=True)
    assert refused_by(ai, event) == "blocks"
    _, _, _, _, second = conversation(ai=ai, person=person)
    services.follow_add(person, ai.id)
    assert refused_by(ai, second) is None


def test_the_ai_user_blocks_the_sender():
    ai, person, *_, event = conversation()
    services.block_add(ai, person.id)
    assert refused_by(ai, event) == "blocks"
    assert "AI user blocks" in event.outcome


def test_the_persons_post_allows_no_replies():
    ai, person = make_ai_user("Aiko"), make_user("Mina")
    reply = reply_quietly(person, post_quietly(ai, "Bread"), "Rye?", allow_replies=False)
    assert refused_by(ai, AttentionEvent.objects.get(post=reply)) == "allow_replies"


def test_the_persons_post_was_deleted():
    ai, person, _, reply, event = conversation()
    services.post_delete(person, reply.id)
    assert refused_by(ai, event) == "post_exists"


def test_already_answered_by_the_ai_user():
    ai, _, _, reply, event = conversation()
    post_quietly(ai, "Answered by hand, as it were.", reply_to=reply.id)
    assert refused_by(ai, event) == "not_answered"


def ai_replies(ai, n: int, *, minutes_ago: float = 0) -> None:
    """`n` replies the AI user wrote `minutes_ago` (by any path: the caps count writes)."""
    parent = Post.objects.create(owner=make_user(), content="A question for anyone.")
    base = min_id_at(timezone.now() - timedelta(minutes=minutes_ago))
    for i in range(n):
        Post.objects.create(id=base + i, owner=ai, reply_to=parent.id, content=f"An answer ({i}).")


def test_hourly_limit_per_ai_user_at_and_beyond_it(settings):
    settings.STGY_AI_USER_HOURLY_REPLIES_LIMIT = 3
    ai = make_ai_user("Aiko")
    ai_replies(ai, 2)
    *_, third = conversation(ai=ai, person=make_user())
    *_, fourth = conversation(ai=ai, person=make_user())
    run = respond_run(ai.id)  # both in one run: the run counts its own answers
    third.refresh_from_db(), fourth.refresh_from_db()
    assert third.status == "answered"
    assert fourth.status == "refused" and fourth.outcome.startswith("hourly_replies: 3 replies")
    assert [r["result"] for r in run.details["events"]] == ["answered", "refused"]


def test_replies_older_than_an_hour_do_not_count(settings):
    settings.STGY_AI_USER_HOURLY_REPLIES_LIMIT = 1
    ai = make_ai_user("Aiko")
    ai_replies(ai, 1, minutes_ago=61)
    *_, event = conversation(ai=ai, person=make_user())
    assert refused_by(ai, event) is None


def test_fleet_wide_hourly_limit_at_and_beyond_it(settings):
    settings.STGY_AI_HOURLY_ACTIONS_LIMIT = 3
    other = make_ai_user("Bo")
    ai_replies(other, 1)
    ai = make_ai_user("Aiko")
    *_, first = conversation(ai=ai, person=make_user())  # its root post: 2 of 3
    assert refused_by(ai, first) is None  # the answer: 3 of 3
    *_, second = conversation(ai=ai, person=make_user())
    assert refused_by(ai, second) == "hourly_fleet"
    assert "4 posts and messages by all AI users" in second.outcome


@pytest.mark.parametrize(("used", "refused"), [(99, False), (100, True)])
def test_daily_token_budget_at_its_boundary(settings, used, refused):
    settings.STGY_AI_USER_DAILY_TOKEN_BUDGET = 100
    ai, *_, event = conversation()
    usage_record(provider="offline", model="m", outcome="ok", user_id=ai.id, prompt_tokens=used)
    assert refused_by(ai, event) == ("budget" if refused else None)


def test_site_daily_token_budget(settings):
    settings.STGY_AI_SITE_DAILY_TOKEN_BUDGET = 50
    ai, *_, event = conversation()
    usage_record(provider="offline", model="m", outcome="ok", user_id=None, prompt_tokens=50)
    assert refused_by(ai, event) == "budget" and "site daily token budget" in event.outcome


# --- the loop breaker ------------------------------------------------------------------


def test_an_ai_users_reply_to_another_ai_users_post_records_no_event():
    first, second = make_ai_user("Aiko"), make_ai_user("Bo")
    reply_quietly(second, post_quietly(first, "Sourdough at dawn."), "Rye at noon.")
    assert not AttentionEvent.objects.exists()


def thread_of_turns(ai_turns: int):
    """A thread in which two AI users took `ai_turns` turns between them, the last
    one Aiko's, then a person's reply to her: (Aiko, that reply's event)."""
    aiko, bo = make_ai_user("Aiko"), make_ai_user("Bo")
    speakers = [aiko if (ai_turns - i) % 2 else bo for i in range(ai_turns)]
    parent = None
    for i, speaker in enumerate(speakers):
        parent = post_quietly(speaker, f"Turn {i} on rye.", reply_to=parent.id if parent else None)
    assert parent.owner_id == aiko.id
    reply = reply_quietly(make_user("Mina"), parent, "You two never stop!")
    return aiko, AttentionEvent.objects.get(post=reply)


@pytest.mark.parametrize(("turns", "refused"), [(5, False), (6, True), (9, True)])
def test_a_thread_with_n_ai_turns_is_not_answered(turns, refused):
    aiko, event = thread_of_turns(turns)
    assert refused_by(aiko, event) == ("loop_breaker" if refused else None)
    if refused:
        assert f"{turns} AI turns in this thread (limit 6)" in event.outcome


def test_the_ai_turn_limit_is_a_setting(settings):
    settings.STGY_RESPOND_MAX_AI_TURNS = 2
    aiko, event = thread_of_turns(2)
    assert refused_by(aiko, event) == "loop_breaker"


def test_a_message_the_ai_users_are_already_answering_among_themselves():
    """Three AI users already replied under the person's message: its last three posts
    are AI-written, and a fourth AI voice would only feed them."""
    ai, _, _, reply, event = conversation()
    for name in ("Bo", "Chi", "Dee"):
        post_quietly(make_ai_user(name), f"{name} on rye.", reply_to=reply.id)
    assert refused_by(ai, event) == "loop_breaker"
    assert "last 3 posts are AI-written" in event.outcome


def test_two_ai_replies_under_the_message_still_leave_it_to_the_person():
    ai, _, _, reply, event = conversation()
    for name in ("Bo", "Chi"):
        post_quietly(make_ai_user(name), f"{name} on rye.", reply_to=reply.id)
    assert refused_by(ai, event) is None


def test_an_exchange_between_ai_users_is_not_prolonged_by_the_respond_path():
    """The cycle's rule (agents/runs/ai_thread.py) holds here too: an event on a post
    that ends a line of AI-written posts (recorded before the rule, or by a path that
    records AI mentions) is refused; the same post under a person's is answered."""
    aiko, bo = make_ai_user("Aiko"), make_ai_user("Bo")
    root = post_quietly(bo, "Rye or spelt?")
    mine = reply_quietly(aiko, root, "Rye, of course.")
    theirs = reply_quietly(bo, mine, "Spelt, @Aiko, and I will not move.")
    event = AttentionEvent.objects.create(
        user=aiko, kind="mention", post=theirs, sender=bo, created_at=timezone.now()
    )
    assert refused_by(aiko, event) == "ai_exchange"
    assert "3 AI-written posts in a row" in event.outcome
