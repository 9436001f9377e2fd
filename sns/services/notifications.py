"""Notifications, folded per recipient, slot and calendar day (spec/api.md §4).

Events are written after the action commits, in their own short transaction, so a
failed notification can never undo the like or reply that caused it.
"""

from __future__ import annotations

import logging
import zoneinfo
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from ..access import access_writable
from ..errors import InvalidInput
from ..models import Notification, User

log = logging.getLogger(__name__)


def _should_notify(recipient_id: int, actor: User) -> bool:
    if recipient_id == actor.id:
        return False
    return not (actor.is_ai and not settings.STGY_NOTIFY_FROM_AI_USERS)


def notify_follow(*, recipient_id: int, actor: User) -> None:
    if _should_notify(recipient_id, actor):
        record = {"userId": actor.hex_id, "userNickname": actor.nickname}
        transaction.on_commit(lambda: _record_event(recipient_id, "follow", record, post_id=None))


def notify_post_event(*, recipient_id: int, slot: str, actor: User, post) -> None:
    """`post` is the post the event is about: the liked post, the reply, the mentioning post."""
    if _should_notify(recipient_id, actor):
        record = {
            "userId": actor.hex_id,
            "userNickname": actor.nickname,
            "postId": post.hex_id,
            "postSnippet": post.snippet[:200],
        }
        transaction.on_commit(lambda: _record_event(recipient_id, slot, record, post_id=post.hex_id))


def _record_event(recipient_id: int, slot: str, record: dict, *, post_id: str | None) -> None:
    try:
        _fold_event(recipient_id, slot, record, post_id)
    except IntegrityError:
        # Two events raced to create the same day's row; the second one folds into it.
        _fold_event(recipient_id, slot, record, post_id)
    except Exception:
        log.exception("notification for user %s slot %s failed", recipient_id, slot)


def _fold_event(recipient_id: int, slot: str, record: dict, post_id: str | None) -> None:
    recipient = User.objects.filter(pk=recipient_id).only("timezone").first()
    if recipient is None:
        return
    now = timezone.now()
    try:
        tz = zoneinfo.ZoneInfo(recipient.timezone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        tz = zoneinfo.ZoneInfo("UTC")
    term = now.astimezone(tz).strftime("%Y-%m-%d")
    record = {**record, "ts": int(now.timestamp())}
    limit = settings.STGY_NOTIFICATION_PAYLOAD_RECORDS
    with transaction.atomic():
        row = (
            Notification.objects.select_for_update()
            .filter(user_id=recipient_id, slot=slot, term=term)
            .first()
        )
        if row is None:
            row = Notification(user_id=recipient_id, slot=slot, term=term, created_at=now, payload={})
        payload = row.payload or {}
        users = payload.get("userIds", [])
        posts = payload.get("postIds", [])
        if record["userId"] not in users:
            users.append(record["userId"])
        if post_id and post_id not in posts:
            posts.append(post_id)
        same = lambda r: r.get("userId") == record["userId"] and r.get("postId") == record.get("postId")  # noqa: E731
        records = [record] + [r for r in payload.get("records", []) if not same(r)]
        payload = {"userIds": users[-1000:], "countUsers": len(users), "records": records[:limit]}
        if slot != "follow":
            payload["postIds"] = posts[-1000:]
            payload["countPosts"] = len(posts)
        row.payload = payload
        row.is_read = False
        # updatedAt strictly increases so feed clients polling with newerThan never miss one.
        row.updated_at = max(now, row.updated_at + timedelta(microseconds=1)) if row.updated_at else now
        row.save()


def notification_mark(actor: User, *, slot, term, is_read) -> None:
    access_writable(actor)
    if not isinstance(slot, str) or not isinstance(term, str) or not isinstance(is_read, bool):
        raise InvalidInput("slot, term and isRead are required")
    Notification.objects.filter(user_id=actor.id, slot=slot, term=term).update(is_read=is_read)


def notification_mark_all(actor: User, *, is_read) -> None:
    access_writable(actor)
    if not isinstance(is_read, bool):
        raise InvalidInput("isRead is required")
    Notification.objects.filter(user_id=actor.id).exclude(is_read=is_read).update(is_read=is_read)


def notifications_purge() -> int:
    cutoff = timezone.now() - timedelta(days=settings.STGY_NOTIFICATION_RETENTION_DAYS)
    deleted, _ = Notification.objects.filter(created_at__lt=cutoff).delete()
    return deleted
