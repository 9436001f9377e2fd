"""Marks in the cache that let an open page learn, without a database read, that its
thread or conversation has something new (docs/pages.md §6).

A post page polls "is there a reply under this post newer than the one I showed?"; a
message thread polls "is there a message newer than the one I showed?". The answer is
one cache read: every new reply sets the mark of each of its ancestors (up to
THREAD_DEPTH_LIMIT levels, one recursive query after the reply commits) to its id, and
every new message sets its conversation's mark. A mark the cache lost (evicted,
expired, Redis away) is read again from the database once and kept again with `add`,
so it can never go back in time over a newer mark written meanwhile."""

from __future__ import annotations

from django.core.cache import cache
from django.db import connection

from ..models import Post
from ..models.messages import Conversation
from .threads import THREAD_DEPTH_LIMIT

MARK_SECONDS = 3600  # a page open longer reads its mark from the database once an hour


def _replies_key(post_id: int) -> str:
    return f"live:replies:{post_id}"


def _conversation_key(user_id: int, peer_id: int) -> str:
    low, high = sorted((int(user_id), int(peer_id)))
    return f"live:dm:{low}:{high}"


def _chain_sql(direction: str) -> str:
    """Ids up ("ancestors", from a post) or down ("descendants", below it) a reply
    chain, at most THREAD_DEPTH_LIMIT levels (which also ends a malformed cycle)."""
    qn = connection.ops.quote_name
    post, pid, parent = (
        qn(Post._meta.db_table),
        qn(Post._meta.pk.column),
        qn(Post._meta.get_field("reply_to").column),
    )
    if direction == "ancestors":
        step = f"p.{pid} = c.parent_id"
        start = f"SELECT {pid}, {parent}, 0 FROM {post} WHERE {pid} = %s"
    else:
        step = f"p.{parent} = c.post_id"
        start = f"SELECT {pid}, {parent}, 0 FROM {post} WHERE {parent} = %s"
    return (
        f"WITH RECURSIVE chain(post_id, parent_id, depth) AS ({start} "
        f"UNION ALL SELECT p.{pid}, p.{parent}, c.depth + 1 FROM {post} p JOIN chain c ON {step} "
        f"WHERE c.depth < %s) "
    )


def post_mark(post_id: int, *, reply: bool) -> None:
    """After a post committed: nothing is under it yet (so its page's first poll needs no
    database read) and, for a reply, it is the newest reply under each ancestor."""
    cache.add(_replies_key(post_id), 0, MARK_SECONDS)
    if reply:
        replies_mark(post_id)


def replies_mark(reply_id: int) -> None:
    """It is the newest reply under each of its ancestors."""
    with connection.cursor() as cursor:
        cursor.execute(
            _chain_sql("ancestors") + "SELECT post_id FROM chain WHERE depth > 0",
            [reply_id, THREAD_DEPTH_LIMIT],
        )
        ancestors = [row[0] for row in cursor.fetchall()]
    if ancestors:
        cache.set_many({_replies_key(a): int(reply_id) for a in ancestors}, MARK_SECONDS)


def replies_newest(post_id: int) -> int:
    """The id of the newest reply anywhere under the post (0 for none); hidden ones
    included: the page that asks draws only what its reader may see."""
    key = _replies_key(post_id)
    newest = cache.get(key)
    if newest is None:
        with connection.cursor() as cursor:
            cursor.execute(
                _chain_sql("descendants") + "SELECT MAX(post_id) FROM chain",
                [post_id, THREAD_DEPTH_LIMIT],
            )
            newest = cursor.fetchone()[0] or 0
        cache.add(key, newest, MARK_SECONDS)
    return int(newest)


def conversation_mark(user_id: int, peer_id: int, message_id: int) -> None:
    """After a message committed: the conversation's newest message."""
    cache.set(_conversation_key(user_id, peer_id), int(message_id), MARK_SECONDS)


def conversation_newest(user_id: int, peer_id: int) -> int:
    """The id of the newest message between the two (0 for none)."""
    key = _conversation_key(user_id, peer_id)
    newest = cache.get(key)
    if newest is None:
        low, high = sorted((int(user_id), int(peer_id)))
        row = Conversation.objects.filter(user_low_id=low, user_high_id=high).values_list(
            "last_message_id", flat=True
        )
        newest = row.first() or 0
        cache.add(key, newest, MARK_SECONDS)
    return int(newest)
