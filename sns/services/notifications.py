"""Notifications, folded per recipient, slot and calendar day (docs/api.md §4).

Events are written after the action commits, in their own short transaction, so a
failed notification can never undo the like or reply that caused it.
"""

from __future__ import annotations

import json
import logging
import zoneinfo
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import BooleanField, CharField, Exists, Q, Value
from django.utils import timezone

from ..core.errors import InvalidInput
from ..core.textguard import refuse_invalid
from ..mdtree import notification_text
from ..models import Notification, Post, User
from ..reads.access import access_writable

log = logging.getLogger(__name__)


class _Gathered:
    """The events of one `notifications_gathered` block, by actor id, as their actions
    commit; an action that commits after the block ended (it ran inside a transaction
    the block did not see end) is recorded at once, as without the block."""

    def __init__(self) -> None:
        self.events: dict[int, list] = {}
        self.open = True

    def add(self, actor_id: int, events: list) -> None:
        if self.open:
            self.events.setdefault(actor_id, []).extend(events)
        else:
            _record_events(events, actor_id=actor_id)

    def record(self) -> None:
        self.open = False
        for actor_id, events in self.events.items():
            try:
                _record_events(events, actor_id=actor_id)
            except Exception:
                log.exception("notifications of actor %s failed", actor_id)


_gathered: ContextVar[_Gathered | None] = ContextVar("notifications_gathered", default=None)


@contextmanager
def notifications_gathered() -> Iterator[None]:
    """Within it, the notifications of the actions that commit (in this thread) are kept
    and recorded together when it ends, per actor as one batch (`_record_events`: two
    statements for the lot, not two per action). For a caller that writes several
    actions in a row, like an AI user's stage; each is still recorded only once its
    action has committed, and a failed notification never undoes anything."""
    gathered = _Gathered()
    token = _gathered.set(gathered)
    try:
        yield
    finally:
        _gathered.reset(token)
        gathered.record()


def _should_notify(recipient_id: int, actor: User) -> bool:
    if recipient_id == actor.id:
        return False
    return not (actor.is_ai and not settings.STGY_NOTIFY_FROM_AI_USERS)


def notify_follow(*, recipient_id: int, actor: User) -> None:
    if _should_notify(recipient_id, actor):
        record = {"userId": actor.hex_id, "userNickname": actor.nickname}
        _record_after_commit(actor, [(recipient_id, "follow", record, None)])


def notify_message(*, recipient_id: int, actor: User, request: bool) -> None:
    """A new direct message (slot "message") or message request ("message-request"),
    folded per day like follows. The record names the sender only: a message is
    private to its two members and a notification row is not (admins can list them)."""
    if _should_notify(recipient_id, actor):
        record = {"userId": actor.hex_id, "userNickname": actor.nickname}
        slot = "message-request" if request else "message"
        _record_after_commit(actor, [(recipient_id, slot, record, None)])


def notify_post_event(*, recipient_id: int, slot: str, actor: User, post) -> None:
    """`post` is the post the event is about: the liked post, the reply, the mentioning post."""
    if _should_notify(recipient_id, actor):
        record = {
            "userId": actor.hex_id,
            "userNickname": actor.nickname,
            "postId": post.hex_id,
            "postSnippet": notification_text(post.snippet),
        }
        _record_after_commit(actor, [(recipient_id, slot, record, post.id)])


def notify_post_events(events: list[tuple[int, str, Post]], *, actor: User) -> None:
    """Several `notify_post_event`s of one actor (the likes of one batched call): the
    same events, recorded after the commit in two statements for the lot when each is
    the first of its row (`_record_events`)."""
    _record_after_commit(
        actor,
        [
            (recipient_id, slot, {
                "userId": actor.hex_id,
                "userNickname": actor.nickname,
                "postId": post.hex_id,
                "postSnippet": notification_text(post.snippet),
            }, post.id)
            for recipient_id, slot, post in events
            if _should_notify(recipient_id, actor)
        ],
    )


def notify_follows(recipient_ids: list[int], *, actor: User) -> None:
    """Several `notify_follow`s of one actor (one batched follow call)."""
    record = {"userId": actor.hex_id, "userNickname": actor.nickname}
    _record_after_commit(
        actor, [(rid, "follow", dict(record), None) for rid in recipient_ids if _should_notify(rid, actor)]
    )


def _record_after_commit(actor: User, events: list[tuple[int, str, dict, int | None]]) -> None:
    gathered = _gathered.get()
    if gathered is not None and events:
        transaction.on_commit(lambda: gathered.add(actor.id, events))
    elif len(events) == 1:
        recipient_id, slot, record, post_pk = events[0]
        transaction.on_commit(lambda: _record_event(recipient_id, slot, record, actor_id=actor.id, post_pk=post_pk))
    elif events:
        transaction.on_commit(lambda: _record_events(events, actor_id=actor.id))


def _record_events(events: list[tuple[int, str, dict, int | None]], *, actor_id: int) -> None:
    """`_record_event` for each of several events of one actor, in order: recipients,
    actor and posts checked in one query; on PostgreSQL the events that are the first
    of their row inserted in one statement; the others folded one by one."""
    post_pks = {post_pk for _, _, _, post_pk in events if post_pk is not None}
    users = User.objects.filter(pk__in={actor_id, *(e[0] for e in events)}).values_list(
        "id", "timezone", Value(False, output_field=BooleanField())
    )
    if post_pks:
        posts = Post.objects.filter(pk__in=post_pks).values_list(
            "id", Value("", output_field=CharField()), Value(True, output_field=BooleanField())
        )
        users = users.union(posts, all=True)
    timezones, alive_posts = {}, set()
    for row_id, tz, is_post in users:
        if is_post:
            alive_posts.add(row_id)
        else:
            timezones[row_id] = tz
    if actor_id not in timezones:
        return
    live = [e for e in events if e[0] in timezones and (e[3] is None or e[3] in alive_posts)]
    try:
        inserted = _insert_firsts_of_day([(rid, slot, record, timezones[rid]) for rid, slot, record, _ in live])
    except Exception:
        log.exception("notifications of actor %s failed; recording them one by one", actor_id)
        inserted = set()
    for index, (recipient_id, slot, record, _) in enumerate(live):
        if index in inserted:
            continue
        try:
            _fold_event(recipient_id, slot, record, timezones[recipient_id])
        except IntegrityError:
            _fold_event(recipient_id, slot, record, timezones[recipient_id])
        except Exception:
            log.exception("notification for user %s slot %s failed", recipient_id, slot)


def _record_event(recipient_id: int, slot: str, record: dict, *, actor_id: int, post_pk: int | None) -> None:
    # The action has committed, but its actor or post may be gone already: such
    # events notify nobody (docs/api.md §4). Recipient, actor and post are checked
    # in one query.
    facts = User.objects.filter(pk=recipient_id).annotate(
        actor_exists=Exists(User.objects.filter(pk=actor_id)),
        post_exists=Exists(Post.objects.filter(pk=post_pk)) if post_pk is not None else Value(True),
    ).values_list("timezone", "actor_exists", "post_exists").first()
    if facts is None or not facts[1] or not facts[2]:
        return
    try:
        _fold_event(recipient_id, slot, record, facts[0])
    except IntegrityError:
        # Two events raced to create the same day's row; the second one folds into it.
        _fold_event(recipient_id, slot, record, facts[0])
    except Exception:
        log.exception("notification for user %s slot %s failed", recipient_id, slot)


def _fold_event(recipient_id: int, slot: str, record: dict, recipient_timezone: str) -> None:
    """One row per recipient, slot and day in the recipient's time zone: the newest
    `STGY_NOTIFICATION_PAYLOAD_RECORDS` records first, distinct user and post counts,
    re-marked unread, `updated_at` strictly increasing."""
    now = _now_ms()
    term = _term(now, recipient_timezone)
    record = {**record, "ts": int(now.timestamp())}
    limit = settings.STGY_NOTIFICATION_PAYLOAD_RECORDS
    if _insert_first_of_day(recipient_id, slot, term, record, now):
        return
    with transaction.atomic():
        row = (
            Notification.objects.select_for_update()
            .filter(user_id=recipient_id, slot=slot, term=term)
            .first()
        )
        if row is None:
            row = Notification(user_id=recipient_id, slot=slot, term=term, created_at=now, payload={})
        old = row.payload or {}
        users, count_users = _with_member(old.get("userIds", []), old.get("countUsers", 0), record["userId"])
        same = lambda r: r.get("userId") == record["userId"] and r.get("postId") == record.get("postId")  # noqa: E731
        records = [record] + [r for r in old.get("records", []) if not same(r)]
        payload = {"userIds": users, "countUsers": count_users, "records": records[:limit]}
        if "postId" in record:
            posts, count_posts = _with_member(old.get("postIds", []), old.get("countPosts", 0), record["postId"])
            payload["postIds"] = posts
            payload["countPosts"] = count_posts
        row.payload = payload
        row.is_read = False
        # updatedAt strictly increases so feed clients polling with newerThan never miss one.
        row.updated_at = max(now, row.updated_at + timedelta(milliseconds=1)) if row.updated_at else now
        row.save()


def _now_ms():
    # Millisecond precision, as the API prints it: a client that polls with the
    # `updatedAt` it last saw as `newerThan` must get 304, not that row again.
    now = timezone.now()
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def _term(now, recipient_timezone: str) -> str:
    """The notification row's day in the recipient's time zone."""
    try:
        tz = zoneinfo.ZoneInfo(recipient_timezone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        tz = zoneinfo.ZoneInfo("UTC")
    return now.astimezone(tz).strftime("%Y-%m-%d")


def _first_payload(slot: str, record: dict) -> dict:
    """The payload the fold below gives a row that has no events yet."""
    payload = {"userIds": [record["userId"]], "countUsers": 1, "records": [record]}
    if "postId" in record:
        payload["postIds"] = [record["postId"]]
        payload["countPosts"] = 1
    return payload


def _insert_first_of_day(recipient_id: int, slot: str, term: str, record: dict, now) -> bool:
    """Most events are the first of their row (a like or reply slot is per post): on
    PostgreSQL try to insert the row outright, one statement instead of a locked read
    and a write; False if the row exists already (or on another database), and the
    caller folds the event into it."""
    if connection.vendor != "postgresql":
        return False
    sql = _insert_sql(1, returning=connection.ops.quote_name(Notification._meta.pk.column))
    payload = json.dumps(_first_payload(slot, record))
    with connection.cursor() as cursor:
        cursor.execute(sql, [recipient_id, slot, term, payload, now, now])
        return cursor.fetchone() is not None


def _insert_sql(rows: int, *, returning: str) -> str:
    meta = Notification._meta
    qn = connection.ops.quote_name
    columns = ", ".join(qn(meta.get_field(f).column) for f in ("user", "slot", "term", "is_read", "payload", "updated_at", "created_at"))
    conflict = ", ".join(qn(meta.get_field(f).column) for f in ("user", "slot", "term"))
    values = ", ".join(["(%s, %s, %s, false, %s::jsonb, %s, %s)"] * rows)
    return f"INSERT INTO {qn(meta.db_table)} ({columns}) VALUES {values} ON CONFLICT ({conflict}) DO NOTHING RETURNING {returning}"


def _insert_firsts_of_day(events: list[tuple[int, str, dict, str]]) -> set[int]:
    """`_insert_first_of_day` for several (recipient, slot, record, time zone) events
    in one statement; the indexes of the events inserted. An event whose row exists
    (or whose row an earlier event of the list makes) is left to the fold."""
    if connection.vendor != "postgresql" or not events:
        return set()
    now = _now_ms()
    firsts: dict[tuple[int, str, str], int] = {}
    for index, (recipient_id, slot, _, tz) in enumerate(events):
        firsts.setdefault((recipient_id, slot, _term(now, tz)), index)
    params = []
    for (recipient_id, slot, term), index in firsts.items():
        record = {**events[index][2], "ts": int(now.timestamp())}
        params += [recipient_id, slot, term, json.dumps(_first_payload(slot, record)), now, now]
    qn = connection.ops.quote_name
    meta = Notification._meta
    returning = ", ".join(qn(meta.get_field(f).column) for f in ("user", "slot", "term"))
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(len(firsts), returning=returning), params)
        return {firsts[(row[0], row[1], row[2])] for row in cursor.fetchall()}


_MEMBERS_KEPT = 1000


def _with_member(members: list, count: int, member: str) -> tuple[list, int]:
    """Distinct members seen on a row (the newest 1000 kept) and their count."""
    if member in members:
        return members, max(count, len(members))
    members = (members + [member])[-_MEMBERS_KEPT:]
    return members, max(count + 1, len(members))


def notification_mark(actor: User, *, slot, term, is_read) -> None:
    access_writable(actor)
    if not isinstance(slot, str) or not isinstance(term, str) or not isinstance(is_read, bool):
        raise InvalidInput("slot, term and isRead are required")
    refuse_invalid(slot, "slot")
    refuse_invalid(term, "term")
    Notification.objects.filter(user_id=actor.id, slot=slot, term=term).update(is_read=is_read)


def notification_mark_all(actor: User, *, is_read) -> None:
    access_writable(actor)
    if not isinstance(is_read, bool):
        raise InvalidInput("isRead is required")
    Notification.objects.filter(user_id=actor.id).exclude(is_read=is_read).update(is_read=is_read)


def notifications_mark_read(actor: User, keys) -> int:
    """Mark several (slot, term) notifications of the actor read in one statement: an
    AI user marks the reply and mention notifications it has consumed."""
    access_writable(actor)
    condition = Q()
    for slot, term in keys:
        condition |= Q(slot=slot, term=term)
    if not condition:
        return 0
    return Notification.objects.filter(condition, user_id=actor.id, is_read=False).update(is_read=True)


def notifications_purge() -> int:
    cutoff = timezone.now() - timedelta(days=settings.STGY_NOTIFICATION_RETENTION_DAYS)
    deleted, _ = Notification.objects.filter(created_at__lt=cutoff).delete()
    return deleted
