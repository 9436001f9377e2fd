"""Reposts, quotes and bookmarks (docs/shares.md): our additions beside the original's
contract, under the same rulebook as likes and replies.

Who may share a post: the post exists and its owner is not frozen (a frozen owner's
posts are out of sight), the owner does not refuse the actor (an explicit block, or
blockStrangers without a follow back), and the actor does not block the owner. Admins
pass the block and freeze checks, as they do for likes. A quote is a new root post
and is governed by the quoted post's allowReplies, like a reply.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from ..core import throttle
from ..core.errors import Conflict, InvalidInput, NotFound
from ..models import Bookmark, Post, Quote, Repost, User
from ..reads.access import access_writable, is_blocked_annotated
from . import notifications
from .posts import post_create
from .targets import share_target


def _share_target(actor: User, post_id: int, mine=None) -> Post:
    """The post `actor` wants to share or keep, with the checks every share makes; its
    owner, the block facts and whether the actor has a row of `mine` (Repost or
    Bookmark) for it come in one query (`post.had_row`)."""
    post = share_target(actor.id, post_id, mine)
    if post is None or (post.owner.is_frozen and not actor.is_admin and post.owner_id != actor.id):
        raise NotFound("post not found")
    if is_blocked_annotated(post, post.owner, actor):
        raise InvalidInput("blocked by the owner")
    if post.actor_blocks_owner and not actor.is_admin:
        raise InvalidInput("you are blocking the user")
    return post


def repost_add(actor: User, post_id: int) -> Repost:
    """Repost (boost) a post. One's own posts may be reposted too, as Mastodon allows
    for public posts; that notifies nobody."""
    repost, post = _row_add(actor, post_id, Repost, throttle.REPOSTS, "already reposted")
    notifications.notify_post_event(
        recipient_id=post.owner_id, slot=f"repost:{post.hex_id}", actor=actor, post=post
    )
    return repost


def _row_add(actor: User, post_id: int, model, limit: throttle.Limit, conflict: str):
    """Write the actor's `model` row (Repost or Bookmark) for a post after the share
    checks; a second row of the pair is a Conflict, refused before the throttle counts.
    Returns the row and the post."""
    access_writable(actor)
    post = _share_target(actor, post_id, model)
    if post.had_row:
        raise Conflict(conflict)
    throttle.throttle_check(actor, limit)
    try:
        with transaction.atomic():
            return model.objects.create(user_id=actor.id, post_id=post.id, created_at=timezone.now()), post
    except IntegrityError:
        # A concurrent write of the same pair (or a redelivered AI stage) won.
        raise Conflict(conflict) from None


def repost_remove(actor: User, post_id: int) -> None:
    access_writable(actor)
    deleted, _ = Repost.objects.filter(user_id=actor.id, post_id=post_id).delete()
    if not deleted:
        raise NotFound("repost not found")


def quote_create(actor: User, post_id: int, *, content, tags=None, locale=None, allow_likes=True, allow_replies=True) -> Post:
    """A new root post of `actor` that quotes post `post_id`. The quoted post's
    allowReplies governs (admins exempt, as for replies) and blocks either way refuse.
    The post is written by post_create, so its checks, throttle and mention
    notifications apply unchanged; the quote row is written in the same transaction."""
    access_writable(actor)
    quoted = _share_target(actor, post_id)
    if not quoted.allow_replies and not actor.is_admin:
        raise InvalidInput("quotes are not allowed for the target post")
    with transaction.atomic():
        post = post_create(
            actor,
            content=content,
            tags=[] if tags is None else tags,
            locale=locale,
            allow_likes=allow_likes,
            allow_replies=allow_replies,
        )
        Quote.objects.create(post=post, quoted_id=quoted.id)
    notifications.notify_post_event(
        recipient_id=quoted.owner_id, slot=f"quote:{quoted.hex_id}", actor=actor, post=post
    )
    return post


def bookmark_add(actor: User, post_id: int) -> Bookmark:
    """Keep a post. Bookmarks are private: nobody is notified and no count is kept."""
    return _row_add(actor, post_id, Bookmark, throttle.BOOKMARKS, "already bookmarked")[0]


def bookmark_remove(actor: User, post_id: int) -> None:
    access_writable(actor)
    deleted, _ = Bookmark.objects.filter(user_id=actor.id, post_id=post_id).delete()
    if not deleted:
        raise NotFound("bookmark not found")


__all__ = ["bookmark_add", "bookmark_remove", "quote_create", "repost_add", "repost_remove"]
