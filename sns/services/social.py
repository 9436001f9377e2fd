"""Likes, follows and blocks: unique per pair, counters kept in the same transaction."""

from __future__ import annotations

from django.db import IntegrityError, connection, transaction
from django.db.models import Case, F, When
from django.db.models.functions import Greatest
from django.utils import timezone

from ..core import throttle
from ..core.errors import Conflict, DomainError, InvalidInput, NotFound
from ..models import Block, Follow, Like, Post, User
from ..reads.access import access_writable, is_blocked_annotated
from ..reads.sql_statements import ids_in, insert_rows_sql
from . import hooks, notifications
from .targets import follow_targets, like_targets


def like_add(actor: User, post_id: int) -> Like:
    outcome = likes_add(actor, [post_id])[post_id]
    if isinstance(outcome, DomainError):
        raise outcome
    return outcome


def likes_add(actor: User, post_ids: list[int]) -> dict[int, Like | DomainError]:
    """Like several posts: per post the same checks, in the same order, as one like
    (exists, not blocked by the owner, allowLikes, not liked yet, hourly throttle).
    The posts and those facts come in one query and the likes and counters are written
    in one transaction of two statements. Returns each post's Like, or the error a
    single like would have raised."""
    access_writable(actor)
    ids = list(dict.fromkeys(post_ids))
    posts = {post.id: post for post in (like_targets(actor.id, ids) if ids else [])}

    def check(post_id: int) -> None:
        post = posts.get(post_id)
        if post is None:
            raise InvalidInput("post not found")
        if is_blocked_annotated(post, post.owner, actor):
            raise InvalidInput("blocked by the owner")
        if not post.allow_likes and not actor.is_admin:
            raise InvalidInput("likes are not allowed for the target post")
        if post.already_liked:
            raise Conflict("already liked")
        allowance.take()

    with throttle.Allowance(actor, throttle.LIKES) as allowance:
        results, written = _apply_each(ids, check, lambda keys: _likes_write(actor, keys), conflict="already liked")
    notifications.notify_post_events(
        [(posts[post_id].owner_id, f"like:{posts[post_id].hex_id}", posts[post_id]) for post_id in written], actor=actor
    )
    hooks.likes_written(actor, [posts[post_id] for post_id in written])
    return results


def _apply_each(keys: list[int], check, write, *, conflict: str) -> tuple[dict, list[int]]:
    """The batch form of a single action: `check(key)` raises the DomainError a single
    action would raise; the keys that pass are written together by `write(keys)` (a
    dict of key -> row), or one by one if a concurrent write of one of them breaks the
    unique constraint, so only that one fails with `conflict`. Returns every key's row
    or error, and the keys written."""
    results: dict = {}
    allowed: list[int] = []
    for key in keys:
        try:
            check(key)
        except DomainError as exc:
            results[key] = exc
            continue
        allowed.append(key)
    if allowed:
        try:
            results.update(write(allowed))
        except IntegrityError:
            for key in allowed:
                try:
                    results.update(write([key]))
                except IntegrityError:
                    results[key] = Conflict(conflict)
    written = [key for key in allowed if not isinstance(results[key], DomainError)]
    return {key: results[key] for key in keys}, written


def _likes_write(actor: User, post_ids: list[int]) -> dict[int, Like]:
    now = timezone.now()
    likes = [Like(post_id=pid, user_id=actor.id, created_at=now) for pid in post_ids]
    with transaction.atomic():
        _rows_with_counters(Like, likes, _like_counters(post_ids))
    return {like.post_id: like for like in likes}


def _like_counters(post_ids: list[int]) -> tuple[str, list]:
    where, params = ids_in('"id"', post_ids)
    return f'UPDATE "sns_post" SET "like_count" = "like_count" + 1 WHERE {where}', params


def _rows_with_counters(model, rows: list, counters: tuple[str, list]) -> None:
    """Insert `rows` (as bulk_create, their ids set) and run the `counters` UPDATE
    (SQL, parameters): on PostgreSQL one statement (the UPDATE as a data-modifying CTE
    of the INSERT), elsewhere two. A broken unique constraint fails both."""
    update, update_params = counters
    if connection.vendor != "postgresql":
        model.objects.bulk_create(rows)
        with connection.cursor() as cursor:
            cursor.execute(update, update_params)
        return
    insert, insert_params = insert_rows_sql(model, rows, ["id"])
    with connection.cursor() as cursor:
        cursor.execute(f"WITH counted AS ({update}) {insert}", [*update_params, *insert_params])
        ids = cursor.fetchall()
    for row, (pk,) in zip(rows, ids, strict=True):
        row.pk = pk
        row._state.adding, row._state.db = False, connection.alias


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
    outcome = follows_add(actor, [user_id])[user_id]
    if isinstance(outcome, DomainError):
        raise outcome
    return outcome


def follows_add(actor: User, user_ids: list[int]) -> dict[int, Follow | DomainError]:
    """Follow several users: per user the same checks, in the same order, as one
    follow (not oneself, exists, not blocked by them, not followed yet, hourly
    throttle). The targets and those facts come in one query and the follows and all
    counters are written in one transaction of two statements. Returns each user's
    Follow, or the error a single follow would have raised."""
    access_writable(actor)
    ids = list(dict.fromkeys(user_ids))
    others = [uid for uid in ids if uid != actor.id]
    targets = {user.id: user for user in (follow_targets(actor.id, others) if others else [])}

    def check(user_id: int) -> None:
        target = targets.get(user_id)
        if user_id == actor.id:
            raise InvalidInput("cannot follow yourself")
        if target is None:
            raise NotFound("not found")
        if is_blocked_annotated(target, target, actor):
            raise InvalidInput("blocked by the user")
        if target.already_following:
            raise Conflict("already following")
        allowance.take()

    with throttle.Allowance(actor, throttle.USER_UPDATES) as allowance:
        results, written = _apply_each(
            ids, check, lambda keys: _follows_write(actor, keys), conflict="already following"
        )
    notifications.notify_follows(written, actor=actor)
    return results


def _follow_counters(actor_id: int, followee_ids: list[int]) -> tuple[str, list]:
    # Both sides' counters in one UPDATE: the follower's followees, the followees' followers.
    followee, followee_params = ids_in('"id"', followee_ids)
    counted, counted_params = ids_in('"id"', [actor_id, *followee_ids])
    sql = (
        'UPDATE "sns_user" SET "followee_count" = CASE WHEN "id" = %s THEN "followee_count" + %s '
        'ELSE "followee_count" END, '
        f'"follower_count" = CASE WHEN {followee} THEN "follower_count" + 1 ELSE "follower_count" END '
        f"WHERE {counted}"
    )
    return sql, [actor_id, len(followee_ids), *followee_params, *counted_params]


def _follows_write(actor: User, user_ids: list[int]) -> dict[int, Follow]:
    now = timezone.now()
    follows = [Follow(follower_id=actor.id, followee_id=uid, created_at=now) for uid in user_ids]
    with transaction.atomic():
        _rows_with_counters(Follow, follows, _follow_counters(actor.id, user_ids))
    return {follow.followee_id: follow for follow in follows}


def follow_remove(actor: User, user_id: int) -> None:
    outcome = follows_remove(actor, [user_id])[user_id]
    if outcome is not None:
        raise outcome


def follows_remove(actor: User, user_ids: list[int]) -> dict[int, DomainError | None]:
    """Unfollow several users: per user what one unfollow does (NotFound if not
    followed), in one transaction of two statements: the follows deleted (their
    followee ids returned) and both sides' counters, never below zero. Returns None
    per user unfollowed, or the error a single unfollow would have raised."""
    ids = list(dict.fromkeys(user_ids))
    try:
        access_writable(actor)
    except DomainError as exc:
        return dict.fromkeys(ids, exc)
    if not ids:
        return {}
    qn = connection.ops.quote_name
    table = qn(Follow._meta.db_table)
    # DELETE ... RETURNING (PostgreSQL, SQLite ≥ 3.35): which follows existed, in the
    # statement that removes them, so a concurrent unfollow counts once.
    followee, followee_params = ids_in("followee_id", ids)
    delete = f"DELETE FROM {table} WHERE follower_id = %s AND {followee} RETURNING followee_id"
    if connection.vendor == "postgresql":
        # The counters in the same statement: an UPDATE of the rows the DELETE returned.
        users, followees, followers = qn(User._meta.db_table), qn("followee_count"), qn("follower_count")
        sql = (
            f"WITH gone AS ({delete}), counted AS (UPDATE {users} SET "
            f"{followees} = CASE WHEN id = %s THEN GREATEST({followees} - (SELECT COUNT(*) FROM gone), 0) "
            f"ELSE {followees} END, "
            f"{followers} = CASE WHEN id IN (SELECT followee_id FROM gone) THEN GREATEST({followers} - 1, 0) "
            f"ELSE {followers} END "
            f"WHERE EXISTS (SELECT 1 FROM gone) AND (id = %s OR id IN (SELECT followee_id FROM gone))) "
            f"SELECT followee_id FROM gone"
        )
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [actor.id, *followee_params, actor.id, actor.id])
            gone = {row[0] for row in cursor.fetchall()}
        return {uid: None if uid in gone else NotFound("not followed") for uid in ids}
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(delete, [actor.id, *followee_params])
        deleted = [row[0] for row in cursor.fetchall()]
        if deleted:
            User.objects.filter(pk__in=[actor.id, *deleted]).update(
                followee_count=Case(
                    When(pk=actor.id, then=Greatest(F("followee_count") - len(deleted), 0)), default=F("followee_count")
                ),
                follower_count=Case(
                    When(pk__in=deleted, then=Greatest(F("follower_count") - 1, 0)), default=F("follower_count")
                ),
            )
    gone = set(deleted)
    return {uid: None if uid in gone else NotFound("not followed") for uid in ids}


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
