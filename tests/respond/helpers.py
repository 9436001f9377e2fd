"""A small conversation for the respond tests: an AI user's post, a person's reply to
it (recorded as an attention event by the real post hook, its task not yet run), and
answers the respond parser accepts."""

from __future__ import annotations

import json

from django.test import TestCase

from agents.models import AttentionEvent
from sns import services
from sns.models import Follow, Post, User
from tests.factories import make_ai_user, make_user

PERSONA = "A cheerful baker who loves sourdough, rye flour and fermentation."


def post_quietly(author: User, content: str, **fields) -> Post:
    """A post written through the rulebook (the post hook records what it records), its
    after-commit work (summary and respond tasks) discarded inside a test's transaction:
    the test runs the respond path itself, and the model server sees only its calls.
    (In a transaction=True test the commit is real and that work runs at once.)"""
    with TestCase.captureOnCommitCallbacks(execute=False):
        return services.post_create(author, content=content, tags=fields.pop("tags", []), **fields)


def reply_quietly(author: User, parent: Post, content: str, **fields) -> Post:
    return post_quietly(author, content, reply_to=parent.id, **fields)


def conversation(*, ai: User | None = None, person: User | None = None, text: str | None = None):
    """(ai, person, the AI user's post, the person's reply, its event)."""
    ai = ai or make_ai_user("Aiko", personality=PERSONA)
    person = person or make_user("Mina")
    root = post_quietly(ai, "My rye sourdough starter finally doubled overnight.")
    reply = reply_quietly(person, root, text or "How warm do you keep the starter? Mine sulks in winter.")
    event = AttentionEvent.objects.get(user=ai, post=reply)
    return ai, person, root, reply, event


def answer_json(**overrides) -> str:
    body = {"answer": True, "content": "About 24°C, Mina; rye sulks below that.", "tags": ["596:Cooking", "sourdough"]}
    return json.dumps(body | overrides)


def message_quietly(sender: User, recipient: User, content: str):
    """A direct message through the rulebook with its after-commit work run (the
    notification and the message hook, which records the AI user's attention event),
    while the respond task the hook enqueues is discarded: the test runs the respond
    path itself."""
    from sns.services import messages

    with TestCase.captureOnCommitCallbacks(execute=False) as callbacks:
        message = messages.message_send(sender, recipient.id, content=content)
    with TestCase.captureOnCommitCallbacks(execute=False):
        for callback in callbacks:
            callback()
    return message


def dm(*, ai: User | None = None, person: User | None = None, text: str | None = None, follow: bool = True):
    """(ai, person, the person's message, its event). With `follow`, the AI user follows
    the person, so the message is not a request."""
    ai = ai or make_ai_user("Aiko", personality=PERSONA)
    person = person or make_user("Mina")
    if follow and not Follow.objects.filter(follower=ai, followee=person).exists():
        services.follow_add(ai, person.id)
    message = message_quietly(person, ai, text or "Do you feed your rye starter every day?")
    event = AttentionEvent.objects.get(user=ai, message_id=message.id)
    return ai, person, message, event
