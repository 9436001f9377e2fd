"""An AI user's memory: its interest, an impression of each peer it has read and of
each post it has read (docs/api.md §6, docs/data-model.md §4).

The HTTP API and the AI cycle call the same functions. Access: the user itself or an
admin (`forbidden` for anyone else); writes also need a writable actor. Writes are
upserts on the tables' unique keys with `updated_at = now`, so a redelivered task
writes the same row again instead of a second one. Every write names its source and
adds a version of the value it wrote (agents/memory_versions.py), in the same statement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import timezone

from agents.memory_versions import VersionSource, upsert_with_versions, version_row
from agents.models import Interest, MemoryVersion, PeerImpression, PostImpression, Relationship
from agents.relationships import relationship_now
from sns.core.errors import Forbidden, InvalidInput, NotFound
from sns.core.textguard import refuse_invalid
from sns.models import Post, User
from sns.reads.access import access_writable
from sns.selectors import Page
from sns.selectors.boundaries import ai_memory_withheld

# The payload of a post impression that is only an "already read" marker: no text
# about the post or its author (a forgotten person's posts, or those of a person who
# asked AI users not to remember them; agents/person_memory.py).
MARKER = ""
NOT_REMEMBERED = "the user does not let AI users remember them"


def memory_access(actor: User, user_id: int | None, *, for_write: bool = False) -> int:
    """The memory owner's id; the actor must be that user or an admin."""
    if for_write:
        access_writable(actor)
    if user_id is None or user_id == actor.id:
        return actor.id
    if not actor.is_admin:
        raise Forbidden("forbidden")
    if not User.objects.filter(pk=user_id).exists():
        raise NotFound("not found")
    return user_id


def _order(page: Page, *fields: str) -> list[str]:
    return [f"-{f}" if page.descending else f for f in fields]


# ----------------------------------------------------------------------------- interest


def interest_get(actor: User, *, user_id: int | None = None) -> Interest | None:
    owner_id = memory_access(actor, user_id)
    return Interest.objects.filter(user_id=owner_id).first()


def interest_save(
    actor: User,
    *,
    user_id: int | None = None,
    interest: str,
    tags: Sequence[str],
    features: bytes,
    embedding_model: str,
    source: VersionSource,
) -> Interest:
    """Replace the interest, its tags and vector, and keep the value as a version.
    `tags` are stored as given (the caller normalises them). The hold flags are the
    admin's and stay as they are."""
    owner_id = memory_access(actor, user_id, for_write=True)
    refuse_invalid(interest, "interest")
    for tag in tags:
        refuse_invalid(tag, "tags")
    now = timezone.now()
    row = Interest(
        user_id=owner_id,
        updated_at=now,
        interest=interest,
        tags=list(tags),
        features=bytes(features),
        embedding_model=embedding_model,
    )
    version = version_row(
        owner_id, MemoryVersion.Kind.INTEREST, source, at=now, text=interest, tags=tags,
        features=bytes(features), embedding_model=embedding_model,
    )
    # One statement on PostgreSQL, atomic by itself (no savepoint inside a caller's
    # transaction); the row it wrote is the one given back, so no read after the write.
    upsert_with_versions(
        Interest, [row], [version], unique_fields=["user"],
        update_fields=["updated_at", "interest", "tags", "features", "embedding_model"],
    )
    return row


# ----------------------------------------------------------------------------- peers


def peer_impression_get(actor: User, *, peer_id: int, user_id: int | None = None) -> PeerImpression | None:
    owner_id = memory_access(actor, user_id)
    return PeerImpression.objects.filter(user_id=owner_id, peer_id=peer_id).first()


def peer_impression_list(
    actor: User, *, page: Page, user_id: int | None = None, peer_id: int | None = None
) -> list[PeerImpression]:
    """By updated_at (then peer id), newest first for order desc; peer joined."""
    owner_id = memory_access(actor, user_id)
    qs = PeerImpression.objects.filter(user_id=owner_id).select_related("peer")
    if peer_id is not None:
        qs = qs.filter(peer_id=peer_id)
    qs = qs.order_by(*_order(page, "updated_at", "peer_id"))
    return list(qs[page.offset : page.offset + page.limit])


def peer_impression_save(
    actor: User, *, peer_id: int, payload: str, source: VersionSource, user_id: int | None = None
) -> PeerImpression:
    owner_id = memory_access(actor, user_id, for_write=True)
    if not User.objects.filter(pk=peer_id).exists():
        raise InvalidInput("peer not found")
    if peer_impressions_save(actor, [(peer_id, payload)], source=source, user_id=owner_id):
        raise Forbidden(NOT_REMEMBERED)
    return PeerImpression.objects.get(user_id=owner_id, peer_id=peer_id)


def peer_impressions_save(
    actor: User, items: Sequence[tuple[int, str]], *, source: VersionSource, user_id: int | None = None
) -> set[int]:
    """Upsert many (peer id, payload) pairs and their versions in one statement (the AI
    cycle's batch). People who asked AI users not to remember them get none, and no
    version: their ids are returned, for the caller's record."""
    owner_id = memory_access(actor, user_id, for_write=True)
    for _peer_id, payload in items:
        refuse_invalid(payload, "payload")
    withheld = ai_memory_withheld(peer_id for peer_id, _ in items)
    now = timezone.now()
    kept = [(peer_id, payload) for peer_id, payload in items if peer_id not in withheld]
    rows = [PeerImpression(user_id=owner_id, peer_id=peer_id, updated_at=now, payload=payload) for peer_id, payload in kept]
    versions = [
        version_row(owner_id, MemoryVersion.Kind.PEER, source, at=now, peer_id=peer_id, text=payload)
        for peer_id, payload in kept
    ]
    upsert_with_versions(
        PeerImpression, rows, versions, unique_fields=["user", "peer"], update_fields=["updated_at", "payload"]
    )
    return withheld


# ----------------------------------------------------------------------------- posts


def post_impression_get(actor: User, *, post_id: int, user_id: int | None = None) -> PostImpression | None:
    owner_id = memory_access(actor, user_id)
    return PostImpression.objects.filter(user_id=owner_id, post_id=post_id).first()


def post_impression_exists(actor: User, *, post_id: int, user_id: int | None = None) -> bool:
    """The "already read" test of the cycle."""
    owner_id = memory_access(actor, user_id)
    return PostImpression.objects.filter(user_id=owner_id, post_id=post_id).exists()


def post_impression_list(
    actor: User,
    *,
    page: Page,
    user_id: int | None = None,
    post_id: int | None = None,
    peer_id: int | None = None,
) -> list[PostImpression]:
    """By updated_at (then peer id, post id); peer and post joined."""
    owner_id = memory_access(actor, user_id)
    qs = PostImpression.objects.filter(user_id=owner_id).select_related("peer", "post")
    if post_id is not None:
        qs = qs.filter(post_id=post_id)
    if peer_id is not None:
        qs = qs.filter(peer_id=peer_id)
    qs = qs.order_by(*_order(page, "updated_at", "peer_id", "post_id"))
    return list(qs[page.offset : page.offset + page.limit])


def post_impression_save(
    actor: User, *, post_id: int, payload: str, source: VersionSource, user_id: int | None = None
) -> PostImpression:
    """Upsert; the peer is the post's current owner, looked up here, never trusted from input."""
    owner_id = memory_access(actor, user_id, for_write=True)
    post = Post.objects.filter(pk=post_id).only("id", "owner_id").first()
    if post is None:
        raise InvalidInput("post not found")
    post_impressions_save(actor, [(post, payload)], source=source, user_id=owner_id)
    return PostImpression.objects.get(user_id=owner_id, post_id=post_id)


def post_impressions_save(
    actor: User, items: Sequence[tuple[Post, str]], *, source: VersionSource, user_id: int | None = None
) -> set[int]:
    """Upsert many (post, payload) pairs and their versions in one statement; each
    row's peer is the owner of the loaded post (the AI cycle's batch). The posts of
    people who asked AI users not to remember them get a read marker with no text
    (MARKER) and no version; their ids are returned, for the caller's record."""
    owner_id = memory_access(actor, user_id, for_write=True)
    for _post, payload in items:
        refuse_invalid(payload, "payload")
    withheld = ai_memory_withheld(post.owner_id for post, _ in items)
    now = timezone.now()
    rows = [
        PostImpression(
            user_id=owner_id, peer_id=post.owner_id, post_id=post.id, updated_at=now,
            payload=MARKER if post.owner_id in withheld else payload,
        )
        for post, payload in items
    ]
    versions = [
        version_row(owner_id, MemoryVersion.Kind.POST, source, at=now, peer_id=post.owner_id, post_id=post.id, text=payload)
        for post, payload in items
        if post.owner_id not in withheld
    ]
    upsert_with_versions(
        PostImpression, rows, versions, unique_fields=["user", "post"], update_fields=["updated_at", "payload", "peer"]
    )
    return withheld


@dataclass(frozen=True)
class MemoryPage:
    """What the AI memory page shows: the interest, one page each of impressions of
    people and of posts (newest first), and the closest relationships."""

    user: User
    interest: Interest | None
    peer_impressions: list
    post_impressions: list
    relationships: list  # (peer, {"score", "level"}), closest first


def memory_page_read(actor: User, user_id: int, *, peer_page: Page, post_page: Page) -> MemoryPage:
    """Only the AI user itself and admins may read it (memory_access)."""
    user = User.objects.filter(pk=memory_access(actor, user_id)).first()
    if user is None:
        raise NotFound("not found")
    if not user.is_ai:
        raise NotFound("not an AI user")
    peers = PeerImpression.objects.filter(user_id=user.id).select_related("peer").order_by("-updated_at", "-peer_id")
    posts = (
        # Read markers without text (agents/person_memory.py) are nothing to show.
        PostImpression.objects.filter(user_id=user.id)
        .exclude(payload=MARKER)
        .select_related("peer", "post")
        .defer("post__content")
        .order_by("-updated_at", "-post_id")
    )
    # The closest 20 as stored; decay keeps their order among rows updated alike.
    rows = Relationship.objects.filter(user_id=user.id).select_related("peer").order_by("-score")[:20]
    return MemoryPage(
        user=user,
        interest=Interest.objects.filter(user_id=user.id).first(),
        peer_impressions=list(peers[peer_page.offset : peer_page.offset + peer_page.limit]),
        post_impressions=list(posts[post_page.offset : post_page.offset + post_page.limit]),
        relationships=[(row.peer, relationship_now(row)) for row in rows],
    )
