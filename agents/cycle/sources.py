"""The facts stage 1 needs about its candidate posts (docs/agent-cycle.md §3.1, §3.3).

The candidates themselves come from the site's selectors (`sns.selectors.timeline_rows`,
`notification_rows`, `newest_posts_q`); which of them the AI user may read is the
site's one visibility rule (`sns.selectors.viewable_posts`), asked here together with
what only the agents know (read markers, summaries) in one statement.
"""

from __future__ import annotations

from django.db.models import BooleanField, Exists, ExpressionWrapper, F, OuterRef, Q, QuerySet

from agents.models import PostImpression
from sns.compiled_read import CompiledRead, ids_array, viewer_of, viewer_variant
from sns.models import User
from sns.selectors import viewable_posts


def _facts_query(variant: str, viewer_id: int, ids) -> QuerySet:
    viewer = viewer_of(variant, viewer_id)
    read = PostImpression.objects.filter(user_id=viewer_id, post_id=OuterRef("pk"))
    return (
        viewable_posts(viewer)
        .filter(id__in=ids_array(ids))
        .annotate(
            read=Exists(read),
            summarised=ExpressionWrapper(Q(ai_summary__summary__isnull=False), output_field=BooleanField()),
            features=F("ai_summary__features"),
            embedding_model=F("ai_summary__embedding_model"),
        )
        .values("id", "owner_id", "read", "summarised", "features", "embedding_model")
    )


_facts = CompiledRead("candidate_facts", ("id", "ids"), _facts_query)


def candidate_facts(viewer: User, post_ids) -> dict[int, dict]:
    """The candidates the viewer may read, each with its owner, whether the viewer has
    read it (an impression exists) and its summary facts, in one query (its statement
    compiled once per process)."""
    ids = list(dict.fromkeys(i for i in post_ids if i is not None))
    if not ids:
        return {}
    rows = _facts(viewer_variant(viewer), viewer.id, ids)
    return {row["id"]: row for row in rows}
