"""JSON shapes of the direct-message and AI-boundary routes (docs/messages.md)."""

from __future__ import annotations

from sns.core.ids import id_to_datetime, id_to_hex
from sns.selectors.boundaries import person_zone

from .presenters import iso


def conversation_json(member) -> dict:
    """A row of `sns.selectors.messages.conversations_list`."""
    peer = member.peer
    last_id = member.conversation.last_message_id
    return {
        "userId": id_to_hex(peer.id),
        "userNickname": peer.nickname,
        "userAiModel": peer.ai_model,
        "folder": "requests" if member.is_request else "inbox",
        "countUnread": member.unread,
        "lastMessageId": id_to_hex(last_id),
        "lastMessageSenderId": id_to_hex(member.last_sender_id)
        if member.last_sender_id is not None
        else None,
        "lastMessageSnippet": member.last_preview or "",
        "updatedAt": iso(id_to_datetime(last_id)),
    }


def message_json(message, recipient_id: int) -> dict:
    return {
        "id": id_to_hex(message.id),
        "senderId": id_to_hex(message.sender_id),
        "recipientId": id_to_hex(recipient_id),
        "content": message.content,
        "createdAt": iso(message.created_at),
    }


def report_json(report) -> dict:
    return {
        "id": id_to_hex(report.id),
        "messageId": id_to_hex(report.message_id),
        "reason": report.reason,
        "status": report.status,
        "createdAt": iso(report.created_at),
    }


def _hhmm(moment) -> str | None:
    return None if moment is None else f"{moment:%H:%M}"


def boundaries_json(boundaries, user) -> dict:
    return {
        "allowReplies": boundaries.allow_replies,
        "allowMentions": boundaries.allow_mentions,
        "allowMessages": boundaries.allow_messages,
        "quietHoursStart": _hhmm(boundaries.quiet_start),
        "quietHoursEnd": _hhmm(boundaries.quiet_end),
        # The zone the quiet hours are read in: the account's setting (PUT /users/{id}).
        "timezone": person_zone(user).key,
    }


def stop_json(stop) -> dict:
    return {
        "aiUserId": id_to_hex(stop.ai_user_id),
        "aiUserNickname": stop.ai_user.nickname,
        "until": iso(stop.until),
        "createdAt": iso(stop.created_at),
        "source": stop.source,
    }
