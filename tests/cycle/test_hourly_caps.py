"""The hourly caps bind the cycle as they bind the respond path (agents/rate_limits.py):
replies per AI user and all AI users' writes per hour, counted from what was written,
whichever path wrote it; a capped reply or post is a recorded refusal, not an error."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.cycle.run import run_cycle_sync
from agents.rate_limits import HourlyWrites
from sns.core.ids import min_id_at
from sns.models import Post
from sns.services import messages
from tests.factories import make_ai_user, make_post, make_user

from .helpers import make_site, push_answers

pytestmark = pytest.mark.django_db


def ai_replies(ai, n: int, *, minutes_ago: float = 0) -> None:
    """`n` replies the AI user wrote `minutes_ago`, by any path."""
    parent = make_post(make_user(), "A question for anyone.")
    base = min_id_at(timezone.now() - timedelta(minutes=minutes_ago))
    for i in range(n):
        Post.objects.create(id=base + i, owner=ai, reply_to=parent.id, content=f"An answer ({i}).")


def errors(run) -> list[str | None]:
    return [r.get("error") for r in run.details["replies"]]


@pytest.mark.parametrize(("written", "replied"), [(8, 2), (9, 1), (10, 0)])
def test_replies_per_ai_user_per_hour_at_and_beyond_the_cap(model_server, settings, written, replied):
    settings.STGY_AI_USER_HOURLY_REPLIES_LIMIT = 10
    ai, posts = make_site(cosines=(100, 90))
    ai_replies(ai, written)
    push_answers(model_server)
    run = run_cycle_sync(ai.id)
    assert Post.objects.filter(owner=ai, reply_to__in=[p.id for p in posts]).count() == replied
    refused = [e for e in errors(run) if e]
    assert len(refused) == 2 - replied
    assert all(e == "refused: hourly_replies: 10 replies in the last hour (limit 10)" for e in refused)


def test_replies_older_than_an_hour_do_not_count(model_server, settings):
    settings.STGY_AI_USER_HOURLY_REPLIES_LIMIT = 3
    ai, posts = make_site(cosines=(100, 90))
    ai_replies(ai, 3, minutes_ago=61)
    push_answers(model_server)
    run = run_cycle_sync(ai.id)
    assert errors(run) == [None, None]
    assert Post.objects.filter(owner=ai, reply_to__in=[p.id for p in posts]).count() == 2


def test_the_fleet_cap_counts_every_ai_users_posts_and_messages(model_server, settings):
    settings.STGY_AI_HOURLY_ACTIONS_LIMIT = 3
    ai, posts = make_site(cosines=(100, 90))
    other = make_ai_user("Other")
    ai_replies(other, 1)
    messages.message_send(other, make_user().id, content="Hello there.")
    push_answers(model_server)
    run = run_cycle_sync(ai.id)
    # 2 writes by the other AI user: room for one reply; the second is refused, and the
    # cycle's new root post with it.
    by_post = {r["postId"]: r.get("error") for r in run.details["replies"]}
    assert by_post == {
        posts[0].hex_id: None,  # the better-ranked one
        posts[1].hex_id: "refused: hourly_fleet: 3 posts and messages by all AI users in the last hour (limit 3)",
    }
    assert run.details["newPost"]["refused"] == "hourly_fleet"
    assert not Post.objects.filter(owner=ai, reply_to__isnull=True).exists()


def test_people_do_not_count_against_the_fleet_cap():
    ai = make_ai_user("Aiko")
    person = make_user("Mina")
    make_post(person, "A person's post.")
    messages.message_send(person, ai.id, content="Hi Aiko.")
    make_post(ai, "An AI user's post.")
    writes = HourlyWrites.load(ai.id)
    assert (writes.fleet, writes.root_posts, writes.replies, writes.messages) == (1, 1, 0, 0)


def test_messages_are_counted_per_recipient():
    ai, mina, kai = make_ai_user("Aiko"), make_user("Mina"), make_user("Kai")
    for person, n in ((mina, 2), (kai, 1)):
        for i in range(n):
            messages.message_send(ai, person.id, content=f"Hello {i}")
    writes = HourlyWrites.load(ai.id)
    assert writes.messages == 3 and writes.messages_to == {mina.id: 2, kai.id: 1}
    assert writes.messages_to_refusal(mina.id, answering=False) is not None
    assert writes.messages_to_refusal(mina.id, answering=True) is None
    assert writes.messages_to_refusal(kai.id, answering=False) is None
