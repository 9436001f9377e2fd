"""Direct messages: send, accept a request, hide a conversation, report a message.

The rules, limits and their reasons are in docs/messages.md. Like every service here,
each function takes the acting user first, checks access itself, writes atomically
and leaves follow-on work (notifications, the AI hook) to `transaction.on_commit`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.db.models.functions import Greatest
from django.utils import timezone

from ..reads import live_marks
from ..core import throttle
from ..reads.access import access_writable, block_annotations, is_blocked_annotated
from ..core.errors import Conflict, Forbidden, InvalidInput, NotFound
from ..models import Block, User
from ..models.messages import Conversation, ConversationMember, Message
from ..models.reports import Report, ReportKind
from .reports import report_create
from ..selectors.boundaries import ai_contact_allowed
from ..core.text import normalize_content
from . import hooks, notifications

MESSAGES = throttle.Limit(
    "messages", "STGY_HOURLY_MESSAGES_COUNT_LIMIT", None, "too often messages"
)


def _messages_to(recipient_id: int) -> throttle.Limit:
    # One bucket set per pair: a flood aimed at one person stops at this limit even
    # when the sender's hourly total still has room.
    return throttle.Limit(
        f"messages-to:{recipient_id}",
        "STGY_HOURLY_MESSAGES_TO_ONE_COUNT_LIMIT",
        None,
        "too often messages to this user",
    )


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _refuse_unstorable(value, field: str) -> None:
    # PostgreSQL text holds neither NUL nor lone surrogates; refused here as a 400
    # rather than failing in the database as a 500.
    if isinstance(value, str) and (
        "\x00" in value or any("\ud800" <= c <= "\udfff" for c in value)
    ):
        raise InvalidInput(f"{field} contains characters that cannot be stored")


def _validated_content(content) -> str:
    _refuse_unstorable(content, "content")
    text = normalize_content(content)
    if _utf16_len(text) > settings.STGY_MESSAGE_LENGTH_LIMIT:
        raise InvalidInput("content is too long")
    return text


def _recipient(actor: User, recipient_id: int) -> User:
    """The recipient with the block facts both ways, in one query."""
    recipient = (
        User.objects.annotate(
            **block_annotations(actor, "pk"),
            actor_blocks_owner=Exists(
                Block.objects.filter(blocker_id=actor.id, blockee_id=OuterRef("pk"))
            ),
        )
        .filter(pk=recipient_id)
        .first()
    )
    if recipient is None:
        raise NotFound("not found")
    return recipient


def message_send(actor: User, recipient_id: int, *, content) -> Message:
    """Send `content` to `recipient_id`. A message from someone the recipient does
    not follow lands in their Requests until they accept, reply or hide it."""
    access_writable(actor)
    if recipient_id == actor.id:
        raise InvalidInput("cannot message yourself")
    recipient = _recipient(actor, recipient_id)
    text = _validated_content(content)
    if recipient.actor_blocks_owner and not actor.is_admin:
        raise InvalidInput("you are blocking the user")
    if is_blocked_annotated(recipient, recipient, actor):
        raise InvalidInput("blocked by the user")
    if actor.is_ai:
        allowed, reason = ai_contact_allowed(actor, recipient, "message")
        if not allowed:
            raise Forbidden(reason)
    throttle.throttle_check_together(actor, [_messages_to(recipient.id), MESSAGES])

    with transaction.atomic():
        conversation = _conversation_for(actor.id, recipient.id)
        message = Message.objects.create(conversation=conversation, sender=actor, content=text)
        Conversation.objects.filter(pk=conversation.id).update(
            last_message_id=Greatest("last_message_id", message.id)
        )
        # Replying accepts a request the sender had, and the sender has read up to
        # their own message.
        ConversationMember.objects.filter(conversation=conversation, user_id=actor.id).update(
            is_request=False, accepted=True, last_read_id=Greatest("last_read_id", message.id)
        )
        is_request = _place_for_recipient(conversation, recipient)
    notifications.notify_message(recipient_id=recipient.id, actor=actor, request=is_request)
    # The open thread pages learn of it from the cache (sns/reads/live_marks.py).
    transaction.on_commit(lambda: live_marks.conversation_mark(actor.id, recipient.id, message.id), robust=True)
    if recipient.is_ai:
        transaction.on_commit(lambda: hooks.message_written(message))
    return message


def _conversation_for(actor_id: int, other_id: int) -> Conversation:
    low, high = sorted((actor_id, other_id))
    conversation, created = Conversation.objects.get_or_create(user_low_id=low, user_high_id=high)
    if created:
        ConversationMember.objects.bulk_create(
            [
                ConversationMember(conversation=conversation, user_id=low, peer_id=high),
                ConversationMember(conversation=conversation, user_id=high, peer_id=low),
            ]
        )
    return conversation


def _place_for_recipient(conversation: Conversation, recipient) -> bool:
    """Inbox or Requests for the recipient; True if it is a request. Following the
    sender (at the time of the message) or having accepted once means the inbox."""
    member = (
        ConversationMember.objects.select_for_update()
        .filter(conversation=conversation, user_id=recipient.id)
        .first()
    )
    if member.accepted:
        return False
    follows = bool(recipient.owner_follows_actor)
    ConversationMember.objects.filter(pk=member.pk).update(is_request=not follows, accepted=follows)
    return not follows


def _member(actor: User, peer_id: int) -> ConversationMember:
    member = (
        ConversationMember.objects.select_related("conversation")
        .filter(user_id=actor.id, peer_id=peer_id)
        .first()
    )
    if member is None or member.conversation.last_message_id <= member.hidden_before_id:
        raise NotFound("conversation not found")
    return member


def conversation_accept(actor: User, peer_id: int) -> None:
    """Move a request from `peer_id` to the inbox."""
    access_writable(actor)
    member = _member(actor, peer_id)
    if not member.is_request:
        raise Conflict("not a request")
    ConversationMember.objects.filter(pk=member.pk).update(is_request=False, accepted=True)


def conversation_hide(actor: User, peer_id: int) -> None:
    """Delete the conversation for the actor only: the messages so far disappear from
    their lists; the other member keeps theirs. A hidden request stays unaccepted, so
    the next message from that sender is a request again."""
    access_writable(actor)
    member = _member(actor, peer_id)
    last = member.conversation.last_message_id
    ConversationMember.objects.filter(pk=member.pk).update(
        hidden_before_id=Greatest("hidden_before_id", last),
        last_read_id=Greatest("last_read_id", last),
    )


def conversation_mark_read(actor: User, peer_id: int, up_to_id: int) -> None:
    """Messages up to `up_to_id` have been read by the actor (never moves backwards).
    Reading is allowed to frozen users: it changes nobody else's view."""
    ConversationMember.objects.filter(
        user_id=actor.id, peer_id=peer_id, last_read_id__lt=up_to_id
    ).update(last_read_id=up_to_id)


def message_report(actor: User, message_id: int, *, reason) -> Report:
    """A member reports a message of the other member; only a reported conversation
    is ever shown to admins (the review queue)."""
    access_writable(actor)
    message = (
        Message.objects.select_related("conversation")
        .filter(pk=message_id)
        .annotate(
            hidden_for_actor=Exists(
                ConversationMember.objects.filter(
                    conversation_id=OuterRef("conversation_id"),
                    user_id=actor.id,
                    hidden_before_id__gte=OuterRef("id"),
                )
            )
        )
        .first()
    )
    conversation = message.conversation if message else None
    if message is None or actor.id not in (conversation.user_low_id, conversation.user_high_id):
        # Someone else's message does not exist, as far as the actor can tell.
        raise NotFound("message not found")
    if message.hidden_for_actor:
        raise NotFound("message not found")
    if message.sender_id == actor.id:
        raise InvalidInput("cannot report your own message")
    _refuse_unstorable(reason, "reason")
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidInput("reason is required")
    reason = reason.strip()
    if len(reason) > settings.STGY_MESSAGE_REPORT_REASON_LENGTH_LIMIT:
        raise InvalidInput("reason is too long")
    if Report.objects.filter(message_id=message.id, reporter_id=actor.id).exists():
        raise Conflict("already reported")
    throttle.throttle_check(actor, throttle.USER_UPDATES, size=len(reason))
    return report_create(kind=ReportKind.MESSAGE, message=message, reporter=actor, reason=reason)


def conversation_read(actor: User, peer_id: int, *, page):
    """One page of the conversation with `peer_id`, newest first, marking the messages
    up to the newest one shown as read."""
    from ..selectors.messages import conversation_messages

    view = conversation_messages(actor, peer_id, page=page)
    if view.messages:
        conversation_mark_read(actor, peer_id, max(m.id for m in view.messages))
    return view
