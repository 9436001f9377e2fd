"""Attention events: recorded by the real post hook inside the reply's transaction,
unique per (AI user, kind, post), answered on commit (inline in tests, on a background
thread in the embedded mode) through the API a person uses."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.test import TestCase
from django.utils import timezone

from agents.models import AttentionEvent
from sns import services
from sns.models import Post
from tests.conftest import login_client
from tests.factories import make_ai_user, make_post, make_user

from .helpers import PERSONA, post_quietly, reply_quietly

pytestmark = pytest.mark.django_db


def test_a_persons_reply_through_the_api_is_answered_on_commit():
    ai, person = make_ai_user("Aiko", personality=PERSONA), make_user("Mina")
    root = make_post(ai, "Rye sourdough, day three.")
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = login_client(person).post(
            "/api/posts", {"content": "Does rye flour really make the starter livelier?", "replyTo": root.hex_id, "tags": []},
            format="json",
        )
    assert response.status_code == 201, response.content
    reply = Post.objects.get(owner=person)
    event = AttentionEvent.objects.get(post=reply)
    assert (event.user_id, event.sender_id, event.kind, event.status) == (ai.id, person.id, "reply", "answered")
    answer = Post.objects.get(owner=ai, reply_to=reply.id)
    assert "Mina" in answer.content and "rye" in answer.content.lower()


def test_the_event_is_recorded_in_the_replys_transaction():
    ai, person = make_ai_user("Aiko"), make_user("Mina")
    root = post_quietly(ai, "Hello")
    with pytest.raises(RuntimeError), transaction.atomic():
        services.post_create(person, content="Hi", tags=[], reply_to=root.id)
        assert AttentionEvent.objects.filter(user=ai).count() == 1
        raise RuntimeError("the request failed after the reply")
    assert not AttentionEvent.objects.exists() and not Post.objects.filter(owner=person).exists()


def test_no_event_for_root_posts_replies_to_people_or_to_oneself():
    ai, person, other = make_ai_user("Aiko"), make_user("Mina"), make_user("Noor")
    post_quietly(person, "A root post")
    reply_quietly(person, post_quietly(other, "A person's post"), "To a person")
    reply_quietly(ai, post_quietly(person, "Mina's"), "The AI user replies to a person")
    own = post_quietly(ai, "Aiko's")
    reply_quietly(ai, own, "Aiko to herself")
    assert not AttentionEvent.objects.exists()


def test_an_edit_records_nothing_new():
    ai, person = make_ai_user("Aiko"), make_user("Mina")
    reply = reply_quietly(person, post_quietly(ai, "Hello"), "Hi")
    AttentionEvent.objects.all().delete()
    with TestCase.captureOnCommitCallbacks(execute=False):
        services.post_update(person, reply.id, content="Hi again")
    assert not AttentionEvent.objects.exists()


def test_one_event_per_ai_user_kind_and_post():
    ai, person = make_ai_user("Aiko"), make_user("Mina")
    reply = reply_quietly(person, post_quietly(ai, "Hello"), "Hi")
    with pytest.raises(IntegrityError), transaction.atomic():
        AttentionEvent.objects.create(
            user=ai, kind="reply", post=reply, sender=person, created_at=timezone.now()
        )
    # The hook itself tolerates a second delivery of the same reply.
    from agents.respond.events import attention_record_reply

    with TestCase.captureOnCommitCallbacks(execute=False):
        attention_record_reply(reply)
    assert AttentionEvent.objects.count() == 1


def test_the_task_is_named_thin_and_acks_late():
    from agents.respond.tasks import respond
    from stgy.celery import app

    assert respond.name == "agents.respond" and "agents.respond" in app.tasks
    assert respond.acks_late is True and respond.reject_on_worker_lost is True
