"""Reads of the public sites (docs/publication.md): which posts are public, a user's
site settings, and the page-view ranking and stats.

`public_posts_q` is the one rule for what is published; the API, the pages and the
feed all read through `_public`, which adds the site's visibility rule for the
visitor (sns/selectors/visibility.py: a frozen owner's site is hidden, and a
logged-in visitor the owner refuses or who blocked the owner sees nothing of it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone as dt_timezone

from django.conf import settings
from django.db.models import Q, Sum
from django.utils import timezone

from ..core.errors import NotFound
from ..models import Post, PostPubView, PubConfig, User
from .paging import Page
from .posts import post_queryset
from .visibility import viewable_q

# How many posts a sidebar (recent or popular) lists at most, and pub-by-ids reads.
PUB_SIDE_POSTS_MAX = 20
# The original's list limit for public posts of a user (max of it and the page limit).
PUBLIC_POST_LIST_MAX_LIMIT = 1000
# The original keeps at most this many posts in a ranking.
RANKING_TOP_LIMIT = 1000
DIGEST_CHARS = 150


def public_posts_q(now: datetime | None = None) -> Q:
    """A post is public once its owner gave it a publication time and that time has
    come (docs/publication.md §2). Replies follow the same rule, as in the original."""
    return Q(published_at__isnull=False, published_at__lte=now or timezone.now())


def _public(viewer, now: datetime | None, qs=None):
    """Posts published by `now` that `viewer` (a User or an AnonymousUser) may see."""
    return (post_queryset() if qs is None else qs).filter(public_posts_q(now), viewable_q(viewer))


def public_post_get(post_id: int, *, viewer, now: datetime | None = None) -> Post:
    """A public post with the ids of the owner's public neighbours in publication order
    (`older_id`, `newer_id`); 404 `not found` when it is not public or hidden from `viewer`."""
    now = now or timezone.now()
    post = _public(viewer, now).filter(pk=post_id).first()
    if post is None:
        raise NotFound("not found")
    same = _public(viewer, now, Post.objects.all()).filter(owner_id=post.owner_id)
    at = post.published_at
    post.older_id = (
        same.filter(Q(published_at__lt=at) | Q(published_at=at, id__lt=post.id))
        .order_by("-published_at", "-id")
        .values_list("id", flat=True)
        .first()
    )
    post.newer_id = (
        same.filter(Q(published_at__gt=at) | Q(published_at=at, id__gt=post.id))
        .order_by("published_at", "id")
        .values_list("id", flat=True)
        .first()
    )
    return post


def public_posts_by_user(user_id: int, *, page: Page, viewer, now: datetime | None = None) -> list[Post]:
    """The user's public posts by publication time (then id), newest first unless `asc`."""
    order = ["-published_at", "-id"] if page.descending else ["published_at", "id"]
    qs = _public(viewer, now).filter(owner_id=user_id).order_by(*order)
    return list(qs[page.offset : page.offset + page.limit])


def public_posts_by_ids(post_ids: list[int], *, viewer, now: datetime | None = None) -> list[Post]:
    """The public ones among `post_ids`, in the order asked (a repeated id repeats)."""
    found = {p.id: p for p in _public(viewer, now).filter(id__in=set(post_ids))}
    return [found[i] for i in post_ids if i in found]


def public_posts_recent(limit: int, *, now: datetime | None = None) -> list[Post]:
    """The newest public posts of everyone, by publication time: what the landing page
    shows a visitor who is not logged in."""
    qs = _public(None, now).order_by("-published_at", "-id")
    return list(qs[:limit])


# ------------------------------------------------------------------- site settings


def pub_config_get(user_id: int) -> PubConfig:
    """The stored settings, or the defaults (an unsaved row) for a user who has none."""
    return PubConfig.objects.filter(user_id=user_id).first() or PubConfig(user_id=user_id)


def pub_site_get(user_id: int) -> tuple[User, PubConfig]:
    """The owner and settings of a public site; 404 for a user who does not exist."""
    user = User.objects.filter(pk=user_id).select_related("pub_config").first()
    if user is None:
        raise NotFound("not found")
    try:
        config = user.pub_config
    except PubConfig.DoesNotExist:
        config = PubConfig(user_id=user.id)
    return user, config


# ------------------------------------------------------------------------ page views


def _retention_days() -> list[date]:
    """The counted days, oldest first, ending today (UTC)."""
    today = datetime.now(dt_timezone.utc).date()
    n = settings.STGY_PUB_VIEW_RETENTION_DAYS
    return [today - timedelta(days=i) for i in range(n - 1, -1, -1)]


@dataclass(frozen=True)
class RankEntry:
    id: int
    pv: int


def pub_ranking(owner_id: int, limit: int) -> list[RankEntry]:
    """The owner's most read public posts over the retention window, most read first
    (then by id); at most min(limit, RANKING_TOP_LIMIT)."""
    if limit <= 0:
        return []
    days = _retention_days()
    rows = (
        PostPubView.objects.filter(owner_id=owner_id, day__gte=days[0], count__gt=0)
        .filter(post__in=Post.objects.filter(public_posts_q(), owner_id=owner_id))
        .values("post_id")
        .annotate(pv=Sum("count"))
        .order_by("-pv", "post_id")[: min(limit, RANKING_TOP_LIMIT)]
    )
    return [RankEntry(r["post_id"], int(r["pv"])) for r in rows]


@dataclass(frozen=True)
class StatEntry:
    post: Post
    pv: int
    daily_pv: list[int]


@dataclass(frozen=True)
class PubStats:
    retention_days: int
    total_pv: int
    daily_pv: list[tuple[date, int]]
    entries: list[StatEntry]


def pub_stats(owner_id: int) -> PubStats:
    """Views of the owner's posts per day over the retention window (oldest first),
    and per post, most read first (at most RANKING_TOP_LIMIT posts)."""
    days = _retention_days()
    index = {d: i for i, d in enumerate(days)}
    rows = PostPubView.objects.filter(owner_id=owner_id, day__gte=days[0], count__gt=0).values_list(
        "post_id", "day", "count"
    )
    per_post: dict[int, list[int]] = {}
    daily = [0] * len(days)
    for post_id, day, count in rows:
        if day not in index:
            continue
        per_post.setdefault(post_id, [0] * len(days))[index[day]] += count
        daily[index[day]] += count
    ranked = sorted(per_post.items(), key=lambda item: (-sum(item[1]), item[0]))[:RANKING_TOP_LIMIT]
    posts = Post.objects.filter(id__in=[pid for pid, _ in ranked], published_at__isnull=False).only(
        "id", "published_at", "snippet"
    )
    by_id = {p.id: p for p in posts}
    entries = [
        StatEntry(by_id[pid], sum(counts), counts) for pid, counts in ranked if pid in by_id
    ]
    return PubStats(
        retention_days=len(days),
        total_pv=sum(daily),
        daily_pv=list(zip(days, daily)),
        entries=entries,
    )


def digest(post: Post) -> str:
    """A one-line plain-text excerpt of a post, at most DIGEST_CHARS characters."""
    return " ".join(post.snippet_text.split())[:DIGEST_CHARS]
