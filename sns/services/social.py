"""Likes, follows and blocks: unique per pair, counters kept in the same transaction."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from .. import throttle
from ..access import access_writable, is_blocked_by
from ..errors import Conflict, InvalidInput, NotFound
from ..models import Block, Follow, Like, Post, User
from . import notifications


def like_add(actor: User, post_id: int) -> Like:
    access_writable(actor)
    post = Post.objects.select_related("owner").filter(pk=post_id).first()
    if post is None:
        raise InvalidInput("post not found")
    if is_blocked_by(post.owner_id, actor, owner=post.owner):
        raise InvalidInput("blocked by the owner")
    if not post.allow_likes and not actor.is_admin:
        raise InvalidInput("likes are not allowed for the target post")
    if Like.objects.filter(post_id=post_id, user_id=actor.id).exists():
        raise Conflict("already liked")
    throttle.throttle_check(actor, throttle.LIKES)
    try:
        with transaction.atomic():
            like = Like.objects.create(post_id=post_id, user_id=actor.id, created_at=timezone.now())
            Post.objects.filter(pk=post_id).update(like_count=F("like_count") + 1)
    except IntegrityError:
        raise Conflict("already liked") from None
    notifications.notify_post_event(
        recipient_id=post.owner_id, slot=f"like:{post.hex_id}", actor=actor, post=post
    )
    return like


def like_remove(actor: User, post_id: int) -> None:
    access_writable(actor)
    with transaction.atomic():
        deleted, _ = Like.objects.filter(post_id=post_id, user_id=actor.id).delete()
        if not deleted:
            raise NotFound("like not found")
        Post.objects.filter(pk=post_id, like_count__gt=0).update(like_count=F("like_count") - 1)


def _target_user(user_id: int) -> User:
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        raise NotFound("not found")
    return user


def follow_add(actor: User, user_id: int) -> Follow:
    access_writable(actor)
    if user_id == actor.id:
        raise InvalidInput("cannot follow yourself")
    target = _target_user(user_id)
    if is_blocked_by(target.id, actor, owner=target):
        raise InvalidInput("blocked by the user")
    if Follow.objects.filter(follower_id=actor.id, followee_id=user_id).exists():
        raise Conflict("already following")
    throttle.throttle_check(actor, throttle.USER_UPDATES)
    try:
        with transaction.atomic():
            follow = Follow.objects.create(
                follower_id=actor.id, followee_id=user_id, created_at=timezone.now()
            )
            User.objects.filter(pk=actor.id).update(followee_count=F("followee_count") + 1)
            User.objects.filter(pk=user_id).update(follower_count=F("follower_count") + 1)
    except IntegrityError:
        raise Conflict("already following") from None
    notifications.notify_follow(recipient_id=user_id, actor=actor)
    return follow


def follow_remove(actor: User, user_id: int) -> None:
    access_writable(actor)
    with transaction.atomic():
        deleted, _ = Follow.objects.filter(follower_id=actor.id, followee_id=user_id).delete()
        if not deleted:
            raise NotFound("not followed")
        User.objects.filter(pk=actor.id, followee_count__gt=0).update(
            followee_count=F("followee_count") - 1
        )
        User.objects.filter(pk=user_id, follower_count__gt=0).update(
            follower_count=F("follower_count") - 1
        )


def block_add(actor: User, user_id: int) -> Block:
    """Blocking does not remove follows (as in the original); it stops the blockee
    from liking, replying to and following the blocker."""
    access_writable(actor)
    if user_id == actor.id:
        raise InvalidInput("cannot block yourself")
    _target_user(user_id)
    if Block.objects.filter(blocker_id=actor.id, blockee_id=user_id).exists():
        raise Conflict("already blocked")
    throttle.throttle_check(actor, throttle.USER_UPDATES)
    try:
        with transaction.atomic():
            return Block.objects.create(blocker_id=actor.id, blockee_id=user_id, created_at=timezone.now())
    except IntegrityError:
        raise Conflict("already blocked") from None


def block_remove(actor: User, user_id: int) -> None:
    access_writable(actor)
    deleted, _ = Block.objects.filter(blocker_id=actor.id, blockee_id=user_id).delete()
    if not deleted:
        raise NotFound("not blocked")
