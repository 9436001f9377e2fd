"""Likes, follows and blocks: unique per pair, counters kept in the same transaction."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Case, Exists, F, OuterRef, When
from django.db.models.functions import Greatest
from django.utils import timezone

from .. import throttle
from ..access import access_writable, block_annotations, is_blocked_annotated
from ..errors import Conflict, InvalidInput, NotFound
from ..models import Block, Follow, Like, Post, User
from . import notifications


def like_add(actor: User, post_id: int) -> Like:
    access_writable(actor)
    # The post, its owner, the block facts and "already liked" in one query.
    post = (
        Post.objects.select_related("owner")
        .annotate(
            **block_annotations(actor, "owner_id"),
            already_liked=Exists(Like.objects.filter(post_id=OuterRef("pk"), user_id=actor.id)),
        )
        .filter(pk=post_id)
        .first()
    )
    if post is None:
        raise InvalidInput("post not found")
    if is_blocked_annotated(post, post.owner, actor):
        raise InvalidInput("blocked by the owner")
    if not post.allow_likes and not actor.is_admin:
        raise InvalidInput("likes are not allowed for the target post")
    if post.already_liked:
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


def _follow_counts_add(follower_id: int, followee_id: int, delta: int) -> None:
    """Both sides' counters in one UPDATE (never below zero)."""

    def moved(field: str, user_id: int):
        value = F(field) + delta if delta > 0 else Greatest(F(field) + delta, 0)
        return Case(When(pk=user_id, then=value), default=F(field))

    User.objects.filter(pk__in=[follower_id, followee_id]).update(
        followee_count=moved("followee_count", follower_id),
        follower_count=moved("follower_count", followee_id),
    )


def follow_add(actor: User, user_id: int) -> Follow:
    access_writable(actor)
    if user_id == actor.id:
        raise InvalidInput("cannot follow yourself")
    # The target, the block facts and "already following" in one query.
    target = (
        User.objects.annotate(
            **block_annotations(actor, "pk"),
            already_following=Exists(Follow.objects.filter(follower_id=actor.id, followee_id=OuterRef("pk"))),
        )
        .filter(pk=user_id)
        .first()
    )
    if target is None:
        raise NotFound("not found")
    if is_blocked_annotated(target, target, actor):
        raise InvalidInput("blocked by the user")
    if target.already_following:
        raise Conflict("already following")
    throttle.throttle_check(actor, throttle.USER_UPDATES)
    try:
        with transaction.atomic():
            follow = Follow.objects.create(
                follower_id=actor.id, followee_id=user_id, created_at=timezone.now()
            )
            _follow_counts_add(actor.id, user_id, 1)
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
        _follow_counts_add(actor.id, user_id, -1)


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
