"""The facts stage 1 needs about its candidate posts (docs/agent-cycle.md §3.1, §3.3).

The candidates themselves come from the site's selectors (`sns.selectors.timeline_rows`,
`notification_rows`, `newest_posts_q`); which of them the AI user may read is the
site's one visibility rule (`sns.selectors.viewable_posts`), asked here together with
what only the agents know (read markers, summaries) in one statement.
"""

from __future__ import annotations

from functools import lru_cache

from sns.models import User
from sns.reads.sql_statements import fetch, ids_in
from sns.selectors.visibility import viewable_sql


@lru_cache(maxsize=8)
def _facts_sql(visible: str, ids: str) -> str:
    return (
        'SELECT p."id", p."owned_by", '
        'EXISTS (SELECT 1 FROM "agents_postimpression" i WHERE i."post_id" = p."id" AND i."user_id" = %s), '
        's."summary" IS NOT NULL, s."features", s."embedding_model" '
        'FROM "sns_post" p LEFT JOIN "agents_postsummary" s ON s."post_id" = p."id" '
        f"WHERE {visible} AND {ids}"
    )


def candidate_facts(viewer: User, post_ids) -> dict[int, dict]:
    """The candidates the viewer may read, each with its owner, whether the viewer has
    read it (an impression exists) and its summary facts, in one query."""
    ids = list(dict.fromkeys(i for i in post_ids if i is not None))
    if not ids:
        return {}
    visible, visible_params = viewable_sql(viewer, 'p."owned_by"', 'p."content"')
    where, id_params = ids_in('p."id"', ids)
    rows = fetch(_facts_sql(visible, where), [viewer.id, *visible_params, *id_params])
    return {
        post_id: {
            "id": post_id, "owner_id": owner_id, "read": bool(read), "summarised": bool(summarised),
            "features": features, "embedding_model": embedding_model,
        }
        for post_id, owner_id, read, summarised, features, embedding_model in rows
    }
