"""Permission checks. Each returns the object or raises; the services call them, so
the web pages, the API and the AI agents pass through the same gate."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from .errors import Forbidden, NotFound
from .models import Block, Follow, Post, User


def access_writable(actor: User) -> User:
    if actor.is_frozen and not actor.is_admin:
        raise Forbidden("user is frozen")
    return actor


def access_admin(actor: User | None) -> User:
    if actor is None or not actor.is_admin:
        raise Forbidden("admin only")
    return actor


def block_annotations(actor: User, owner_ref: str) -> dict:
    """The two facts `is_blocked_annotated` needs, as annotations on a row whose owner
    is `owner_ref`, so a service loads its target and checks the block in one query."""
    return {
        "owner_blocks_actor": Exists(Block.objects.filter(blocker_id=OuterRef(owner_ref), blockee_id=actor.id)),
        "owner_follows_actor": Exists(Follow.objects.filter(follower_id=OuterRef(owner_ref), followee_id=actor.id)),
    }


def is_blocked_annotated(row, owner: User, actor: User) -> bool:
    """Does `owner` refuse interaction from `actor`? An explicit block, or the owner's
    blockStrangers with no follow from owner to actor; admins are never blocked. `row`
    carries the facts of `block_annotations`."""
    if actor.is_admin or owner.id == actor.id:
        return False
    if row.owner_blocks_actor:
        return True
    return bool(owner.block_strangers and not row.owner_follows_actor)


def blocked_q(actor: User, owner: str = "owner") -> Q:
    """The rule of `is_blocked_annotated` as a filter on rows whose owner is the foreign
    key `owner`: true where that owner refuses `actor`. Admins and the actor's own rows
    never match."""
    if actor.is_admin:
        return Q(pk__in=[])
    owner_id = OuterRef(f"{owner}_id")
    blocks = Block.objects.filter(blocker_id=owner_id, blockee_id=actor.id)
    follows_back = Follow.objects.filter(follower_id=owner_id, followee_id=actor.id)
    strangers_refused = Q(**{f"{owner}__block_strangers": True}) & ~Exists(follows_back)
    return ~Q(**{f"{owner}_id": actor.id}) & (Exists(blocks) | strangers_refused)


def access_user(user_id: int) -> User:
    try:
        return User.objects.get(pk=user_id)
    except User.DoesNotExist:
        raise NotFound("not found") from None


def access_user_self_or_admin(actor: User, user_id: int) -> User:
    if actor.id != user_id and not actor.is_admin:
        raise Forbidden("forbidden")
    return access_user(user_id)


def access_post(actor: User, post_id: int, *, for_write: bool = False) -> Post:
    try:
        post = Post.objects.select_related("owner").get(pk=post_id)
    except Post.DoesNotExist:
        raise NotFound("not found") from None
    if for_write:
        access_writable(actor)
        if post.owner_id != actor.id and not actor.is_admin:
            raise Forbidden("forbidden")
    return post
