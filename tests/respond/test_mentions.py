"""A mention of an AI user is owed an answer: an attention event of kind `mention`,
answered by a reply to the mentioning post; the loop breaker keeps two AI users from
summoning each other."""

from __future__ import annotations

import pytest

from agents.models import AttentionEvent
from agents.respond.run import respond_run
from sns.models import Post
from sns.services import boundaries
from tests.factories import make_ai_user, make_user

from .helpers import PERSONA, post_quietly, reply_quietly

pytestmark = pytest.mark.django_db


def test_a_person_mentioning_an_ai_user_gets_an_answer_to_that_post():
    ai, person = make_ai_user("Aiko", personality=PERSONA), make_user("Mina")
    post = post_quietly(person, "What does @Aiko think about rye starters?")
    event = AttentionEvent.objects.get(user=ai)
    assert (event.kind, event.post_id, event.sender_id) == ("mention", post.id, person.id)
    run = respond_run(ai.id)
    [answer] = Post.objects.filter(owner=ai)
    assert answer.reply_to == post.id
    event.refresh_from_db()
    assert event.status == "answered" and run.details["events"][0]["kind"] == "mention"


def test_a_reply_to_the_ai_users_post_that_mentions_it_is_one_event():
    ai, person = make_ai_user("Aiko"), make_user("Mina")
    reply_quietly(person, post_quietly(ai, "Bread"), "@Aiko, rye?")
    assert list(AttentionEvent.objects.values_list("kind", flat=True)) == ["reply"]


def test_an_unknown_or_human_nickname_records_nothing():
    make_user("Bo")
    post_quietly(make_user("Mina"), "@Bo and @Nobody")
    assert not AttentionEvent.objects.exists()


def test_loop_breaker_with_two_ai_users():
    aiko, kenji, mina = make_ai_user("Aiko"), make_ai_user("Kenji"), make_user("Mina")
    # An AI user's own post mentioning another: no human wrote before it.
    post_quietly(aiko, "Hello @Kenji")
    assert not AttentionEvent.objects.exists()
    # An AI user answering a person and mentioning another AI user of the thread: owed.
    root = post_quietly(mina, "Rye or spelt?")
    spelt = reply_quietly(kenji, root, "Spelt.")
    question = reply_quietly(mina, spelt, "Hm. What do you say, @Aiko?")
    assert AttentionEvent.objects.filter(user=aiko, post=question, kind="mention").exists()
    answer = reply_quietly(aiko, question, "Rye, Mina; @Kenji may disagree.")
    assert "@Kenji" in answer.content  # Kenji wrote in the thread: the mention stays
    assert AttentionEvent.objects.filter(user=kenji, post=answer, kind="mention").exists()
    # Kenji's answer to Aiko's post mentions Aiko: the post before it is AI-written.
    reply_quietly(kenji, answer, "I do disagree, @Aiko: spelt.")
    assert AttentionEvent.objects.filter(user=aiko).count() == 1  # the person's mention only


def test_an_ai_mention_of_an_ai_user_who_turned_ai_mentions_off_records_nothing():
    aiko, kenji, mina = make_ai_user("Aiko"), make_ai_user("Kenji"), make_user("Mina")
    boundaries.ai_boundaries_update(
        kenji, kenji.id, allow_mentions=False
    )  # an AI user may set them too
    spelt = reply_quietly(kenji, post_quietly(mina, "Rye or spelt?"), "Spelt.")
    question = reply_quietly(mina, spelt, "And you, @Aiko?")
    reply_quietly(aiko, question, "@Kenji would know.")
    assert list(AttentionEvent.objects.filter(user=kenji).values_list("kind", flat=True)) == [
        "reply"
    ]


def test_the_answer_to_a_mention_obeys_the_reply_boundary():
    ai, person = make_ai_user("Aiko"), make_user("Mina")
    post_quietly(person, "@Aiko hello")
    boundaries.ai_boundaries_update(person, person.id, allow_replies=False)
    respond_run(ai.id)
    event = AttentionEvent.objects.get(user=ai)
    assert event.status == "refused" and event.outcome.startswith("boundaries:")
    assert not Post.objects.filter(owner=ai).exists()
