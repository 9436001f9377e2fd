"""Reads of the social network, each with the viewer it is done for.

Querysets are built so that a page of N rows costs a constant number of queries
(owner joined, tags prefetched, focus flags as EXISTS subqueries).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.db import connection
from django.db.models import (
    BigIntegerField,
    BooleanField,
    CharField,
    Exists,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Window,
)
from django.db.models.expressions import RawSQL
from django.db.models.functions import RowNumber

from .access import blocked_q
from .errors import InvalidInput, NotFound
from .models import Block, Follow, Like, Notification, Post, PostTag, User


@dataclass(frozen=True)
class Page:
    offset: int = 0
    limit: int = 100
    order: str = "desc"

    @property
    def descending(self) -> bool:
        return self.order != "asc"


def _id_order(page: Page) -> str:
    return "-id" if page.descending else "id"


def _slice(qs, page: Page):
    return list(qs[page.offset : page.offset + page.limit])


# ----------------------------------------------------------------------------- posts


def post_queryset(focus_user_id: int | None = None) -> QuerySet[Post]:
    """Posts with their owner, tags, the parent's owner and, for a focus user, the
    flags every view of a post shows (liked, replied, owner blocks / follows them).

    The per-row facts (and the tag names, see Post.tag_names) are correlated subqueries
    written out as SQL (_PostFacts): built
    from Subquery/Exists expressions they cost about 3 ms of query compilation per
    call, more than the rest of a timeline read together."""
    facts = _post_facts()
    qs = (
        Post.objects.select_related("owner")
        .annotate(
            # Read by Post.tag_names; a prefetch cost a second query and ~2 ms of ORM work.
            tag_names_joined=RawSQL(facts.tag_names, (), output_field=CharField()),
            reply_to_owner_id=RawSQL(facts.parent_owner, (), output_field=BigIntegerField()),
            reply_to_owner_nickname=RawSQL(facts.parent_nickname, (), output_field=CharField()),
        )
    )
    if focus_user_id is not None:
        focus = (int(focus_user_id),)
        qs = qs.annotate(
            is_liked_by_focus=RawSQL(facts.liked, focus, output_field=BooleanField()),
            is_replied_by_focus=RawSQL(facts.replied, focus, output_field=BooleanField()),
            owner_blocks_focus=RawSQL(facts.owner_blocks, focus, output_field=BooleanField()),
            owner_follows_focus=RawSQL(facts.owner_follows, focus, output_field=BooleanField()),
        )
    return qs


@dataclass(frozen=True)
class _PostFacts:
    tag_names: str
    parent_owner: str
    parent_nickname: str
    liked: str
    replied: str
    owner_blocks: str
    owner_follows: str


@lru_cache(maxsize=1)
def _post_facts() -> _PostFacts:
    """The SQL of post_queryset's per-row facts, correlated with the outer posts table
    by its own name (post_queryset is always the outermost query)."""
    qn = connection.ops.quote_name

    def col(model, field: str) -> str:
        return qn(model._meta.get_field(field).column)

    post, user = qn(Post._meta.db_table), qn(User._meta.db_table)
    like, block, follow = qn(Like._meta.db_table), qn(Block._meta.db_table), qn(Follow._meta.db_table)
    p_id, p_owner, p_reply = f"{post}.{col(Post, 'id')}", f"{post}.{col(Post, 'owner')}", f"{post}.{col(Post, 'reply_to')}"
    tag, tag_name, tag_post = qn(PostTag._meta.db_table), col(PostTag, "name"), col(PostTag, "post")
    if connection.vendor == "postgresql":
        tag_names = f"SELECT string_agg(ft.{tag_name}, E'\\n' ORDER BY ft.{tag_name}) FROM {tag} ft WHERE ft.{tag_post} = {p_id}"
    else:
        tag_names = (
            f"SELECT group_concat(n, char(10)) FROM (SELECT ft.{tag_name} AS n FROM {tag} ft "
            f"WHERE ft.{tag_post} = {p_id} ORDER BY ft.{tag_name})"
        )
    return _PostFacts(
        tag_names=tag_names,
        parent_owner=f"SELECT pp.{col(Post, 'owner')} FROM {post} pp WHERE pp.{col(Post, 'id')} = {p_reply}",
        parent_nickname=(
            f"SELECT pu.{col(User, 'nickname')} FROM {post} pp JOIN {user} pu ON pu.{col(User, 'id')} = pp.{col(Post, 'owner')} "
            f"WHERE pp.{col(Post, 'id')} = {p_reply}"
        ),
        liked=f"EXISTS (SELECT 1 FROM {like} fl WHERE fl.{col(Like, 'post')} = {p_id} AND fl.{col(Like, 'user')} = %s)",
        replied=(
            f"EXISTS (SELECT 1 FROM {post} fr WHERE fr.{col(Post, 'reply_to')} = {p_id} AND fr.{col(Post, 'owner')} = %s)"
        ),
        owner_blocks=(
            f"EXISTS (SELECT 1 FROM {block} fb WHERE fb.{col(Block, 'blocker')} = {p_owner} AND fb.{col(Block, 'blockee')} = %s)"
        ),
        owner_follows=(
            f"EXISTS (SELECT 1 FROM {follow} ff WHERE ff.{col(Follow, 'follower')} = {p_owner} "
            f"AND ff.{col(Follow, 'followee')} = %s)"
        ),
    )


def newest_posts_q(
    field: str, keys, n: int, *, roots_only: bool = False, top: int | None = None, descending: bool = True
) -> Q:
    """A filter for the `n` newest posts (by id) of each value of `field` ("owner_id" or
    "reply_to") in `keys`, used as a subquery (no extra round trip). With `top`, only
    the first `top` of those by id (newest first unless not `descending`): a caller
    that shows one page of the union need not have every row of it fetched.

    On PostgreSQL a LATERAL join reads `n` entries of the (field, id) index per key,
    however many posts the key has; a window function over all the keys' posts (the
    form used elsewhere) grows with the busiest author's history.
    """
    keys = list(dict.fromkeys(int(k) for k in keys if k is not None))
    if not keys or n <= 0:
        return Q(pk__in=[])
    if connection.vendor == "postgresql":
        qn = connection.ops.quote_name
        column = qn(Post._meta.get_field(field).column)
        roots = f" AND {qn('reply_to')} IS NULL" if roots_only else ""
        sql = (
            f"SELECT p.id FROM unnest(%s::bigint[]) AS k(key) CROSS JOIN LATERAL "
            f"(SELECT {qn('id')} AS id FROM {qn(Post._meta.db_table)} WHERE {column} = k.key{roots} "
            f"ORDER BY {qn('id')} DESC LIMIT %s) AS p"
        )
        params: tuple = (keys, int(n))
        if top is not None:
            sql += f" ORDER BY p.id {'DESC' if descending else 'ASC'} LIMIT %s"
            params += (int(top),)
        return Q(pk__in=RawSQL(sql, params))
    qs = Post.objects.filter(**{f"{field}__in": keys})
    if roots_only:
        qs = qs.filter(reply_to__isnull=True)
    ranked = qs.annotate(rank=Window(RowNumber(), partition_by=[field], order_by=["-id"])).filter(rank__lte=n)
    return Q(pk__in=ranked.values("id"))


def post_is_blocking_focus(post: Post, focus_user_id: int) -> bool:
    if post.owner_id == focus_user_id:
        return False
    return bool(post.owner_blocks_focus) or (post.owner.block_strangers and not post.owner_follows_focus)


def post_visible_q(viewer) -> Q:
    """Posts `viewer` may find by their words (search, KWIC): not those of an owner who
    blocks the viewer, or who blocks strangers and does not follow the viewer back —
    the posts post_is_blocking_focus flags. The viewer's own posts always; admins see all."""
    return ~blocked_q(viewer)


def _posts_filtered(qs, *, owned_by=None, tag=None, reply_to=None, query=None):
    if owned_by is not None:
        qs = qs.filter(owner_id=owned_by)
    if tag:
        qs = qs.filter(tags__name=tag.strip().lower())
    if reply_to == "":
        qs = qs.filter(reply_to__isnull=True)
    elif reply_to == "*":
        qs = qs.filter(reply_to__isnull=False)
    elif reply_to is not None:
        qs = qs.filter(reply_to=reply_to)
    if query:
        qs = qs.filter(content__icontains=query)
    return qs


def posts_count(
    *, owned_by: int | None = None, tag: str | None = None, reply_to=None, query: str | None = None
) -> int:
    """GET /posts/count: what posts_list would list with the same filters, counted."""
    qs = _posts_filtered(Post.objects.all(), owned_by=owned_by, tag=tag, reply_to=reply_to, query=query)
    return qs.count()


def posts_list(
    *,
    page: Page,
    after: int | None = None,
    owned_by: int | None = None,
    tag: str | None = None,
    reply_to: str | int | None = None,
    query: str | None = None,
    focus_user_id: int | None = None,
) -> list[Post]:
    qs = _posts_filtered(
        post_queryset(focus_user_id), owned_by=owned_by, tag=tag, reply_to=reply_to, query=query
    )
    if after is not None:
        qs = qs.filter(id__lt=after) if page.descending else qs.filter(id__gt=after)
    return _slice(qs.order_by(_id_order(page)), page)


def post_get(post_id: int, *, focus_user_id: int | None = None, with_neighbours: bool = False) -> Post:
    """One post; `with_neighbours` also reads the ids of the same owner's previous and
    next posts in the same query (see post_neighbours)."""
    qs = post_queryset(focus_user_id)
    if with_neighbours:
        same_owner = Post.objects.filter(owner_id=OuterRef("owner_id"))
        qs = qs.annotate(
            older_id=Subquery(same_owner.filter(id__lt=OuterRef("id")).order_by("-id").values("id")[:1]),
            newer_id=Subquery(same_owner.filter(id__gt=OuterRef("id")).order_by("id").values("id")[:1]),
        )
    post = qs.filter(pk=post_id).first()
    if post is None:
        raise NotFound("not found")
    return post


def post_neighbours(post: Post) -> tuple[int | None, int | None]:
    """Ids of the same owner's previous and next posts, from post_get(with_neighbours=True)
    when it was loaded so, else read now."""
    if hasattr(post, "older_id"):
        return post.older_id, post.newer_id
    older = Post.objects.filter(owner_id=post.owner_id, id__lt=post.id).order_by("-id").values_list("id", flat=True).first()
    newer = Post.objects.filter(owner_id=post.owner_id, id__gt=post.id).order_by("id").values_list("id", flat=True).first()
    return older, newer


def posts_by_followees(
    *,
    user_id: int,
    page: Page,
    include_self: bool = False,
    include_replies: bool = True,
    limit_per_user: int | None = None,
    focus_user_id: int | None = None,
) -> list[Post]:
    """docs/api.md §3: of the followees of `user_id` (and the user too if
    `include_self`) who have a post, the `limit` with the newest latest post each
    contribute their `min(limit, limit_per_user ?? limit)` newest posts; that union is
    ordered by id, then `offset`/`limit` apply. Root posts only unless `include_replies`."""
    active = _latest_posting_followees(user_id, include_self=include_self, roots_only=not include_replies, limit=page.limit)
    per_user = min(page.limit, page.limit if limit_per_user is None else limit_per_user)
    if not active or per_user <= 0:
        return []
    newest = newest_posts_q(
        "owner_id", active, per_user, roots_only=not include_replies,
        top=page.offset + page.limit, descending=page.descending,
    )
    qs = post_queryset(focus_user_id).filter(newest)
    return _slice(qs.order_by(_id_order(page)), page)


def _latest_posting_followees(user_id: int, *, include_self: bool, roots_only: bool, limit: int) -> list[int]:
    """The followees of `user_id` (and the user, if `include_self`) with a post, the
    `limit` with the newest latest post first. On PostgreSQL one statement reads one
    entry of the (owner, id) index per followee; elsewhere the ORM's equivalent."""
    if connection.vendor == "postgresql":
        qn = connection.ops.quote_name
        post, follow = qn(Post._meta.db_table), qn(Follow._meta.db_table)
        owner, reply_to = qn(Post._meta.get_field("owner").column), qn(Post._meta.get_field("reply_to").column)
        roots = f" AND {reply_to} IS NULL" if roots_only else ""
        me = " UNION SELECT %s" if include_self else ""
        sql = (
            f"SELECT k.id FROM (SELECT {qn(Follow._meta.get_field('followee').column)} AS id FROM {follow} "
            f"WHERE {qn(Follow._meta.get_field('follower').column)} = %s{me}) AS k "
            f"CROSS JOIN LATERAL (SELECT {qn('id')} AS latest FROM {post} WHERE {owner} = k.id{roots} "
            f"ORDER BY {qn('id')} DESC LIMIT 1) AS p ORDER BY p.latest DESC LIMIT %s"
        )
        params = (user_id, user_id, limit) if include_self else (user_id, limit)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return [row[0] for row in cursor.fetchall()]
    wanted = Q(pk__in=Follow.objects.filter(follower_id=user_id).values("followee_id"))
    if include_self:
        wanted |= Q(pk=user_id)
    own_posts = Post.objects.filter(owner_id=OuterRef("pk"))
    if roots_only:
        own_posts = own_posts.filter(reply_to__isnull=True)
    return list(
        User.objects.filter(wanted)
        .annotate(latest=Subquery(own_posts.order_by("-id").values("id")[:1]))
        .filter(latest__isnull=False)
        .order_by("-latest")
        .values_list("pk", flat=True)[:limit]
    )


def _after_pivot(rows, key_field: str, key_value: int, descending: bool):
    """Rows strictly after the row whose `key_field` is `key_value`, in (created_at,
    key) order, so rows sharing a timestamp are neither repeated nor skipped."""
    pivot = rows.filter(**{key_field: key_value}).values_list("created_at", flat=True).first()
    if pivot is None:
        raise InvalidInput("invalid after")
    op = "lt" if descending else "gt"
    return rows.filter(
        Q(**{f"created_at__{op}": pivot}) | Q(created_at=pivot, **{f"{key_field}__{op}": key_value})
    )


def _time_then_key(key_field: str, page: Page) -> list[str]:
    return ["-created_at", f"-{key_field}"] if page.descending else ["created_at", key_field]


def posts_liked(
    *,
    user_id: int,
    page: Page,
    include_replies: bool = True,
    after: int | None = None,
    focus_user_id: int | None = None,
) -> list[Post]:
    """Posts `user_id` liked, by like time (then post id)."""
    likes = Like.objects.filter(user_id=user_id)
    if not include_replies:
        likes = likes.filter(post__reply_to__isnull=True)
    if after is not None:
        likes = _after_pivot(likes, "post_id", after, page.descending)
    ordered = likes.order_by(*_time_then_key("post_id", page)).values_list("post_id", flat=True)
    post_ids = list(ordered[page.offset : page.offset + page.limit])
    posts = {p.id: p for p in post_queryset(focus_user_id).filter(id__in=post_ids)}
    return [posts[pid] for pid in post_ids if pid in posts]


def post_likers(*, post_id: int, page: Page, focus_user_id: int | None = None) -> list[User]:
    order = ["-created_at", "-user_id"] if page.descending else ["created_at", "user_id"]
    user_ids = list(
        Like.objects.filter(post_id=post_id).order_by(*order).values_list("user_id", flat=True)[
            page.offset : page.offset + page.limit
        ]
    )
    users = {u.id: u for u in user_queryset(focus_user_id).filter(id__in=user_ids)}
    return [users[uid] for uid in user_ids if uid in users]


def reply_chain(post: Post, *, limit: int) -> list[Post]:
    """Ancestors of `post`, oldest first, at most `limit`, stopping at a missing parent or a cycle."""
    seen = {post.id}
    chain: list[Post] = []
    parent_id = post.reply_to
    while parent_id is not None and len(chain) < limit and parent_id not in seen:
        parent = post_queryset().filter(pk=parent_id).first()
        if parent is None:
            break
        seen.add(parent.id)
        chain.append(parent)
        parent_id = parent.reply_to
    chain.reverse()
    return chain


# ----------------------------------------------------------------------------- users


def user_queryset(focus_user_id: int | None = None) -> QuerySet[User]:
    qs = User.objects.all()
    if focus_user_id is not None:
        qs = qs.annotate(
            is_followed_by_focus=Exists(Follow.objects.filter(follower_id=focus_user_id, followee_id=OuterRef("pk"))),
            is_following_focus=Exists(Follow.objects.filter(follower_id=OuterRef("pk"), followee_id=focus_user_id)),
            is_blocked_by_focus=Exists(Block.objects.filter(blocker_id=focus_user_id, blockee_id=OuterRef("pk"))),
            is_blocking_focus=Exists(Block.objects.filter(blocker_id=OuterRef("pk"), blockee_id=focus_user_id)),
        )
    return qs


def users_list(
    *,
    page: Page,
    query: str | None = None,
    nickname: str | None = None,
    nickname_prefix: str | None = None,
    after: int | None = None,
    focus_user_id: int | None = None,
    ai_only: bool = False,
) -> list[User]:
    """Users by id; `page.order == "social"` puts the focus user first, then the users
    the focus follows, then those following the focus, then the rest by id ascending
    (without a focus user: by id descending). `query` is the admin-only text match; the
    caller checks the role."""
    social = page.order == "social"
    if after is not None and social:
        raise InvalidInput("after requires order asc or desc")
    qs = _users_filtered(
        user_queryset(focus_user_id), query=query, nickname=nickname, nickname_prefix=nickname_prefix
    )
    if ai_only:
        qs = qs.filter(ai_model__isnull=False)
    if social:
        if focus_user_id is None:
            return _slice(qs.order_by("-id"), page)
        qs = qs.annotate(is_self=Q(pk=focus_user_id))
        return _slice(qs.order_by("-is_self", "-is_followed_by_focus", "-is_following_focus", "id"), page)
    if after is not None:
        qs = qs.filter(id__lt=after) if page.descending else qs.filter(id__gt=after)
    return _slice(qs.order_by(_id_order(page)), page)


def _users_filtered(qs, *, query=None, nickname=None, nickname_prefix=None):
    if query:
        qs = qs.filter(Q(nickname__icontains=query) | Q(introduction__icontains=query))
    if nickname:
        qs = qs.filter(nickname__iexact=nickname)
    if nickname_prefix:
        qs = qs.filter(nickname__istartswith=nickname_prefix)
    return qs


def users_count(*, query: str | None = None, nickname: str | None = None, nickname_prefix: str | None = None) -> int:
    """GET /users/count: the original counts by the first of query, nickname and
    nicknamePrefix that is given."""
    if query:
        nickname = nickname_prefix = None
    elif nickname:
        nickname_prefix = None
    return _users_filtered(
        User.objects.all(), query=query, nickname=nickname, nickname_prefix=nickname_prefix
    ).count()


def user_get(user_id: int, *, focus_user_id: int | None = None) -> User:
    user = user_queryset(focus_user_id).filter(pk=user_id).first()
    if user is None:
        raise NotFound("not found")
    return user


def _users_by_relation(relation_qs, user_field: str, page: Page, focus_user_id, after=None) -> list[User]:
    if after is not None:
        relation_qs = _after_pivot(relation_qs, user_field, after, page.descending)
    ordered = relation_qs.order_by(*_time_then_key(user_field, page)).values_list(user_field, flat=True)
    ids = list(ordered[page.offset : page.offset + page.limit])
    users = {u.id: u for u in user_queryset(focus_user_id).filter(id__in=ids)}
    return [users[i] for i in ids if i in users]


def user_followees(*, user_id: int, page: Page, focus_user_id=None, after=None) -> list[User]:
    return _users_by_relation(Follow.objects.filter(follower_id=user_id), "followee_id", page, focus_user_id, after)


def user_followers(*, user_id: int, page: Page, focus_user_id=None) -> list[User]:
    return _users_by_relation(Follow.objects.filter(followee_id=user_id), "follower_id", page, focus_user_id)


def user_blockees(*, user_id: int, page: Page, focus_user_id=None, after=None) -> list[User]:
    return _users_by_relation(Block.objects.filter(blocker_id=user_id), "blockee_id", page, focus_user_id, after)


def user_relation(viewer_id: int, other_id: int) -> dict[str, bool]:
    """Follow and block flags between two users, for profile pages."""
    return {
        "following": Follow.objects.filter(follower_id=viewer_id, followee_id=other_id).exists(),
        "followed_by": Follow.objects.filter(follower_id=other_id, followee_id=viewer_id).exists(),
        "blocking": Block.objects.filter(blocker_id=viewer_id, blockee_id=other_id).exists(),
        "blocked_by": Block.objects.filter(blocker_id=other_id, blockee_id=viewer_id).exists(),
    }


# --------------------------------------------------------------------- notifications


def notifications_feed(user_id: int, *, newer_than=None, shown: int = 50) -> list[Notification] | None:
    """Up to `shown` unread and `shown` read notifications, newest first. None means
    "nothing new" (the API answers 304) when `newer_than` is given."""
    base = Notification.objects.filter(user_id=user_id)
    if newer_than is not None and not base.filter(is_read=False, updated_at__gt=newer_than).exists():
        return None
    # Rows touched in the same millisecond keep a stable order: the newer row first.
    unread = list(base.filter(is_read=False).order_by("-updated_at", "-id")[:shown])
    read = list(base.filter(is_read=True).order_by("-updated_at", "-id")[:shown])
    return sorted(unread + read, key=lambda n: (n.updated_at, n.id), reverse=True)


def notifications_unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, is_read=False).count()


def notification_public_payload(notification: Notification) -> dict:
    payload = dict(notification.payload or {})
    payload.pop("userIds", None)
    payload.pop("postIds", None)
    return payload

