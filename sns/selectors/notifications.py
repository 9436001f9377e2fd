"""Reads of a user's notifications."""

from __future__ import annotations

from django.db.models import Q

from ..errors import InvalidInput
from ..ids import parse_id
from ..models import Notification
from .paging import union_all
from .visibility import hidden_user_ids


def notification_rows(user_id: int, *, shown: int, where: Q = Q()) -> list[Notification]:
    """Up to `shown` unread and `shown` read notifications (those matching `where`),
    newest first, as stored, in one query where the database can. Rows touched in the
    same millisecond keep a stable order: the newer row first."""
    base = Notification.objects.filter(where, user_id=user_id)
    unread = base.filter(is_read=False).order_by("-updated_at", "-id")[:shown]
    read = base.filter(is_read=True).order_by("-updated_at", "-id")[:shown]
    return sorted(union_all(unread, read), key=lambda n: (n.updated_at, n.id), reverse=True)


def notifications_feed(viewer, *, newer_than=None, shown: int = 50, where: Q = Q()) -> list[Notification] | None:
    """`notification_rows` of `viewer` (those matching `where`) with the events of users
    hidden from them taken out (sns/selectors/visibility.py); a notification left with no
    event is dropped. None means "nothing new" (the API answers 304) when `newer_than` is
    given."""
    base = Notification.objects.filter(where, user_id=viewer.id)
    if newer_than is not None and not base.filter(is_read=False, updated_at__gt=newer_than).exists():
        return None
    rows = notification_rows(viewer.id, shown=shown, where=where)
    actors = {_user_id(record) for row in rows for record in _records(row)}
    hidden = hidden_user_ids(viewer, actors - {None})
    if not hidden:
        return rows
    return [row for row in rows if _without(row, hidden)]


def _records(row: Notification) -> list:
    records = (row.payload or {}).get("records")
    return [r for r in records if isinstance(r, dict)] if isinstance(records, list) else []


def _user_id(record: dict) -> int | None:
    try:
        return parse_id(record.get("userId"))
    except InvalidInput:
        return None


def _without(row: Notification, hidden: set[int]) -> bool:
    """Takes the events of `hidden` users out of `row`'s payload (in memory, for this
    read only); False when none is left."""
    records = _records(row)
    kept = [r for r in records if _user_id(r) not in hidden]
    if len(kept) == len(records):
        return True
    if not kept:
        return False
    gone = [r for r in records if _user_id(r) in hidden]
    payload = dict(row.payload, records=kept)
    gone_users = {_user_id(r) for r in gone}
    payload["countUsers"] = max(len({_user_id(r) for r in kept}), int(payload.get("countUsers", 0)) - len(gone_users))
    if "countPosts" in payload:
        gone_posts = {r.get("postId") for r in gone if r.get("postId")}
        payload["countPosts"] = max(0, int(payload["countPosts"]) - len(gone_posts))
    row.payload = payload
    return True


def notifications_unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, is_read=False).count()


def notification_public_payload(notification: Notification) -> dict:
    payload = dict(notification.payload or {})
    payload.pop("userIds", None)
    payload.pop("postIds", None)
    return payload
