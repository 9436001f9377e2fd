"""Reads of a user's notifications."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import BooleanField, Q, Value

from ..core.errors import InvalidInput
from ..core.ids import parse_id
from ..models import Notification, User
from .paging import union_all
from .visibility import viewable_posts, viewable_q


def notification_rows(user_id: int, *, shown: int, where: Q = Q()) -> list[Notification]:
    """Up to `shown` unread and `shown` read notifications (those matching `where`),
    newest first, as stored, in one query where the database can. Rows touched in the
    same millisecond keep a stable order: the newer row first."""
    base = Notification.objects.filter(where, user_id=user_id)
    unread = base.filter(is_read=False).order_by("-updated_at", "-id")[:shown]
    read = base.filter(is_read=True).order_by("-updated_at", "-id")[:shown]
    return sorted(union_all(unread, read), key=lambda n: (n.updated_at, n.id), reverse=True)


def notifications_feed(viewer, *, newer_than=None, shown: int = 50, where: Q = Q()) -> list[Notification] | None:
    """`notification_rows` of `viewer` (those matching `where`) with the events they
    may no longer see taken out (`_Unseen`); a notification left with no event is
    dropped. None means "nothing new" (the API answers 304) when `newer_than` is
    given."""
    base = Notification.objects.filter(where, user_id=viewer.id)
    if newer_than is not None and not base.filter(is_read=False, updated_at__gt=newer_than).exists():
        return None
    rows = notification_rows(viewer.id, shown=shown, where=where)
    unseen = _unseen(viewer, [_records(row.payload) for row in rows])
    if not unseen:
        return rows
    return [row for row in rows if _without(row, unseen)]


def notifications_unread_count(viewer) -> int:
    """The unread notifications the viewer's notifications page lists: the newest
    STGY_NOTIFICATION_SHOWN_RECORDS unread rows, less those `notifications_feed` drops
    (the original's bell counts the unread rows of its feed, so the count is bounded as
    the list is). Only the rows' records are read; one query when nothing is unread."""
    return unread_count_of(viewer, unread_records(viewer.id))


def unread_records(viewer_id: int):
    """The `records` of the unread rows `notifications_unread_count` counts, newest
    first (a query, also composed into the header's one statement)."""
    shown = settings.STGY_NOTIFICATION_SHOWN_RECORDS
    unread = Notification.objects.filter(user_id=viewer_id, is_read=False).order_by("-updated_at", "-id")
    return unread.values_list("payload__records", flat=True)[:shown]


def unread_count_of(viewer, unread_records) -> int:
    """`notifications_unread_count` from the `records` of those rows (newest first, as
    many as it reads), however they were read (sns/selectors/header_counts.py reads
    them in the header's one statement)."""
    lists = [_records({"records": r}) for r in unread_records]
    unseen = _unseen(viewer, lists)
    return sum(1 for records in lists if _kept(records, unseen) or not records)


@dataclass(frozen=True)
class _Unseen:
    """What a notification may no longer show its recipient: the events of users hidden
    from them (sns/selectors/visibility.py, deleted users too) and the events about
    posts they can no longer see (deleted, or hidden by the same rule)."""

    users: frozenset[int]
    posts: frozenset[str]

    def __bool__(self) -> bool:
        return bool(self.users or self.posts)

    def hides(self, record: dict) -> bool:
        return _user_id(record) in self.users or record.get("postId") in self.posts


def _unseen(viewer, record_lists: list[list[dict]]) -> _Unseen:
    """The `_Unseen` of the records' users and posts, in one query (none without records)."""
    user_ids = {_user_id(r) for records in record_lists for r in records} - {None}
    post_hexes = {r["postId"] for records in record_lists for r in records if isinstance(r.get("postId"), str)}
    post_ids = {}
    for hex_id in post_hexes:
        try:
            post_ids[parse_id(hex_id)] = hex_id
        except InvalidInput:
            pass
    if not user_ids and not post_ids:
        return _Unseen(frozenset(), frozenset())
    seen = User.objects.filter(pk__in=user_ids).filter(viewable_q(viewer, "")).values_list(
        "pk", Value(False, output_field=BooleanField())
    )
    if post_ids:
        posts = viewable_posts(viewer).filter(pk__in=post_ids).values_list(
            "pk", Value(True, output_field=BooleanField())
        )
        seen = seen.union(posts, all=True)
    seen_users, seen_posts = set(), set()
    for pk, is_post in seen:
        (seen_posts if is_post else seen_users).add(pk)
    return _Unseen(
        frozenset(user_ids - seen_users),
        frozenset(hex_id for pk, hex_id in post_ids.items() if pk not in seen_posts),
    )


def _records(payload) -> list:
    records = (payload or {}).get("records")
    return [r for r in records if isinstance(r, dict)] if isinstance(records, list) else []


def _user_id(record: dict) -> int | None:
    try:
        return parse_id(record.get("userId"))
    except InvalidInput:
        return None


def _kept(records: list[dict], unseen: _Unseen) -> list[dict]:
    return [r for r in records if not unseen.hides(r)] if unseen else records


def _without(row: Notification, unseen: _Unseen) -> bool:
    """Takes the events `unseen` hides out of `row`'s payload (in memory, for this read
    only); False when none is left."""
    records = _records(row.payload)
    kept = _kept(records, unseen)
    if len(kept) == len(records):
        return True
    if not kept:
        return False
    gone = [r for r in records if unseen.hides(r)]
    payload = dict(row.payload, records=kept)
    gone_users = {_user_id(r) for r in gone} - {_user_id(r) for r in kept}
    payload["countUsers"] = max(len({_user_id(r) for r in kept}), int(payload.get("countUsers", 0)) - len(gone_users))
    if "countPosts" in payload:
        kept_posts = {r.get("postId") for r in kept if r.get("postId")}
        gone_posts = {r.get("postId") for r in gone if r.get("postId")} - kept_posts
        payload["countPosts"] = max(len(kept_posts), int(payload["countPosts"]) - len(gone_posts))
    row.payload = payload
    return True


def notification_public_payload(notification: Notification) -> dict:
    payload = dict(notification.payload or {})
    payload.pop("userIds", None)
    payload.pop("postIds", None)
    return payload
