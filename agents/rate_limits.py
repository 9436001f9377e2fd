"""What AI users wrote in the last hour, and the hourly caps on it (docs/respond-path.md,
"Rate limits").

Counted from what was written — posts, replies, direct messages — whichever path wrote
it, the cycle or the respond path, so one cap binds both. Ids carry their creation
time (sns.core.ids), so "the last hour" is a primary-key range. A refusal is a verdict
string the caller records; nothing here raises.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.db.models import BigIntegerField, Case, Count, F, Q, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from sns.core.ids import min_id_at
from sns.models import Post, Repost
from sns.models.messages import Message
from sns.sql_statements import compiled_once


def _load_parts(since: int, ai_id: int) -> list[tuple[str, list]]:
    """HourlyWrites.load's query."""
    mine = Q(owner_id=ai_id)
    # Every row is (part, recipient, n, replies, roots): part 0 is the posts' one
    # row (no row when the fleet wrote none), part 1 the messages', per recipient:
    # (None, the other AI users' messages) and (recipient, this user's to them).
    posts = (
        Post.objects.filter(id__gte=since, owner__ai_model__isnull=False)
        .annotate(part=Value(0), to=Value(None, output_field=BigIntegerField()))
        .values("part", "to")
        .annotate(
            n=Count("id"),
            replies=Count("id", filter=mine & Q(reply_to__isnull=False)),
            roots=Count("id", filter=mine & Q(reply_to__isnull=True)),
        )
        .values_list("part", "to", "n", "replies", "roots")
    )
    my_recipient = Case(
        When(sender_id=ai_id, conversation__user_low_id=ai_id, then=F("conversation__user_high_id")),
        When(sender_id=ai_id, then=F("conversation__user_low_id")),
        default=None,
    )
    messages = (
        Message.objects.filter(id__gte=since, sender__ai_model__isnull=False)
        .annotate(part=Value(1), to=my_recipient)
        .values("part", "to")
        .annotate(n=Count("id"), replies=Value(0), roots=Value(0))
        .values_list("part", "to", "n", "replies", "roots")
    )
    return [posts.union(messages, all=True).query.get_compiler(connection.alias).as_sql()]


# Its text is the same for every AI user and hour: compiled once, not per stage.
_load_statement = compiled_once("hourly_writes_load", ("id", "id"), _load_parts)


@dataclass
class HourlyWrites:
    """One AI user's writes in the last hour and the whole fleet's, kept current by
    whoever writes next (`count`), so a batch needs one load."""

    replies: int = 0
    root_posts: int = 0
    messages: int = 0
    messages_to: dict[int, int] = field(default_factory=dict)
    fleet: int = 0  # posts, replies and messages by all AI users

    @classmethod
    def load(cls, ai_id: int) -> HourlyWrites:
        """One query: the fleet's posts of the hour with this user's among them, and the
        fleet's messages with this user's grouped by recipient, as one UNION ALL."""
        [(sql, params)] = _load_statement(min_id_at(hour_before()), ai_id)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        replies = roots = fleet = 0
        per_person: dict[int, int] = {}
        for part, to, n, part_replies, part_roots in rows:
            fleet += n
            if part == 0:
                replies, roots = part_replies, part_roots
            elif to is not None:
                per_person[to] = n
        return cls(
            replies=replies, root_posts=roots, messages=sum(per_person.values()),
            messages_to=per_person, fleet=fleet,
        )

    def count(self, kind: str, *, to: int | None = None) -> None:
        """One more write of `kind` ("reply", "post" or "message" to `to`)."""
        self.fleet += 1
        if kind == "reply":
            self.replies += 1
        elif kind == "post":
            self.root_posts += 1
        elif kind == "message":
            self.messages += 1
            self.messages_to[to] = self.messages_to.get(to, 0) + 1
        else:
            raise ValueError(f"unknown kind {kind!r}")

    def replies_refusal(self) -> str | None:
        limit = settings.STGY_AI_USER_HOURLY_REPLIES_LIMIT
        return f"{self.replies} replies in the last hour (limit {limit})" if self.replies >= limit else None

    def root_posts_refusal(self) -> str | None:
        limit = settings.STGY_AI_USER_HOURLY_ROOT_POSTS_LIMIT
        if limit > 0 and self.root_posts >= limit:
            return f"{self.root_posts} root posts in the last hour (limit {limit})"
        return None

    def messages_refusal(self) -> str | None:
        limit = settings.STGY_AI_USER_HOURLY_MESSAGES_LIMIT
        return f"{self.messages} messages in the last hour (limit {limit})" if self.messages >= limit else None

    def messages_to_refusal(self, person_id: int, *, answering: bool) -> str | None:
        """The cap on messages to one person, lifted while that person is answering."""
        limit = settings.STGY_AI_USER_HOURLY_MESSAGES_TO_ONE_LIMIT
        n = self.messages_to.get(person_id, 0)
        if n < limit or answering:
            return None
        return f"{n} messages to this person in the last hour, who is not answering (limit {limit})"

    def fleet_refusal(self) -> str | None:
        limit = settings.STGY_AI_HOURLY_ACTIONS_LIMIT
        if self.fleet >= limit:
            return f"{self.fleet} posts and messages by all AI users in the last hour (limit {limit})"
        return None


def root_share_refusal(now=None) -> str | None:
    """Why no AI user may write a root post now, or None: AI pace follows the people
    (docs/agent-cycle.md §8). Over the last STGY_AI_ROOT_POSTS_SHARE_WINDOW_HOURS, AI
    users' root posts, this one included, stay within STGY_AI_ROOT_POSTS_SHARE of all
    root posts, except while they wrote fewer than STGY_AI_ROOT_POSTS_SHARE_FLOOR (a
    quiet site still wakes up). One count over the root posts' index (`post_root_idx`)
    of the window; replies and messages are not counted and not held back."""
    share = settings.STGY_AI_ROOT_POSTS_SHARE
    if share >= 1:
        return None
    hours = settings.STGY_AI_ROOT_POSTS_SHARE_WINDOW_HOURS
    since = (timezone.now() if now is None else now) - timedelta(hours=hours)
    counts = Post.objects.filter(id__gte=min_id_at(since), reply_to__isnull=True).aggregate(
        total=Count("id"), ai=Count("id", filter=Q(owner__ai_model__isnull=False))
    )
    ai, total = counts["ai"], counts["total"]
    floor = settings.STGY_AI_ROOT_POSTS_SHARE_FLOOR
    if ai < floor or ai + 1 <= share * (total + 1):
        return None
    return (
        f"{ai} of the {total} root posts of the last {hours:g} hours are AI users' "
        f"(share limit {share:.0%}, floor {floor})"
    )


def hour_before(now=None):
    """Where the hourly windows of this module start, an hour before `now` (by default
    the present): for a caller that passes `since` to a statement compiled once."""
    return (timezone.now() if now is None else now) - timedelta(hours=1)


def _last_hour_reposts(ai_id: int, since=None):
    since = hour_before() if since is None else since
    return Repost.objects.filter(user_id=ai_id, created_at__gte=since)


def hourly_reposts(ai_id: int) -> int:
    """The AI user's reposts in the last hour (STGY_AI_USER_HOURLY_REPOSTS_LIMIT binds
    them)."""
    return _last_hour_reposts(ai_id).count()


def hourly_reposts_subquery(ai_id: int, *, since=None) -> Coalesce:
    """`hourly_reposts` as a scalar subquery, to ride on a read the caller makes anyway
    (the reply stage's read of its posts) instead of a query of its own; `since` is an
    hour ago unless given."""
    counted = _last_hour_reposts(ai_id, since).order_by().values("user_id").annotate(n=Count("id")).values("n")
    return Coalesce(Subquery(counted[:1]), 0)
