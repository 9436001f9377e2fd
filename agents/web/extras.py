"""What the agents app adds to the site's pages (registered with sns/extensions.py in
AgentsConfig.ready()): the "For you" tab's recommendations and a post's related posts,
both from agents/recommend."""

from __future__ import annotations

from django.core.cache import cache

_WARMING_SECONDS = 60  # one background ranking per user at a time


def recommended_posts(viewer, *, offset: int, limit: int) -> list:
    from agents.recommend import recommended_posts_for_user

    return list(recommended_posts_for_user(viewer, offset=offset, limit=limit))


def recommendations_offered(viewer, *, asked: bool) -> bool:
    """Ranking a user's recommendations costs more than the rest of the page (seed
    clusters, candidate queries), so a page that did not ask for the tab only looks at
    a cached ranking; without one it has the ranking made in the background and offers
    the tab from the next page on."""
    from agents.recommend import user_recommended_ids, user_recommended_ids_cached
    from agents.runner import submit_task
    from agents.tasks import warm_recommendations

    if asked:
        return bool(user_recommended_ids(viewer.id))
    ids = user_recommended_ids_cached(viewer.id)
    if ids is None:
        if cache.add(f"recommend-warming:{viewer.id}", 1, _WARMING_SECONDS):
            submit_task(warm_recommendations, viewer.id)
        return False
    return bool(ids)


def related_posts(post, viewer, *, limit: int, compute: bool):
    from agents.recommend import related_posts as related

    return related(post, viewer, limit=limit, compute=compute)


def register() -> None:
    from sns.extensions import register_page_extras

    register_page_extras(
        recommended_posts=recommended_posts,
        recommendations_offered=recommendations_offered,
        related_posts=related_posts,
    )
