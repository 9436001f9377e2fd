"""The ORM forms of the post reads: the reference the statement builder
(sns/selectors/post_reads/) is compared with, row by row and byte by byte
(test_post_rows.py, test_post_models.py, test_thread_models.py,
test_timeline_union.py, test_followee_bound.py). Plain querysets, no written SQL: if
the builder and these agree, the builder reads what the ORM would."""

from __future__ import annotations

from django.db.models import F, OuterRef, Q, Subquery, Window
from django.db.models.functions import RowNumber

from sns.models import Follow, Post, User
from sns.selectors.authors import authors_q
from sns.selectors.paging import Page, id_order, page_slice
from sns.selectors.posts import post_queryset
from sns.selectors.visibility import viewable_posts, viewable_q


def posts_filtered(qs, *, owned_by=None, tag=None, reply_to=None, query=None, viewer=None, authors=None):
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


def posts_list(*, page: Page, after=None, focus_user_id=None, **filters) -> list[Post]:
    """GET /posts: posts by id with its filters, for `viewer`."""
    qs = posts_filtered(post_queryset(focus_user_id), **filters)
    if after is not None:
        qs = qs.filter(id__lt=after) if page.descending else qs.filter(id__gt=after)
    return page_slice(qs.order_by(id_order(page)), page)


def posting_followees(user_id: int, *, include_self: bool, roots_only: bool, limit: int, viewer=None, authors=None):
    """The followees (and the user, with `include_self`) with a post, newest latest post first."""
    follows = Follow.objects.filter(follower_id=user_id).order_by()
    if viewer is not None:
        follows = follows.filter(viewable_q(viewer, "followee"))
    wanted = Q(pk__in=follows.values("followee_id"))
    if include_self:
        wanted |= Q(pk=user_id)
    own_posts = Post.objects.filter(owner_id=OuterRef("pk"))
    if roots_only:
        own_posts = own_posts.filter(reply_to__isnull=True)
    return list(
        User.objects.filter(wanted, authors_q(authors, "pk"))
        .annotate(latest=Subquery(own_posts.order_by("-id").values("id")[:1]))
        .filter(latest__isnull=False)
        .order_by("-latest")
        .values_list("pk", flat=True)[:limit]
    )


def newest_posts(field: str, keys, n: int, *, roots_only: bool = False, top: int | None = None, descending=True):
    """The ids of the `n` newest posts of each key, ranked by a window function; with
    `top`, the first `top` of them by id (newest first unless not `descending`)."""
    qs = Post.objects.filter(**{f"{field}__in": list(keys)})
    if roots_only:
        qs = qs.filter(reply_to__isnull=True)
    ranked = qs.annotate(rank=Window(RowNumber(), partition_by=[field], order_by=["-id"])).filter(rank__lte=n)
    if top is None:
        return ranked.values("id")
    return Post.objects.filter(pk__in=ranked.values("id")).order_by("-id" if descending else "id").values("id")[:top]


def posts_by_followees(
    *, user_id: int, page: Page, include_self: bool = False, include_replies: bool = True, limit_per_user=None,
    focus_user_id=None, viewer=None, authors=None,
) -> list[Post]:
    """docs/api.md §3: of the followees of `user_id` (and the user too if
    `include_self`) who have a post, the `limit` with the newest latest post each
    contribute their `min(limit, limit_per_user ?? limit)` newest posts; that union is
    ordered by id, then `offset`/`limit` apply."""
    active = posting_followees(
        user_id, include_self=include_self, roots_only=not include_replies, limit=page.limit, viewer=viewer,
        authors=authors,
    )
    per_user = min(page.limit, page.limit if limit_per_user is None else limit_per_user)
    if not active or per_user <= 0:
        return []
    # The union cut to the first offset + limit in the page's order before the rule
    # hides any of them, as the API has always read it.
    newest = newest_posts(
        "owner_id", active, per_user, roots_only=not include_replies, top=page.end, descending=page.descending
    )
    qs = post_queryset(focus_user_id).filter(pk__in=newest)
    if viewer is not None:
        qs = qs.filter(viewable_q(viewer))
    return page_slice(qs.order_by(id_order(page)), page)


def descendants_by_level(viewer, parents: list[Post], *, levels: int, per_parent: int, focus_user_id: int) -> list[Post]:
    """reply_descendants as one ORM read per level."""
    found: list[Post] = []
    level = parents
    for _ in range(levels):
        ids = [post.id for post in level if post.reply_count]
        if not ids:
            break
        first = (
            viewable_posts(viewer)
            .filter(reply_to__in=ids)
            .annotate(rank=Window(RowNumber(), partition_by=[F("reply_to")], order_by=F("id").asc()))
            .filter(rank__lte=per_parent)
            .values("id")
        )
        level = list(post_queryset(focus_user_id).filter(id__in=first).order_by("id"))
        found += level
    return sorted(found, key=lambda post: post.id)


TIMELINE_FIELDS = ("id", "owner_id", "reply_to", "locale", "owner__locale", "reply_to_owner_id")


def timeline_rows(user_id: int, *, limit: int, per_followee: int, viewer=None) -> tuple[list[dict], list[dict]]:
    """(followees' posts, latest posts site-wide), newest first, `limit` each."""

    def dicts(qs) -> list[dict]:
        parents = Post.objects.filter(pk=OuterRef("reply_to"))
        rows = qs.annotate(reply_to_owner_id=Subquery(parents.values("owner_id")[:1]))
        return list(rows.order_by("-id").values(*TIMELINE_FIELDS)[:limit])

    latest = dicts(viewable_posts(viewer))
    per_user = min(limit, per_followee)
    if per_user <= 0:
        return [], latest
    keys = posting_followees(user_id, include_self=False, roots_only=False, limit=limit, viewer=viewer)
    if not keys:
        return [], latest
    return dicts(viewable_posts(viewer).filter(pk__in=newest_posts("owner_id", keys, per_user))), latest
