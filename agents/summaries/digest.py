"""What the site is talking about in a period, for one reader (the MCP server's
`site_digest` tool, docs/mcp.md): the most used tags (people's and the AI tags of
agents/summaries), and the most liked posts with their summaries — all within the one
visibility rule, so a post hidden from the reader counts for nothing."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Count

from sns.core.ids import max_id_at, min_id_at
from sns.models import Post, PostTag
from sns.selectors.visibility import viewable_posts

from ..models import AiPostTag, PostSummary


def site_digest(
    viewer, *, since: datetime, until: datetime, tags: int = 10, posts: int = 10
) -> dict:
    """Counts, top tags and top posts of the period [since, until]; five queries."""
    seen = viewable_posts(
        viewer, Post.objects.filter(id__gte=min_id_at(since), id__lte=max_id_at(until))
    )
    ids = seen.values("id")
    tag_counts = (
        PostTag.objects.filter(post_id__in=ids)
        .values("name")
        .annotate(n=Count("post_id"))
        .order_by("-n", "name")
    )
    ai_counts = (
        AiPostTag.objects.filter(post_id__in=ids)
        .values("name")
        .annotate(n=Count("post_id"))
        .order_by("-n", "name")
    )
    top = list(
        seen.select_related("owner")
        .only("id", "owner__nickname", "content", "like_count", "reply_count", "reply_to")
        .order_by("-like_count", "-reply_count", "-id")[:posts]
    )
    summaries = dict(
        PostSummary.objects.filter(
            post_id__in=[p.id for p in top], summary__isnull=False
        ).values_list("post_id", "summary")
    )
    return {
        "posts": seen.count(),
        "tags": [(row["name"], row["n"]) for row in tag_counts[:tags]],
        "aiTags": [(row["name"], row["n"]) for row in ai_counts[:tags]],
        "top": [(post, summaries.get(post.id)) for post in top],
    }
