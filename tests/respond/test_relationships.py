"""Relationships of AI users: a score in [0, 1] that grows on exchanges (a reply
answered, a like received, a message exchanged), halves every
STGY_RELATIONSHIP_HALF_LIFE_DAYS, has levels, is rebuildable, reaches the respond prompt
and shows on the AI user's memory page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.models import Relationship
from agents.relationships import (
    level_of,
    relationship_bump,
    relationship_now,
    relationships_rebuild,
)
from agents.respond.run import respond_run
from sns import services
from tests.conftest import login_client
from tests.factories import make_ai_user, make_user

from .helpers import conversation, dm, post_quietly

pytestmark = pytest.mark.django_db


def score(ai, peer) -> float:
    return relationship_now(Relationship.objects.filter(user=ai, peer=peer).first())["score"]


@pytest.mark.parametrize(
    ("value", "level"),
    [
        (0.0, "stranger"),
        (0.199, "stranger"),
        (0.2, "acquaintance"),
        (0.5, "friend"),
        (0.8, "close friend"),
    ],
)
def test_levels_at_their_thresholds(value, level):
    assert level_of(value) == level


def test_steps_stay_in_range_and_decay_by_half_per_half_life(settings):
    ai, peer = make_ai_user("Aiko"), make_user("Mina")
    start = timezone.now() - timedelta(days=14)
    for _ in range(40):
        relationship_bump(ai.id, peer.id, "reply", at=start)
    row = Relationship.objects.get(user=ai, peer=peer)
    assert 0.99 < row.score <= 1.0
    assert relationship_now(row)["score"] == pytest.approx(row.score / 2, abs=0.002)
    settings.STGY_RELATIONSHIP_HALF_LIFE_DAYS = 7
    assert relationship_now(row)["score"] == pytest.approx(row.score / 4, abs=0.002)


def test_an_answered_reply_a_like_and_a_message_each_count(settings):
    ai, person, root, *_ = conversation()
    respond_run(ai.id)  # the reply answered
    after_reply = score(ai, person)
    assert after_reply == pytest.approx(settings.STGY_RELATIONSHIP_WEIGHT_REPLY, abs=0.001)
    services.like_add(person, root.id)  # a like received
    after_like = score(ai, person)
    assert after_like > after_reply
    dm(ai=ai, person=person)
    respond_run(ai.id)  # a message exchanged
    assert score(ai, person) > after_like
    # A like given by the AI user is not one received.
    now = Relationship.objects.get(user=ai, peer=person).score
    services.like_add(ai, post_quietly(person, "Mine").id)
    assert Relationship.objects.get(user=ai, peer=person).score == now


def test_a_rebuild_gives_what_the_exchanges_gave():
    ai, person, root, *_ = conversation()
    respond_run(ai.id)
    services.like_add(person, root.id)
    dm(ai=ai, person=person)
    respond_run(ai.id)
    before = score(ai, person)
    Relationship.objects.all().delete()
    assert relationships_rebuild(ai.id) == 1
    assert score(ai, person) == pytest.approx(before, abs=0.01)


def test_the_prompt_and_the_memory_page_show_it(llm_server):
    ai, person, *_ = conversation()
    for _ in range(5):
        relationship_bump(ai.id, person.id, "reply")
    llm_server.push_chat('{"answer": false}')
    respond_run(ai.id)
    assert (
        '"relationship":"friend"' in llm_server.chat_requests()[-1].prompt
    )
    page = login_client(ai).get(f"/users/{ai.hex_id}/memory").content.decode()
    assert '<span class="pill">friend</span>' in page and "Mina" in page
