"""Post recommendation (summary-and-vectors.md §7): tag and keyword candidates, a
coarse score, vector re-ranking, per-user seeds by clustering, and cached feeds.

Pages use the two helpers below; the API and the AI-user cycle use
`recommend_post_ids` with a `RecommendQuery`.
"""

from .feeds import (
    post_related_ids,
    posts_in_order,
    recommended_posts_for_user,
    related_posts,
    user_recommended_ids,
)
from .query import RecommendQuery, per_user_query, recommend_query_from_body
from .rerank import recommend_post_ids
from .seeds import user_search_seeds

__all__ = [
    "RecommendQuery",
    "per_user_query",
    "post_related_ids",
    "posts_in_order",
    "recommend_post_ids",
    "recommend_query_from_body",
    "recommended_posts_for_user",
    "related_posts",
    "user_recommended_ids",
    "user_search_seeds",
]
