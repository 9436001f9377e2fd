"""Attention events: recording them (inside the post's transaction), enqueueing the
respond task on commit, claiming them for a run and closing them."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from agents.models import AttentionEvent
from agents.runs.owed import respond_enqueue
from sns.models import Post, User


def attention_record_reply(post: Post) -> None:
    """Called inside the transaction of a new reply. A reply by a person to an AI
    user's post is owed an answer; a reply written by an AI user is not recorded at
    all: AI users talk to each other at the pace of their cycles, never in a loop of
    instant answers."""
    from agents.llm.gateway import ai_enabled

    if not ai_enabled() or post.owner.is_ai:
        return
    ai_id = (
        Post.objects.filter(pk=post.reply_to, owner__ai_model__isnull=False)
        .values_list("owner_id", flat=True)
        .first()
    )
    if ai_id is None or ai_id == post.owner_id:
        return
    AttentionEvent.objects.bulk_create(
        [AttentionEvent(user_id=ai_id, kind=AttentionEvent.Kind.REPLY, post_id=post.id,
                        sender_id=post.owner_id, created_at=timezone.now())],
        ignore_conflicts=True,
    )
    transaction.on_commit(lambda: respond_enqueue(ai_id))


def attention_record_mentions(post: Post, parent: Post | None, ai_ids: list[int]) -> None:
    """A new post mentioned these AI users. Loop breaker: a post written by an AI user
    records a mention only when it answers a person's post (a human wrote right before
    it in the thread); an AI user the post replies to gets the reply's event instead."""
    from agents.llm.gateway import ai_enabled

    if not ai_enabled():
        return
    if post.owner.is_ai and (parent is None or parent.owner.is_ai):
        return
    owed = [i for i in ai_ids if i != post.owner_id and not (parent is not None and parent.owner_id == i)]
    if not owed:
        return
    AttentionEvent.objects.bulk_create(
        [AttentionEvent(user_id=i, kind=AttentionEvent.Kind.MENTION, post_id=post.id, sender_id=post.owner_id,
                        created_at=timezone.now()) for i in owed],
        ignore_conflicts=True,
    )
    for ai_id in owed:
        transaction.on_commit(lambda ai_id=ai_id: respond_enqueue(ai_id))


def attention_record_message(message) -> None:
    """Called once a direct message to an AI user has committed. A message written by
    an AI user records nothing unless STGY_RESPOND_AI_MESSAGES is on, and even then not
    when it answers the other AI user's message: AI users never answer each other in a
    loop of instant answers."""
    from agents.llm.gateway import ai_enabled

    if not ai_enabled():
        return
    sender = message.sender
    if sender.is_ai and not settings.STGY_RESPOND_AI_MESSAGES:
        return
    conversation = message.conversation
    recipient_id = conversation.user_high_id if conversation.user_low_id == sender.id else conversation.user_low_id
    if not User.objects.filter(pk=recipient_id, ai_model__isnull=False).exists():
        return
    if sender.is_ai and _answers(message, recipient_id):
        # Even with AI-to-AI messages on, an AI user's answer to the other AI user gets
        # no instant answer back: no human is in this conversation to break a loop.
        return
    AttentionEvent.objects.bulk_create(
        [AttentionEvent(user_id=recipient_id, kind=AttentionEvent.Kind.MESSAGE, message_id=message.id,
                        sender_id=sender.id, created_at=timezone.now())],
        ignore_conflicts=True,
    )
    # Called after the message's commit, so this runs at once (in autocommit mode).
    transaction.on_commit(lambda: respond_enqueue(recipient_id))


def _answers(message, other_id: int) -> bool:
    """Is the message before this one in its conversation the other member's?"""
    from sns.models.messages import Message

    previous = (
        Message.objects.filter(conversation_id=message.conversation_id, id__lt=message.id)
        .order_by("-id").values_list("sender_id", flat=True).first()
    )
    return previous == other_id


def events_claim(user_id: int, run_id: int) -> list[AttentionEvent]:
    """Up to STGY_RESPOND_BATCH of the user's events, oldest first, claimed for `run_id`
    by one conditional UPDATE: a row another run took in between is not changed and so
    not returned. Events still claimed by an earlier run are taken over: the caller holds
    the user's respond lease, so that run is gone."""
    open_events = Q(status=AttentionEvent.Status.PENDING) | (
        Q(status=AttentionEvent.Status.CLAIMED) & ~Q(run_id=run_id)
    )
    candidates = list(
        AttentionEvent.objects.filter(open_events, user_id=user_id)
        .order_by("created_at", "id")
        .values_list("id", flat=True)[: max(1, settings.STGY_RESPOND_BATCH)]
    )
    if not candidates:
        return []
    AttentionEvent.objects.filter(open_events, pk__in=candidates).update(
        status=AttentionEvent.Status.CLAIMED, run_id=run_id
    )
    return list(
        AttentionEvent.objects.filter(pk__in=candidates, run_id=run_id, status=AttentionEvent.Status.CLAIMED)
        .select_related("sender")
        .order_by("created_at", "id")
    )


def event_close(event: AttentionEvent, status: str, outcome: str) -> None:
    """Record how the event ended (the answered case is written with the answer)."""
    AttentionEvent.objects.filter(pk=event.pk).update(
        status=status, outcome=outcome[:500], handled_at=timezone.now(), run_id=event.run_id
    )
