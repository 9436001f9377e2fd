"""The rows a like, follow, share or reply acts on, each with the facts its checks read,
in one plain SQL statement (sns/reads/sql_statements.py): the AI cycle likes, follows and
replies in every run, and the querysets with their annotations cost more CPU to build
than to run. The facts are those of `sns.reads.access.block_annotations` (does the owner block
the actor, does the owner follow the actor), read back by `is_blocked_annotated`.
"""

from __future__ import annotations

from functools import lru_cache

from django.db import connection
from django.db.models import BooleanField

from ..internals.model_rows import RowParts
from ..models import Bookmark, Post, Repost, User
from ..reads.sql_statements import columns, fetch, ids_in


def _block_facts(owner: str) -> str:
    """`block_annotations`' two facts about the owner `owner` (SQL) and the actor (a parameter)."""
    return (
        f'EXISTS (SELECT 1 FROM "sns_block" b WHERE b."blocker_id" = {owner} AND b."blockee_id" = %s), '
        f'EXISTS (SELECT 1 FROM "sns_follow" f WHERE f."follower_id" = {owner} AND f."followee_id" = %s)'
    )


_FACT = BooleanField()
_POST_FACTS_OWNER = {n: RowParts([(Post, "p"), *[_FACT] * n, (User, "u")]) for n in (3, 4)}


def _posts_with_owner(facts: list[str], values: list[list]) -> list[Post]:
    """Posts read as `p.*, <facts>, u.*`, their owner set as select_related sets it and
    each fact an attribute."""
    out = []
    for post, *flags, owner in values:
        post.owner = owner
        for name, flag in zip(facts, flags, strict=True):
            setattr(post, name, flag)
        out.append(post)
    return out


@lru_cache(maxsize=4)
def _like_targets_sql(where: str) -> str:
    return (
        f'SELECT {columns(Post, "p")}, {_block_facts("p.owned_by")}, '
        f'EXISTS (SELECT 1 FROM "sns_like" l WHERE l."post_id" = p."id" AND l."liked_by" = %s), '
        f'{columns(User, "u")} FROM "sns_post" p JOIN "sns_user" u ON u."id" = p."owned_by" WHERE {where}'
    )


def like_targets(actor_id: int, ids: list[int]) -> list[Post]:
    """The posts of `ids` that exist, with their owners, the block facts and `already_liked`."""
    where, params = ids_in('p."id"', ids)
    rows = fetch(_like_targets_sql(where), [actor_id, actor_id, actor_id, *params])
    facts = ["owner_blocks_actor", "owner_follows_actor", "already_liked"]
    return _posts_with_owner(facts, _POST_FACTS_OWNER[3].values_of(rows))


_USER_FACTS = RowParts([(User, "u"), _FACT, _FACT, _FACT])


@lru_cache(maxsize=4)
def _follow_targets_sql(where: str) -> str:
    return (
        f'SELECT {columns(User, "u")}, {_block_facts("u.id")}, '
        f'EXISTS (SELECT 1 FROM "sns_follow" g WHERE g."follower_id" = %s AND g."followee_id" = u."id") '
        f'FROM "sns_user" u WHERE {where}'
    )


def follow_targets(actor_id: int, ids: list[int]) -> list[User]:
    """The users of `ids` that exist, with the block facts and `already_following`."""
    where, params = ids_in('u."id"', ids)
    rows = fetch(_follow_targets_sql(where), [actor_id, actor_id, actor_id, *params])
    users = []
    for user, blocks, follows, following in _USER_FACTS.values_of(rows):
        user.owner_blocks_actor, user.owner_follows_actor, user.already_following = blocks, follows, following
        users.append(user)
    return users


_ROW_TABLES = {Repost: "sns_repost", Bookmark: "sns_bookmark"}


@lru_cache(maxsize=4)
def _share_target_sql(row_table: str | None) -> str:
    had_row = (
        f'EXISTS (SELECT 1 FROM "{row_table}" r WHERE r."post_id" = p."id" AND r."user_id" = %s)'
        if row_table else "%s"
    )
    return (
        f'SELECT {columns(Post, "p")}, {_block_facts("p.owned_by")}, '
        f'EXISTS (SELECT 1 FROM "sns_block" c WHERE c."blocker_id" = %s AND c."blockee_id" = p."owned_by"), '
        f'{had_row}, {columns(User, "u")} FROM "sns_post" p JOIN "sns_user" u ON u."id" = p."owned_by" '
        f'WHERE p."id" = %s'
    )


def share_target(actor_id: int, post_id: int, mine=None) -> Post | None:
    """The post, with its owner, the block facts, `actor_blocks_owner` and `had_row`:
    whether the actor has a row of `mine` (Repost or Bookmark, or None: False) for it."""
    row_table = _ROW_TABLES[mine] if mine is not None else None
    had_row = actor_id if row_table else False
    rows = fetch(_share_target_sql(row_table), [actor_id, actor_id, actor_id, had_row, post_id])
    facts = ["owner_blocks_actor", "owner_follows_actor", "actor_blocks_owner", "had_row"]
    found = _posts_with_owner(facts, _POST_FACTS_OWNER[4].values_of(rows))
    return found[0] if found else None


@lru_cache(maxsize=4)
def _reply_target_sql(lock: str) -> str:
    return (
        f'SELECT {columns(Post, "p")}, {_block_facts("p.owned_by")}, {columns(User, "u")} '
        f'FROM "sns_post" p JOIN "sns_user" u ON u."id" = p."owned_by" WHERE p."id" = %s{lock}'
    )


_POST_BLOCKS_OWNER = RowParts([(Post, "p"), _FACT, _FACT, (User, "u")])


def reply_target(actor_id: int, post_id: int, *, lock: bool) -> Post | None:
    """The post to reply to, with its owner and the block facts; with `lock` its row
    locked for the transaction (where the database locks rows: not SQLite, which
    serialises writers anyway)."""
    locks = lock and connection.features.has_select_for_update_of
    rows = fetch(_reply_target_sql(' FOR UPDATE OF p' if locks else ""), [actor_id, actor_id, post_id])
    found = _posts_with_owner(["owner_blocks_actor", "owner_follows_actor"], _POST_BLOCKS_OWNER.values_of(rows))
    return found[0] if found else None
