"""Permission checks. Each returns the object or raises; the services call them, so
the web pages, the API and the AI agents pass through the same gate."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.utils import timezone

from ..core.errors import Forbidden, NotFound
from ..core.textguard import refuse_invalid
from ..models import Block, Follow, Post, User


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


def owner_refuses(owner: User, viewer_id: int, *, blocks: bool, follows_back: bool) -> bool:
    """The refusal rule on one row, from its two facts (does `owner` block the viewer,
    does `owner` follow the viewer): an explicit block, or the owner's blockStrangers
    with no follow back. Nobody refuses themselves. The same rule as a filter is part
    of the visibility rule (sns/selectors/visibility.py)."""
    return owner_refuses_facts(owner.id, owner.block_strangers, viewer_id, blocks=blocks, follows_back=follows_back)


def owner_refuses_facts(owner_id: int, block_strangers: bool, viewer_id: int, *, blocks, follows_back) -> bool:
    """`owner_refuses` over plain facts, for reads that return rows, not users
    (sns/selectors/post_reads/tuples.py)."""
    if owner_id == viewer_id:
        return False
    return bool(blocks) or bool(block_strangers and not follows_back)


def is_blocked_annotated(row, owner: User, actor: User) -> bool:
    """Does `owner` refuse interaction from `actor`? `owner_refuses`, except that admins
    are never refused. `row` carries the facts of `block_annotations`."""
    if actor.is_admin:
        return False
    return owner_refuses(owner, actor.id, blocks=row.owner_blocks_actor, follows_back=row.owner_follows_actor)


def access_user(user_id: int) -> User:
    try:
        return User.objects.get(pk=user_id)
    except User.DoesNotExist:
        raise NotFound("not found") from None


def access_user_self_or_admin(actor: User, user_id: int) -> User:
    if actor.id != user_id and not actor.is_admin:
        raise Forbidden("forbidden")
    return access_user(user_id)


def access_owner_proof(
    user: User, *, current_password: str | None, logged_in_at: datetime | None
) -> User:
    """A person changing their own password or e-mail address proves it is them: with
    the current password or, without it, from a session logged in within the last
    STGY_PASSWORD_CHANGE_RECENT_LOGIN_SECONDS (GitHub's "sudo mode"), so that a stolen
    session alone cannot take the account over (docs/accounts.md §2, §6). An admin
    changing someone else's needs neither."""
    if current_password:
        if not user.check_password(refuse_invalid(current_password, "currentPassword")):
            raise Forbidden("currentPassword is not correct")
        return user
    window = settings.STGY_PASSWORD_CHANGE_RECENT_LOGIN_SECONDS
    if logged_in_at is not None and timezone.now() - logged_in_at <= timedelta(seconds=window):
        return user
    minutes = max(1, window // 60)
    raise Forbidden(
        f"currentPassword is needed, or a login within the last {minutes} minute{'s' if minutes != 1 else ''}"
    )


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
