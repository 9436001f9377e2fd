"""Reads of posts through the ORM, each with the viewer (focus user) it is done for:
one post, the count of a list, and `post_queryset` for the reads that still build
querysets (search, recommendation, public sites, likes). The lists of posts are read
through the statement builder (sns/selectors/post_reads/).

Querysets are built so that a page of N rows costs a constant number of queries
(owner joined, tag names and focus flags as subqueries).
"""

from __future__ import annotations

from django.db.models import BigIntegerField, BooleanField, CharField, OuterRef, QuerySet, Subquery
from django.db.models.expressions import RawSQL

from ..core.errors import NotFound
from ..models import Post
from ..reads.access import owner_refuses
from .post_reads.execute import fetch
from .post_reads.statement import names, post_facts, vendor, where, where_sql
from .visibility import viewable_q


def post_queryset(focus_user_id: int | None = None) -> QuerySet[Post]:
    """Posts with their owner, tags, the parent's owner and, for a focus user, the
    flags every view of a post shows (liked, replied, owner blocks / follows them).

    The per-row facts (and the tag names, see Post.tag_names) are correlated subqueries
    written out as SQL, the post reads' own (sns/selectors/post_reads/statement.py): built
    from Subquery/Exists expressions they cost about 3 ms of query compilation per
    call, more than the rest of a timeline read together."""
    facts = post_facts(vendor())
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


def post_is_blocking_focus(post: Post, focus_user_id: int) -> bool:
    """The API's isBlockingFocusUser: does the post's owner refuse the focus user
    (post_queryset's owner_blocks_focus / owner_follows_focus facts)?"""
    return owner_refuses(
        post.owner, focus_user_id, blocks=post.owner_blocks_focus, follows_back=post.owner_follows_focus
    )


def post_exists(post_id: int) -> bool:
    """Whether a post exists at all, whoever may see it (to tell "deleted" from "hidden")."""
    return Post.objects.filter(pk=post_id).exists()


def posts_count(
    *, owned_by: int | None = None, tag: str | None = None, reply_to=None, query: str | None = None, viewer=None,
    authors: str | None = None,
) -> int:
    """GET /posts/count: what GET /posts would list with the same filters
    (sns/selectors/post_reads/statement.py `where`), counted."""
    conditions, params = where(owned_by=owned_by, tag=tag, reply_to=reply_to, query=query, viewer=viewer, authors=authors)
    [(count,)] = fetch(f"SELECT COUNT(*) FROM {names().post}{where_sql(conditions)}", params)
    return count


def post_get(
    post_id: int, *, focus_user_id: int | None = None, with_neighbours: bool = False, viewer=None
) -> Post:
    """One post; `with_neighbours` also reads the ids of the same owner's previous and
    next posts in the same query (see post_neighbours). A post hidden from `viewer` is
    not found."""
    qs = post_queryset(focus_user_id)
    if viewer is not None:
        qs = qs.filter(viewable_q(viewer))
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
