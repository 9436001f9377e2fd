"""Reads of direct messages, each for a `viewer` who must be a member.

Nobody else reads a conversation — not admins either (they see only reported
conversations, in the Django admin review queue). A list page costs a constant number
of queries: the peer and conversation joined, the unread count and the newest message
as correlated subqueries.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, F, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce, Substr

from ..core.errors import InvalidInput, NotFound
from ..models import User
from ..models.messages import ConversationMember, Message
from .paging import Page

FOLDERS = ("inbox", "requests")
_PREVIEW_CHARS = 200


def _folder_is_request(folder: str) -> bool:
    if folder not in FOLDERS:
        raise InvalidInput("invalid folder")
    return folder == "requests"


def _unread_subquery(viewer_id: int) -> Subquery:
    unread = (
        Message.objects.filter(conversation_id=OuterRef("conversation_id"))
        .filter(id__gt=OuterRef("last_read_id"))
        .filter(id__gt=OuterRef("hidden_before_id"))
        .exclude(sender_id=viewer_id)
        .order_by()
        .values("conversation_id")
        .annotate(n=Count("id"))
        .values("n")
    )
    return Coalesce(Subquery(unread, output_field=IntegerField()), Value(0))


def conversations_list(viewer: User, *, folder: str = "inbox", page: Page) -> list:
    """The viewer's conversations in `folder`, the most recently active first; each
    row is the viewer's ConversationMember with `peer`, `conversation`, `unread`,
    `last_sender_id` and `last_preview` (the newest message's first characters)."""
    newest = Message.objects.filter(id=OuterRef("conversation__last_message_id"))
    qs = (
        ConversationMember.objects.filter(
            user_id=viewer.id,
            is_request=_folder_is_request(folder),
            conversation__last_message_id__gt=F("hidden_before_id"),
        )
        .select_related("peer", "conversation")
        .annotate(
            unread=_unread_subquery(viewer.id),
            last_sender_id=Subquery(newest.values("sender_id")[:1]),
            last_preview=Subquery(
                newest.annotate(preview=Substr("content", 1, _PREVIEW_CHARS)).values("preview")[:1]
            ),
        )
        .order_by("-conversation__last_message_id")
    )
    return list(qs[page.offset : page.offset + page.limit])


@dataclass(frozen=True)
class ConversationView:
    viewer: User
    peer: User
    member: ConversationMember | None
    messages: list[Message]

    @property
    def is_request(self) -> bool:
        return bool(self.member and self.member.is_request)

    def sender_of(self, message: Message) -> User:
        return self.viewer if message.sender_id == self.viewer.id else self.peer


def conversation_messages(viewer: User, peer_id: int, *, page: Page) -> ConversationView:
    """The messages between the viewer and `peer_id` that the viewer has not hidden,
    newest first (`page.order` "asc" for oldest first). An unknown peer is a 404; a
    peer without a conversation yet gives no messages."""
    peer = User.objects.filter(pk=peer_id).first()
    if peer is None:
        raise NotFound("not found")
    member = (
        ConversationMember.objects.filter(user_id=viewer.id, peer_id=peer_id)
        .select_related("conversation")
        .first()
    )
    messages: list[Message] = []
    if member is not None:
        qs = Message.objects.filter(
            conversation_id=member.conversation_id, id__gt=member.hidden_before_id
        ).order_by("-id" if page.descending else "id")
        messages = list(qs[page.offset : page.offset + page.limit])
    return ConversationView(viewer=viewer, peer=peer, member=member, messages=messages)


def messages_unread_counts(viewer_id: int) -> dict[str, int]:
    """Unread messages in the viewer's inbox and in their requests, in one query that
    reads only the viewer's conversations."""
    request = _member_column("is_request")
    sql = f"SELECT cm.{request}, COUNT(*) {unread_messages_from()} GROUP BY cm.{request}"
    counts = {"inbox": 0, "requests": 0}
    with connection.cursor() as cursor:
        cursor.execute(sql, [viewer_id, viewer_id])
        for is_request, count in cursor.fetchall():
            counts["requests" if is_request else "inbox"] = int(count)
    return counts


def inbox_unread_sql() -> str:
    """`messages_unread_counts(viewer_id)["inbox"]` as a statement of its own, taking
    the viewer's id twice (composed into the header's one statement,
    sns/selectors/header_counts.py)."""
    return f"SELECT COUNT(*) {unread_messages_from()} AND NOT cm.{_member_column('is_request')}"


def unread_messages_from() -> str:
    """The FROM and WHERE of the unread messages of a viewer's conversations (`cm`
    their membership, `m` the messages others sent after what they read or hid),
    taking the viewer's id twice: what counts as unread, stated once."""
    qn = connection.ops.quote_name
    member, message = ConversationMember._meta, Message._meta

    def col(meta, name):
        return qn(meta.get_field(name).column)

    return (
        f"FROM {qn(member.db_table)} cm "
        f"JOIN {qn(message.db_table)} m ON m.{col(message, 'conversation')} = "
        f"cm.{col(member, 'conversation')} AND m.{col(message, 'id')} > cm.{col(member, 'last_read_id')} "
        f"AND m.{col(message, 'id')} > cm.{col(member, 'hidden_before_id')} "
        f"AND m.{col(message, 'sender')} <> %s "
        f"WHERE cm.{col(member, 'user')} = %s"
    )


def _member_column(name: str) -> str:
    return connection.ops.quote_name(ConversationMember._meta.get_field(name).column)
