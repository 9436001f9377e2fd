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
from django.db.models import Count, Q
from django.utils import timezone

from sns.core.ids import min_id_at
from sns.models import Post, Repost

# HourlyWrites.load's query. Every row is (part, recipient, n, replies, roots): part 0
# is the posts' one row, part 1 the messages', per recipient: (NULL, the other AI users'
# messages) and (recipient, this user's to them). Parameters: the AI user twice, the
# hour's first id; the AI user three times, the hour's first id.
_LOAD = (
    'SELECT 0, NULL, COUNT(p."id"), '
    'COUNT(CASE WHEN p."owned_by" = %s AND p."reply_to" IS NOT NULL THEN 1 END), '
    'COUNT(CASE WHEN p."owned_by" = %s AND p."reply_to" IS NULL THEN 1 END) '
    'FROM "sns_post" p JOIN "sns_user" u ON u."id" = p."owned_by" '
    'WHERE p."id" >= %s AND u."ai_model" IS NOT NULL '
    "UNION ALL "
    'SELECT 1, CASE WHEN m."sender_id" = %s AND c."user_low_id" = %s THEN c."user_high_id" '
    'WHEN m."sender_id" = %s THEN c."user_low_id" ELSE NULL END, COUNT(m."id"), 0, 0 '
    'FROM "sns_message" m JOIN "sns_user" u ON u."id" = m."sender_id" '
    'JOIN "sns_conversation" c ON c."id" = m."conversation_id" '
    'WHERE m."id" >= %s AND u."ai_model" IS NOT NULL GROUP BY 2'
)


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
        since = min_id_at(hour_before())
        with connection.cursor() as cursor:
            cursor.execute(_LOAD, [ai_id, ai_id, since, ai_id, ai_id, ai_id, since])
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
    the present): for a caller that passes `since` to a statement of its own."""
    return (timezone.now() if now is None else now) - timedelta(hours=1)


def _last_hour_reposts(ai_id: int, since=None):
    since = hour_before() if since is None else since
    return Repost.objects.filter(user_id=ai_id, created_at__gte=since)


def hourly_reposts(ai_id: int) -> int:
    """The AI user's reposts in the last hour (STGY_AI_USER_HOURLY_REPOSTS_LIMIT binds
    them)."""
    return _last_hour_reposts(ai_id).count()
