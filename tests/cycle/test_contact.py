"""The cycle's reply stage honours the person's AI boundaries (the reply switch, "stop
this AI user" for 48 h or for good) and the back-off rule, and records why; everyone
else is answered exactly as before."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.cycle.run import run_cycle_sync
from sns.models import Like, Post
from sns.models.messages import AiStop
from sns.services import boundaries, messages

from .helpers import make_site, push_answers

pytestmark = pytest.mark.django_db


def replied_to(ai) -> set[int]:
    return set(
        Post.objects.filter(owner=ai, reply_to__isnull=False).values_list("reply_to", flat=True)
    )


def refusal(run, post) -> str | None:
    return next(
        (r.get("error") for r in run.details["replies"] if r["postId"] == post.hex_id), None
    )


def test_no_reply_to_a_person_who_turned_ai_replies_off(model_server):
    ai, (p1, p2) = make_site(cosines=(100, 90))
    boundaries.ai_boundaries_update(p1.owner, p1.owner.id, allow_replies=False)
    push_answers(model_server)
    run = run_cycle_sync(ai.id)
    assert replied_to(ai) == {p2.id}  # the other person is answered as before
    assert refusal(run, p1) == "refused: boundaries: the user does not accept replies from AI users"
    assert refusal(run, p2) is None
    # Liking is not addressing anyone: the likes are unchanged.
    assert set(Like.objects.filter(user=ai).values_list("post_id", flat=True)) == {p1.id, p2.id}


@pytest.mark.parametrize(
    ("forever", "age_hours", "replied"),
    [(False, 0, False), (False, 47.9, False), (False, 48.1, True), (True, 1000, False)],
)
def test_a_stop_holds_for_48_hours_or_for_good(model_server, forever, age_hours, replied):
    ai, (p1,) = make_site(cosines=(100,))
    past = timezone.now() - timedelta(hours=age_hours)
    boundaries.ai_stop_add(p1.owner, ai.id, forever=forever, now=past)
    push_answers(model_server)
    run = run_cycle_sync(ai.id)
    assert (p1.id in replied_to(ai)) is replied
    if not replied:
        assert refusal(run, p1) == "refused: boundaries: the user asked this AI user to stop"


def test_a_stop_of_another_ai_user_does_not_count(model_server):
    ai, (p1,) = make_site(cosines=(100,))
    other, _ = make_site(cosines=())
    boundaries.ai_stop_add(p1.owner, other.id, forever=True)
    push_answers(model_server)
    run_cycle_sync(ai.id)
    assert replied_to(ai) == {p1.id}
    assert AiStop.objects.count() == 1


@pytest.mark.parametrize(("unanswered", "replied"), [(2, True), (3, False)])
def test_back_off_after_three_unanswered_messages(model_server, unanswered, replied):
    ai, (p1,) = make_site(cosines=(100,))
    for i in range(unanswered):
        messages.message_send(ai, p1.owner.id, content=f"Hello again ({i})")
    push_answers(model_server)
    run = run_cycle_sync(ai.id)
    assert (p1.id in replied_to(ai)) is replied
    if not replied:
        assert refusal(run, p1).startswith(
            "refused: backoff: 3 writes to the person without an answer"
        )


def test_back_off_ends_when_the_person_writes(model_server):
    ai, (p1,) = make_site(cosines=(100,))
    for i in range(3):
        messages.message_send(ai, p1.owner.id, content=f"Hello again ({i})")
    messages.message_send(p1.owner, ai.id, content="Sorry, I was away.")
    push_answers(model_server)
    run_cycle_sync(ai.id)
    assert replied_to(ai) == {p1.id}


def test_back_off_of_several_authors_is_read_at_once_and_decided_per_author(model_server, settings):
    """Three candidates of three authors: the one backed off is refused, a turned-off
    one is refused by its boundaries (in candidate order), the third is answered; the
    back-off reads of the two left cost one query (PostgreSQL)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from agents.runs.contact import backoff_refusal, backoff_refusals

    settings.STGY_AI_USER_REPLY_MAX_INTEREST_RANK = 3
    ai, (p1, p2, p3) = make_site(cosines=(100, 95, 90))
    for i in range(3):
        messages.message_send(ai, p2.owner.id, content=f"Hello again ({i})")
    boundaries.ai_boundaries_update(p1.owner, p1.owner.id, allow_replies=False)
    people = [p1.owner_id, p2.owner_id, p3.owner_id, ai.id]
    with CaptureQueriesContext(connection) as queries:
        batch = backoff_refusals(ai.id, people)
    assert batch == {person: backoff_refusal(ai.id, person) for person in people}
    assert batch[p2.owner_id] and not batch[p1.owner_id] and not batch[p3.owner_id]
    if connection.vendor == "postgresql":
        assert len(queries.captured_queries) == 1
    push_answers(model_server)
    run = run_cycle_sync(ai.id)
    assert replied_to(ai) == {p3.id}
    assert refusal(run, p1).startswith("refused: boundaries:")
    assert refusal(run, p2).startswith("refused: backoff: 3 writes")
    refused = [r["postId"] for r in run.details["replies"] if r.get("error")]
    assert refused == [p1.hex_id, p2.hex_id]
