"""No AI-to-AI loops (agents/runs/ai_thread.py): in a line of a thread no person is in,
the cycle's reply stage stops after STGY_AI_THREAD_AI_REPLIES_LIMIT AI-to-AI replies
(default 2, one answer each) and records why; a person in the line reopens it. The
respond path asks the same rule (tests/respond/test_gates.py)."""

from __future__ import annotations

import pytest
from django.test import override_settings

from agents.cycle.run import run_cycle_sync
from agents.runs.ai_thread import ai_exchange_refusal
from sns.models import Post
from tests.factories import make_ai_user, make_post, make_user

from .helpers import (
    PERSONALITY,
    base_vector,
    give_interest,
    push_answers,
    summarise,
    vector_with_cosine,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("line", "refused"),
    [
        ([], False),
        ([False], False),  # a person's post: always answered
        ([True], False),  # an AI user's root post: the first answer
        ([True, True], False),  # the other's answer to it: one answer each
        ([True, True, True], True),
        ([True, True, True, True, True], True),
        ([True, True, False], False),  # a person answered by an AI user, then another AI
        ([True, True, False, True, True, True], False),  # the person reopened the line
        ([False, True, True, True], False),
    ],
)
def test_the_rule_counts_the_ai_run_at_the_end_of_the_line(line, refused):
    assert (ai_exchange_refusal(line) is not None) == refused


def test_the_limit_is_a_setting(settings):
    settings.STGY_AI_THREAD_AI_REPLIES_LIMIT = 0  # no AI user answers another at all
    assert ai_exchange_refusal([True]) is not None
    assert ai_exchange_refusal([False, True]) is None
    settings.STGY_AI_THREAD_AI_REPLIES_LIMIT = -1
    assert ai_exchange_refusal([True] * 20) is None


def _thread(speakers):
    """Posts in one line, each replying to the one before, with the AI off (no summary
    call); every post but the last summarised far from the interest, the last close."""
    parent = None
    with override_settings(STGY_AI_PROVIDER="none"):
        for i, speaker in enumerate(speakers):
            parent = make_post(
                speaker, f"Turn {i} about sourdough bread", reply_to=parent.id if parent else None
            )
            summarise(parent, vector_with_cosine(100 if i == len(speakers) - 1 else 0))
    return parent


@pytest.mark.parametrize("with_person", [False, True])
def test_the_cycle_does_not_prolong_an_exchange_between_ai_users(model_server, with_person):
    aiko = make_ai_user("Aiko", personality=PERSONALITY)
    bram = make_ai_user("Bram")
    middle = make_user("Mina") if with_person else bram
    # Bram's root post, Aiko's answer, then Bram (or a person) and Aiko again, and Bram's
    # reply to Aiko: in the cycle's own rule (a reply to its post) Aiko may answer it.
    last = _thread([bram, aiko, middle, aiko, bram])
    give_interest(aiko, base_vector())
    push_answers(model_server)
    run = run_cycle_sync(aiko.id)
    record = next(r for r in run.details["replies"] if r["postId"] == last.hex_id)
    if with_person:
        assert "error" not in record and record.get("replyId"), record
        assert Post.objects.filter(owner=aiko, reply_to=last.id).exists()
    else:
        assert record["error"] == (
            "refused: ai_exchange: 5 AI-written posts in a row and no person in this line of the thread"
            " (limit 2 AI-to-AI replies)"
        )
        assert not Post.objects.filter(owner=aiko, reply_to=last.id).exists()


def test_one_answer_each_is_allowed(model_server):
    aiko = make_ai_user("Aiko", personality=PERSONALITY)
    bram = make_ai_user("Bram")
    last = _thread([aiko, bram])  # Bram answered Aiko's root post: Aiko answers once
    give_interest(aiko, base_vector())
    push_answers(model_server)
    run = run_cycle_sync(aiko.id)
    record = next(r for r in run.details["replies"] if r["postId"] == last.hex_id)
    assert record.get("replyId"), record
