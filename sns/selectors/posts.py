"""Reads of posts, each with the viewer (focus user) it is done for.

Querysets are built so that a page of N rows costs a constant number of queries
(owner joined, tags prefetched, focus flags as EXISTS subqueries).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.db import connection
from django.db.models import BigIntegerField, BooleanField, CharField, OuterRef, Q, QuerySet, Subquery
from django.db.models.expressions import RawSQL

from ..reads.access import owner_refuses
from ..core.errors import NotFound
from ..models import Block, Follow, Like, Post, PostTag, User
from .paging import Page, id_order, page_slice
from .visibility import viewable_q
from .authors import authors_q


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


def post_is_blocking_focus(post: Post, focus_user_id: int) -> bool:
    """The API's isBlockingFocusUser: does the post's owner refuse the focus user
    (post_queryset's owner_blocks_focus / owner_follows_focus facts)?"""
    return owner_refuses(
        post.owner, focus_user_id, blocks=post.owner_blocks_focus, follows_back=post.owner_follows_focus
    )


def _posts_filtered(qs, *, owned_by=None, tag=None, reply_to=None, query=None, viewer=None, authors=None):
    if authors not in (None, "all"):
        qs = qs.filter(authors_q(authors))
    if viewer is not None:
        qs = qs.filter(viewable_q(viewer))
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


def post_exists(post_id: int) -> bool:
    """Whether a post exists at all, whoever may see it (to tell "deleted" from "hidden")."""
    return Post.objects.filter(pk=post_id).exists()


def posts_count(
    *, owned_by: int | None = None, tag: str | None = None, reply_to=None, query: str | None = None, viewer=None,
    authors: str | None = None,
) -> int:
    """GET /posts/count: what posts_list would list with the same filters, counted."""
    qs = _posts_filtered(
        Post.objects.all(), owned_by=owned_by, tag=tag, reply_to=reply_to, query=query, viewer=viewer, authors=authors
    )
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
    viewer=None,
    authors: str | None = None,
) -> list[Post]:
    """Posts by id with the filters of GET /posts; with a `viewer`, only those visible
    to them (sns/selectors/visibility.py); `authors`: people's, AI users' or all
    (sns/selectors/authors.py)."""
    qs = _posts_filtered(
        post_queryset(focus_user_id), owned_by=owned_by, tag=tag, reply_to=reply_to, query=query, viewer=viewer,
        authors=authors,
    )
    if after is not None:
        qs = qs.filter(id__lt=after) if page.descending else qs.filter(id__gt=after)
    return page_slice(qs.order_by(id_order(page)), page)


def post_get(
    post_id: int, *, focus_user_id: int | None = None, with_neighbours: bool = False, viewer=None
) -> Post:
    """One post; `with_neighbours` also reads the ids of the same owner's previous and
    next posts in the same query (see post_neighbours). A post hidden from `viewer` is
    not found."""
    qs = _posts_filtered(post_queryset(focus_user_id), viewer=viewer)
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
