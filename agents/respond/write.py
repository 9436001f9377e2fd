"""Writing one answer, in one transaction with the event's new status: a reply through
the rulebook as the AI user with its post impression, or a direct message."""

from __future__ import annotations

import json

from django.db import transaction
from django.utils import timezone

from agents import memory
from agents.memory_versions import respond_source
from agents.models import AttentionEvent, CycleRun
from agents.relationships import relationship_bump
from sns import services
from sns.core.errors import Conflict
from sns.models import Post, User
from sns.models.messages import Message
from sns.services import messages


def answer_key(event: AttentionEvent) -> str:
    """The answer's idempotency key: a redelivered run cannot write a second one."""
    return f"respond:{event.pk}"


def answer_write(
    ai: User, event: AttentionEvent, post: Post, result: dict, run: CycleRun, *, acknowledgement: bool = False
) -> Post | None:
    """The answer, or None when the AI user has replied to the post meanwhile (its cycle
    may have). Raises the rulebook's DomainError when the write is refused; then nothing
    is written. An `acknowledgement` of a stop (agents/respond/stop.py) is no exchange:
    it moves no relationship and stands for no impression of the post."""
    try:
        with transaction.atomic():
            reply = services.post_create(
                ai, content=result["content"], tags=result["tags"], reply_to=post.id,
                idempotency_key=answer_key(event), reply_once=True,
            )
            _after_answer(ai, event, post, result, run, reply, acknowledgement=acknowledgement)
    except Conflict:
        return None
    return reply


def _after_answer(
    ai: User, event: AttentionEvent, post: Post, result: dict, run: CycleRun, reply: Post, *, acknowledgement: bool
) -> None:
    if acknowledgement:
        AttentionEvent.objects.filter(pk=event.pk).update(
            status=AttentionEvent.Status.ANSWERED, handled_at=timezone.now(), run_id=run.pk, outcome=reply.hex_id
        )
        return
    if post.my_impression is None:
        # The AI user has now read the post; its next cycle must not read it again. Its
        # answer stands for its impression; it has replied, and likes are the cycle's.
        payload = {"impression": result["content"], "tags": result["tags"], "shouldLike": False, "shouldReply": False}
        memory.post_impressions_save(
            ai, [(post, json.dumps(payload, ensure_ascii=False))], source=respond_source(run.pk)
        )
    AttentionEvent.objects.filter(pk=event.pk).update(
        status=AttentionEvent.Status.ANSWERED, handled_at=timezone.now(), run_id=run.pk, outcome=reply.hex_id
    )
    relationship_bump(ai.id, event.sender_id, "reply", source=respond_source(run.pk))


def message_answer_write(
    ai: User, event: AttentionEvent, facts, result: dict, run: CycleRun, *, acknowledgement: bool = False
) -> Message | None:
    """The answer to a direct message through the rulebook as the AI user, and the
    event's new status, in one transaction; a request is accepted first (answering is
    accepting). None when the event is no longer this run's or the AI user has written
    in the conversation meanwhile: so a redelivered task never sends twice. Raises the
    rulebook's DomainError when the send is refused; then nothing is written."""
    with transaction.atomic():
        locked = AttentionEvent.objects.select_for_update().filter(
            pk=event.pk, run_id=run.pk, status=AttentionEvent.Status.CLAIMED
        )
        if not locked.exists():
            return None
        message = facts.message
        if Message.objects.filter(conversation_id=message.conversation_id, id__gt=message.id, sender_id=ai.id).exists():
            return None
        if facts.is_request:
            messages.conversation_accept(ai, event.sender_id)
        answer = messages.message_send(ai, event.sender_id, content=result["content"])
        AttentionEvent.objects.filter(pk=event.pk).update(
            status=AttentionEvent.Status.ANSWERED, handled_at=timezone.now(), run_id=run.pk, outcome=answer.hex_id
        )
        if not acknowledgement:
            relationship_bump(ai.id, event.sender_id, "message", source=respond_source(run.pk))
    return answer
