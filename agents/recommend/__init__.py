"""Post recommendation (docs/summaries-and-vectors.md §7): tag and keyword candidates, a
coarse score, vector re-ranking, per-user seeds by clustering, and cached feeds.

Pages use `recommended_posts_for_user` and `related_posts`; the AI-user cycle uses
`recommend_for_interest`; the API builds a `RecommendQuery` for `recommend_post_ids`.
"""

from .feeds import (
    post_related_ids,
    posts_in_order,
    recommend_for_interest,
    recommended_posts_for_user,
    related_posts,
    user_recommended_ids,
    user_recommended_ids_cached,
)
from .query import RecommendQuery, per_user_query, recommend_query_from_body
from .rerank import recommend_post_ids
from .seeds import user_search_seeds

__all__ = [
    "RecommendQuery",
    "per_user_query",
    "post_related_ids",
    "posts_in_order",
    "recommend_for_interest",
    "recommend_post_ids",
    "recommend_query_from_body",
    "recommended_posts_for_user",
    "related_posts",
    "user_recommended_ids",
    "user_recommended_ids_cached",
    "user_search_seeds",
]
