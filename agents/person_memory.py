"""What AI users remember about one person, and "forget me" (docs/what-ai-users-know.md).

The person's own view of the memory AI users keep of her: for each AI user that holds
anything about her, its impression of her, the relationship level as a word, and its
impressions of her posts. The person herself and admins may read it and have it
forgotten (`sns.reads.access.access_user_self_or_admin`); the same functions serve the API
(agents/api/person_memory_views.py) and the settings page
(agents/web/person_memory_page.py).

Forgetting deletes the impression of her and the relationship, and blanks the texts of
the impressions of her posts: those rows stay as "already read" markers without text
(`agents.memory.MARKER`), so the AI users do not read and judge her old posts again.
Nothing else an AI user keeps names her in a later prompt: the interest stage reads
only impressions with text (agents/cycle/interest.py), and the cycle's and the respond
path's inputs read the rows deleted or blanked here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import Count, F, Max, Window
from django.db.models.functions import RowNumber

from agents.api.presenters import post_snippet
from agents.memory import MARKER
from agents.memory_versions import versions_forget_person
from agents.models import PeerImpression, PostImpression, Relationship
from agents.relationships import relationship_now
from sns.core.errors import NotFound
from sns.models import User
from sns.reads.access import access_user_self_or_admin, access_writable
from sns.selectors import Page
from sns.selectors.visibility import viewable_flag

# Impressions of her posts shown with each AI user, newest first; the count of all of
# them goes with them.
POSTS_PER_AI_USER = 20


@dataclass(frozen=True)
class PostMemory:
    post_id: int
    excerpt: str
    impression: str
    tags: list[str]
    updated_at: datetime


@dataclass(frozen=True)
class AiMemoryOfPerson:
    """What one AI user holds about the person. `impression` is None when it holds no
    impression of her (only of her posts, or a relationship); `relationship` is the
    level's word ("stranger", "acquaintance", "friend", "close friend"), None without
    one."""

    ai_user: User
    updated_at: datetime
    impression: str | None = None
    tags: list[str] = field(default_factory=list)
    impression_at: datetime | None = None
    relationship: str | None = None
    posts: list[PostMemory] = field(default_factory=list)
    post_count: int = 0


def readable(payload: str) -> tuple[str, list[str]]:
    """An impression payload as text and tags. The cycle writes JSON; a payload written
    through the API may be any text, which is shown as it is."""
    try:
        data = json.loads(payload)
    except (TypeError, ValueError):
        data = None
    if not isinstance(data, dict):
        return str(payload or ""), []
    tags = data.get("tags")
    return str(data.get("impression", "")), [str(t) for t in tags] if isinstance(tags, list) else []


def ai_user_get(ai_user_id: int) -> User:
    """The AI user by id; NotFound for an unknown id or a user who is not an AI user."""
    ai = User.objects.filter(pk=ai_user_id).first()
    if ai is None or not ai.is_ai:
        raise NotFound("AI user not found")
    return ai


def _newest_by_ai_user(person_id: int, ai_user_id: int | None) -> dict[int, tuple[datetime, int]]:
    """{AI user id: (its newest memory of the person, impressions of her posts)}, over
    the three kinds of memory (three grouped reads, one row per AI user at most)."""
    peers = PeerImpression.objects.filter(peer_id=person_id)
    posts = PostImpression.objects.filter(peer_id=person_id).exclude(payload=MARKER)
    relations = Relationship.objects.filter(peer_id=person_id)
    if ai_user_id is not None:
        peers, posts, relations = (
            qs.filter(user_id=ai_user_id) for qs in (peers, posts, relations)
        )
    newest: dict[int, tuple[datetime, int]] = {}
    for user_id, at in peers.values_list("user_id", "updated_at"):
        newest[user_id] = (at, 0)
    for user_id, at, count in (
        posts.values("user_id")
        .annotate(at=Max("updated_at"), n=Count("id"))
        .values_list("user_id", "at", "n")
    ):
        old = newest.get(user_id, (at, 0))[0]
        newest[user_id] = (max(old, at), count)
    for user_id, at in relations.values_list("user_id", "updated_at"):
        old, count = newest.get(user_id, (at, 0))
        newest[user_id] = (max(old, at), count)
    return newest


def person_memory_list(
    actor: User, person_id: int, *, page: Page, ai_user_id: int | None = None
) -> list[AiMemoryOfPerson]:
    """The AI users that hold anything about the person, newest memory first (oldest
    first for order asc), one page of them. An AI user she blocked, or a frozen one, is
    listed too: what it holds is about her. The excerpts of her posts are read through
    the site's one visibility rule for the viewer (`viewable_flag`); her own posts are
    always hers to see. Reads: the access check, three grouped reads, then four reads
    for the page's AI users whatever its size."""
    person = access_user_self_or_admin(actor, person_id)
    if ai_user_id is not None:
        ai_user_get(ai_user_id)
    newest = _newest_by_ai_user(person.id, ai_user_id)
    ordered = sorted(
        newest.items(), key=lambda item: (item[1][0], item[0]), reverse=page.descending
    )
    chosen = [user_id for user_id, _ in ordered[page.offset : page.end]]
    if not chosen:
        return []
    users = User.objects.in_bulk(chosen)
    impressions = {
        row.user_id: row
        for row in PeerImpression.objects.filter(peer_id=person.id, user_id__in=chosen)
    }
    relations = {
        row.user_id: row
        for row in Relationship.objects.filter(peer_id=person.id, user_id__in=chosen)
    }
    posts: dict[int, list[PostMemory]] = {}
    rows = (
        PostImpression.objects.filter(peer_id=person.id, user_id__in=chosen)
        .exclude(payload=MARKER)
        .annotate(
            rank=Window(
                RowNumber(),
                partition_by=[F("user_id")],
                order_by=[F("updated_at").desc(), F("post_id").desc()],
            ),
            viewable=viewable_flag(actor, "post__owner"),
        )
        .filter(rank__lte=POSTS_PER_AI_USER)
        .order_by("user_id", "rank")
        .values_list("user_id", "post_id", "post__content", "viewable", "payload", "updated_at")
    )
    for user_id, post_id, content, viewable, payload, at in rows:
        text, tags = readable(payload)
        # The same excerpt as the AI API's postSnippet.
        excerpt = post_snippet(content) if viewable else ""
        posts.setdefault(user_id, []).append(PostMemory(post_id, excerpt, text, tags, at))
    result = []
    for user_id in chosen:
        impression = impressions.get(user_id)
        text, tags = readable(impression.payload) if impression is not None else (None, [])
        relation = relations.get(user_id)
        result.append(
            AiMemoryOfPerson(
                ai_user=users[user_id],
                updated_at=newest[user_id][0],
                impression=text,
                tags=tags,
                impression_at=impression.updated_at if impression is not None else None,
                relationship=relationship_now(relation)["level"] if relation is not None else None,
                posts=posts.get(user_id, []),
                post_count=newest[user_id][1],
            )
        )
    return result


def person_memory_forget(
    actor: User, person_id: int, *, ai_user_id: int | None = None
) -> dict[str, int]:
    """Forget the person: what every AI user (or the one `ai_user_id`) holds about her.
    THE place where forgetting happens — the page, the API and any later kind of memory
    about a person go through here. The impression of her and the relationship are
    deleted; the impressions of her posts lose their text and stay as read markers.
    Her `aiMemory` setting and the AI users' interest texts are not changed. Returns
    how many rows of each kind were forgotten."""
    access_writable(actor)
    person = access_user_self_or_admin(actor, person_id)
    if ai_user_id is not None:
        ai_user_get(ai_user_id)
    peers = PeerImpression.objects.filter(peer_id=person.id)
    posts = PostImpression.objects.filter(peer_id=person.id).exclude(payload=MARKER)
    relations = Relationship.objects.filter(peer_id=person.id)
    if ai_user_id is not None:
        peers, posts, relations = (
            qs.filter(user_id=ai_user_id) for qs in (peers, posts, relations)
        )
    with transaction.atomic():
        forgotten = {
            "peerImpressions": peers.delete()[0],
            "postImpressions": posts.update(payload=MARKER),
            "relationships": relations.delete()[0],
        }
        # The earlier values of that memory go too: versions keep what was written.
        versions_forget_person(person.id, user_id=ai_user_id)
    return forgotten
