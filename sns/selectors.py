"""Reads of the social network, each with the viewer it is done for.

Querysets are built so that a page of N rows costs a constant number of queries
(owner joined, tags prefetched, focus flags as EXISTS subqueries).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet, Subquery, Window
from django.db.models.functions import Lower, RowNumber

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
    parents = Post.objects.filter(pk=OuterRef("reply_to"))
    qs = (
        Post.objects.select_related("owner")
        .prefetch_related(Prefetch("tags", queryset=PostTag.objects.order_by("name")))
        .annotate(
            reply_to_owner_id=Subquery(parents.values("owner_id")[:1]),
            reply_to_owner_nickname=Subquery(parents.values("owner__nickname")[:1]),
        )
    )
    if focus_user_id is not None:
        owner_blocks = Block.objects.filter(blocker_id=OuterRef("owner_id"), blockee_id=focus_user_id)
        owner_follows = Follow.objects.filter(follower_id=OuterRef("owner_id"), followee_id=focus_user_id)
        qs = qs.annotate(
            is_liked_by_focus=Exists(Like.objects.filter(post_id=OuterRef("pk"), user_id=focus_user_id)),
            is_replied_by_focus=Exists(
                Post.objects.filter(reply_to=OuterRef("pk"), owner_id=focus_user_id)
            ),
            owner_blocks_focus=Exists(owner_blocks),
            owner_follows_focus=Exists(owner_follows),
        )
    return qs


def post_is_blocking_focus(post: Post, focus_user_id: int) -> bool:
    if post.owner_id == focus_user_id:
        return False
    return bool(post.owner_blocks_focus) or (post.owner.block_strangers and not post.owner_follows_focus)


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
    qs = post_queryset(focus_user_id)
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
    if after is not None:
        qs = qs.filter(id__lt=after) if page.descending else qs.filter(id__gt=after)
    return _slice(qs.order_by(_id_order(page)), page)


def post_search(*, text: str, page: Page, focus_user_id: int | None = None) -> list[Post]:
    """Full-text search for every logged-in user: PostgreSQL's text search when the
    database is PostgreSQL, a case-insensitive substring match on SQLite."""
    words = text.split()
    if not words:
        return []
    qs = post_queryset(focus_user_id)
    if connection.vendor == "postgresql":
        from django.contrib.postgres.search import SearchQuery, SearchVector

        qs = qs.annotate(search=SearchVector("content", config="simple")).filter(
            search=SearchQuery(text, config="simple", search_type="websearch")
        )
    else:
        for word in words:
            qs = qs.filter(content__icontains=word)
    return _slice(qs.order_by(_id_order(page)), page)


def post_get(post_id: int, *, focus_user_id: int | None = None) -> Post:
    post = post_queryset(focus_user_id).filter(pk=post_id).first()
    if post is None:
        raise NotFound("not found")
    return post


def post_neighbours(post: Post) -> tuple[int | None, int | None]:
    """Ids of the same owner's previous and next posts."""
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
    """The `limit` followees with the newest latest post each contribute their newest
    posts (at most `limit_per_user`); the union is ordered by id and paged."""
    authors = Follow.objects.filter(follower_id=user_id).values("followee_id")
    own_posts = Post.objects.filter(owner_id=OuterRef("pk"))
    if not include_replies:
        own_posts = own_posts.filter(reply_to__isnull=True)
    wanted = Q(pk__in=authors) | Q(pk=user_id) if include_self else Q(pk__in=authors)
    candidates = User.objects.filter(wanted)
    active = list(
        candidates.annotate(latest=Subquery(own_posts.order_by("-id").values("id")[:1]))
        .filter(latest__isnull=False)
        .order_by("-latest")
        .values_list("pk", flat=True)[: page.limit + page.offset]
    )
    if not active:
        return []
    per_user = min(page.limit + page.offset, limit_per_user or page.limit + page.offset)
    ranked = Post.objects.filter(owner_id__in=active)
    if not include_replies:
        ranked = ranked.filter(reply_to__isnull=True)
    ranked = ranked.annotate(
        rank=Window(RowNumber(), partition_by=["owner_id"], order_by=["-id"])
    ).filter(rank__lte=per_user)
    ids = list(ranked.values_list("id", flat=True))
    return _slice(post_queryset(focus_user_id).filter(id__in=ids).order_by(_id_order(page)), page)


def posts_liked(
    *,
    user_id: int,
    page: Page,
    include_replies: bool = True,
    after: int | None = None,
    focus_user_id: int | None = None,
) -> list[Post]:
    likes = Like.objects.filter(user_id=user_id)
    if not include_replies:
        likes = likes.filter(post__reply_to__isnull=True)
    order = "-created_at" if page.descending else "created_at"
    if after is not None:
        pivot = Like.objects.filter(user_id=user_id, post_id=after).values_list("created_at", flat=True).first()
        if pivot is not None:
            likes = likes.filter(created_at__lt=pivot) if page.descending else likes.filter(created_at__gt=pivot)
    post_ids = [pid for pid in likes.order_by(order, "-post_id").values_list("post_id", flat=True)[page.offset : page.offset + page.limit]]
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
    social: bool = False,
    ai_only: bool = False,
) -> list[User]:
    qs = user_queryset(focus_user_id)
    if ai_only:
        qs = qs.filter(ai_model__isnull=False)
    if query:
        qs = qs.filter(Q(nickname__icontains=query) | Q(introduction__icontains=query))
    if nickname:
        qs = qs.annotate(lower_nickname=Lower("nickname")).filter(lower_nickname=nickname.lower())
    if nickname_prefix:
        qs = qs.filter(nickname__istartswith=nickname_prefix)
    if social:
        if focus_user_id is None:
            return _slice(qs.order_by("-id"), page)
        rows = _slice(
            qs.annotate(
                is_self=Q(pk=focus_user_id),
            ).order_by("-is_self", "-is_followed_by_focus", "-is_following_focus", "id"),
            page,
        )
        return rows
    if after is not None:
        qs = qs.filter(id__lt=after) if page.descending else qs.filter(id__gt=after)
    return _slice(qs.order_by(_id_order(page)), page)


def user_get(user_id: int, *, focus_user_id: int | None = None) -> User:
    user = user_queryset(focus_user_id).filter(pk=user_id).first()
    if user is None:
        raise NotFound("not found")
    return user


def _users_by_relation(relation_qs, user_field: str, page: Page, focus_user_id, after=None) -> list[User]:
    order = ["-created_at", f"-{user_field}"] if page.descending else ["created_at", user_field]
    if after is not None:
        pivot = relation_qs.filter(**{user_field: after}).values_list("created_at", flat=True).first()
        if pivot is None:
            raise InvalidInput("invalid after")
        relation_qs = relation_qs.filter(created_at__lt=pivot) if page.descending else relation_qs.filter(created_at__gt=pivot)
    ids = list(relation_qs.order_by(*order).values_list(user_field, flat=True)[page.offset : page.offset + page.limit])
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
    unread = list(base.filter(is_read=False).order_by("-updated_at")[:shown])
    read = list(base.filter(is_read=True).order_by("-updated_at")[:shown])
    return sorted(unread + read, key=lambda n: n.updated_at, reverse=True)


def notifications_unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, is_read=False).count()


def notification_public_payload(notification: Notification) -> dict:
    payload = dict(notification.payload or {})
    payload.pop("userIds", None)
    payload.pop("postIds", None)
    return payload

