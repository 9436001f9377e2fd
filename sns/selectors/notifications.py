"""Reads of a user's notifications."""

from __future__ import annotations

from ..models import Notification


def notifications_feed(user_id: int, *, newer_than=None, shown: int = 50) -> list[Notification] | None:
    """Up to `shown` unread and `shown` read notifications, newest first. None means
    "nothing new" (the API answers 304) when `newer_than` is given."""
    base = Notification.objects.filter(user_id=user_id)
    if newer_than is not None and not base.filter(is_read=False, updated_at__gt=newer_than).exists():
        return None
    # Rows touched in the same millisecond keep a stable order: the newer row first.
    unread = list(base.filter(is_read=False).order_by("-updated_at", "-id")[:shown])
    read = list(base.filter(is_read=True).order_by("-updated_at", "-id")[:shown])
    return sorted(unread + read, key=lambda n: (n.updated_at, n.id), reverse=True)


def notifications_unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, is_read=False).count()


def notification_public_payload(notification: Notification) -> dict:
    payload = dict(notification.payload or {})
    payload.pop("userIds", None)
    payload.pop("postIds", None)
    return payload
