"""Relationships of an AI user with its peers (docs/respond-path.md, "Relationships").

A score in [0, 1] per (AI user, peer). Each exchange moves it a step towards 1:
score ← s + w·(1 − s), with the weight of its kind (a reply answered, a like received, a
direct message exchanged; STGY_RELATIONSHIP_WEIGHT_*), so it never leaves [0, 1] and
grows more slowly as it gets close. In between it decays exponentially with the
half-life STGY_RELATIONSHIP_HALF_LIFE_DAYS. Stored with the time it was last updated,
so a read is one row; `relationships_rebuild` recomputes it from the posts, likes and
messages themselves. None is kept with a person who asked AI users not to remember
them (`aiMemory` "none", docs/what-ai-users-know.md).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from agents.memory_versions import ADMIN, EXCHANGE, VersionSource, version_row, versions_add
from agents.models import MemoryVersion, Relationship
from sns.models import Like, Post
from sns.models.messages import Message
from sns.selectors.boundaries import ai_memory_withheld, ai_stop_get

# Score thresholds of the levels (the level shown and given to the model). Why these:
# one answered reply (0.15) keeps a stranger a stranger, two or three exchanges make an
# acquaintance, a steady exchange over weeks is needed for a friend.
LEVELS = ((0.8, "close friend"), (0.5, "friend"), (0.2, "acquaintance"), (0.0, "stranger"))
# A rebuild reads this many half-lives back: older exchanges weigh less than 1/256.
REBUILD_HALF_LIVES = 8
# What an opener left unanswered costs (docs/respond-path.md, "Relationships"): small,
# so a person who is busy for a while is not turned into a stranger, but an AI user
# whose openers keep going unanswered slowly stops counting them as a friend.
UNANSWERED_OPENER_STEP = 0.01


def _weight(kind: str) -> float:
    return {
        "reply": settings.STGY_RELATIONSHIP_WEIGHT_REPLY,
        "like": settings.STGY_RELATIONSHIP_WEIGHT_LIKE,
        "message": settings.STGY_RELATIONSHIP_WEIGHT_MESSAGE,
    }[kind]


def decayed(score: float, since: datetime, now: datetime) -> float:
    days = max(0.0, (now - since).total_seconds() / 86400)
    return score * 0.5 ** (days / settings.STGY_RELATIONSHIP_HALF_LIFE_DAYS)


def level_of(score: float) -> str:
    return next(name for threshold, name in LEVELS if score >= threshold)


def _stepped(score: float, kind: str) -> float:
    w = min(1.0, max(0.0, _weight(kind)))
    return min(1.0, score + w * (1.0 - score))


def _level_versions(
    ai_id: int, changes: list[tuple[int, float | None, float]], source: VersionSource, at: datetime
) -> None:
    """A version for each (peer, score before or None, score after) whose level moved:
    the level is the memory the model is shown; the score's every step between is
    recomputable from the exchanges (`relationships_rebuild`)."""
    versions_add([
        version_row(ai_id, MemoryVersion.Kind.RELATIONSHIP, source, at=at, peer_id=peer, text=level_of(after), score=after)
        for peer, before, after in changes
        if before is None or level_of(before) != level_of(after)
    ])


def relationship_bump(
    ai_id: int, peer_id: int, kind: str, *, at: datetime | None = None, source: VersionSource = EXCHANGE
) -> None:
    """One exchange of `kind` ("reply", "like", "message") between the AI user and the
    peer: two queries (the locked row, then its update, or the new row), and a third
    when the level moves (its version). Two first exchanges racing may count as one;
    every later one counts."""
    if ai_id == peer_id:
        return
    now = at or timezone.now()
    if ai_stop_get(peer_id, ai_id, now=now) is not None:
        # Frozen while the person's stop holds: nothing they do then brings the AI
        # user closer (a like, say), and it does not write to them.
        return
    if ai_memory_withheld([peer_id]):
        return  # the person asked AI users not to remember them: no relationship kept
    with transaction.atomic(savepoint=False):
        row = (
            Relationship.objects.select_for_update().filter(user_id=ai_id, peer_id=peer_id).first()
        )
        if row is None:
            score = _stepped(0.0, kind)
            Relationship.objects.bulk_create(
                [Relationship(user_id=ai_id, peer_id=peer_id, score=score, updated_at=now)],
                ignore_conflicts=True,
            )
            _level_versions(ai_id, [(peer_id, None, score)], source, now)
            return
        before = decayed(row.score, row.updated_at, now)
        score = _stepped(before, kind)
        Relationship.objects.filter(pk=row.pk).update(
            score=score, updated_at=max(now, row.updated_at)
        )
        _level_versions(ai_id, [(peer_id, before, score)], source, now)


def relationship_opener_unanswered(
    ai_id: int, peer_id: int, opener_at: datetime, *, source: VersionSource, now: datetime | None = None
) -> bool:
    """The AI user's opener sent at `opener_at` is still unanswered: the score falls by
    UNANSWERED_OPENER_STEP, once per opener (the row's time moves past the opener, and
    an answer is an exchange, which moves it too). True if it fell."""
    now = now or timezone.now()
    with transaction.atomic(savepoint=False):
        row = Relationship.objects.select_for_update().filter(user_id=ai_id, peer_id=peer_id).first()
        if row is None or row.updated_at >= opener_at:
            return False
        before = decayed(row.score, row.updated_at, now)
        score = max(0.0, before - UNANSWERED_OPENER_STEP)
        Relationship.objects.filter(pk=row.pk).update(score=score, updated_at=max(now, row.updated_at))
        _level_versions(ai_id, [(peer_id, before, score)], source, now)
    return True


def relationship_now(row: Relationship | None, now: datetime | None = None) -> dict:
    """{"score", "level"} as of now (a missing row: a stranger)."""
    score = 0.0 if row is None else decayed(row.score, row.updated_at, now or timezone.now())
    return {"score": round(score, 3), "level": level_of(score)}


def relationship_annotations(ai_id: int, peer_field: str) -> dict:
    """The AI user's relationship with the peer in `peer_field`, as annotations, so a
    batch of posts (or the sender's row) carries it at no query more; read it back with
    `relationship_annotated`."""
    from django.db.models import OuterRef, Subquery

    row = Relationship.objects.filter(user_id=ai_id, peer_id=OuterRef(peer_field))
    return {
        "rel_score": Subquery(row.values("score")[:1]),
        "rel_updated_at": Subquery(row.values("updated_at")[:1]),
    }


def relationship_annotated(obj) -> str:
    """The level, from a row annotated by `relationship_annotations`."""
    if obj.rel_score is None:
        return level_of(0.0)
    return relationship_now(Relationship(score=obj.rel_score, updated_at=obj.rel_updated_at))[
        "level"
    ]


def likes_received(likes: list[tuple[int, int]]) -> None:
    """(AI user id, liker id) pairs of likes just given to AI users' posts."""
    for ai_id, liker_id in likes:
        relationship_bump(ai_id, liker_id, "like")


def relationships_rebuild(ai_id: int, *, now: datetime | None = None, source: VersionSource = ADMIN) -> int:
    """Recompute every relationship of the AI user from what it rests on, over the last
    REBUILD_HALF_LIVES half-lives: its replies to a peer's posts (a reply answered),
    likes of peers on its posts, and its messages to peers. Returns the peers scored."""
    now = now or timezone.now()
    since = now - timedelta(days=settings.STGY_RELATIONSHIP_HALF_LIFE_DAYS * REBUILD_HALF_LIVES)
    from sns.core.ids import min_id_at

    low = min_id_at(since)
    exchanges: list[tuple[datetime, int, str]] = []
    parents = dict(
        Post.objects.filter(
            id__in=Post.objects.filter(owner_id=ai_id, id__gte=low, reply_to__isnull=False).values(
                "reply_to"
            )
        )
        .exclude(owner_id=ai_id)
        .values_list("id", "owner_id")
    )
    for post_id, parent_id in Post.objects.filter(
        owner_id=ai_id, id__gte=low, reply_to__in=list(parents)
    ).values_list("id", "reply_to"):
        exchanges.append((Post(id=post_id).created_at, parents[parent_id], "reply"))
    for liker, at in (
        Like.objects.filter(post__owner_id=ai_id, created_at__gte=since)
        .exclude(user_id=ai_id)
        .values_list("user_id", "created_at")
    ):
        exchanges.append((at, liker, "like"))
    for message in Message.objects.filter(sender_id=ai_id, id__gte=low).select_related(
        "conversation"
    ):
        c = message.conversation
        exchanges.append(
            (
                message.created_at,
                c.user_high_id if c.user_low_id == ai_id else c.user_low_id,
                "message",
            )
        )
    scores: dict[int, tuple[float, datetime]] = {}
    withheld = ai_memory_withheld({peer for _, peer, _ in exchanges})
    for at, peer, kind in sorted(exchanges):
        if peer in withheld:
            continue
        score, last = scores.get(peer, (0.0, at))
        scores[peer] = (_stepped(decayed(score, last, at), kind), at)
    with transaction.atomic():
        before = {
            peer: decayed(score, at, now)
            for peer, score, at in Relationship.objects.filter(user_id=ai_id).values_list("peer_id", "score", "updated_at")
        }
        _level_versions(
            ai_id, [(p, before.get(p), decayed(s, t, now)) for p, (s, t) in scores.items()], source, now
        )
        Relationship.objects.filter(user_id=ai_id).delete()
        Relationship.objects.bulk_create(
            [
                Relationship(user_id=ai_id, peer_id=p, score=s, updated_at=t)
                for p, (s, t) in scores.items()
            ]
        )
    return len(scores)
