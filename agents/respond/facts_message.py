"""What the gates and the prompt need about a direct message to an AI user: the
message, its sender with the block facts both ways and the AI user's impression of
them, the AI user's own view of the conversation (a request?), and the newest messages
of the conversation (docs/respond-path.md, "Direct messages")."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, Subquery

from agents.models import AttentionEvent, PeerImpression
from agents.relationships import relationship_annotations
from sns.models import Block, Follow, User
from sns.models.messages import ConversationMember, Message
from sns.reads.access import block_annotations

# Messages shown to the model, the one answered included: a conversation's recent turns,
# bounded whatever its length.
CONVERSATION_LIMIT = 10


@dataclass
class MessageFacts:
    event: AttentionEvent
    message: Message | None
    sender: User | None = None  # annotated with the block facts and the peer impression
    member: ConversationMember | None = None  # the AI user's own view
    recent: list[Message] = field(default_factory=list)  # oldest first, the message included
    answered: bool = False  # the AI user wrote in the conversation after the message
    superseded: bool = False  # the sender wrote again after it

    @property
    def is_request(self) -> bool:
        return bool(self.member and self.member.is_request)


def message_facts_gather(ai: User, event: AttentionEvent) -> MessageFacts:
    """A handful of queries per message event (the message, the sender, the AI user's
    member row, the newest messages); a run holds at most STGY_RESPOND_BATCH events."""
    message = Message.objects.select_related("conversation").filter(pk=event.message_id).first()
    if message is None:
        return MessageFacts(event=event, message=None)
    of_sender = PeerImpression.objects.filter(user_id=ai.id, peer_id=OuterRef("pk")).values(
        "payload"
    )[:1]
    sender = (
        User.objects.filter(pk=event.sender_id)
        .annotate(
            **block_annotations(ai, "pk"),
            ai_blocks_sender=Exists(
                Block.objects.filter(blocker_id=ai.id, blockee_id=OuterRef("pk"))
            ),
            ai_follows_sender=Exists(
                Follow.objects.filter(follower_id=ai.id, followee_id=OuterRef("pk"))
            ),
            my_peer_impression=Subquery(of_sender),
            **relationship_annotations(ai.id, "pk"),
        )
        .first()
    )
    member = ConversationMember.objects.filter(
        conversation_id=message.conversation_id, user_id=ai.id
    ).first()
    newest = list(
        Message.objects.filter(conversation_id=message.conversation_id, id__gte=message.id)
        .order_by("id")
        .values_list("id", "sender_id")[:CONVERSATION_LIMIT]
    )
    before = list(
        Message.objects.filter(
            conversation_id=message.conversation_id, id__lte=message.id
        ).order_by("-id")[:CONVERSATION_LIMIT]
    )
    later = [s for i, s in newest if i > message.id]
    return MessageFacts(
        event=event,
        message=message,
        sender=sender,
        member=member,
        recent=before[::-1],
        answered=ai.id in later,
        superseded=event.sender_id in later,
    )
