"""Recommendation feeds: posts for a user (§7.6) and posts related to a post (§7.7).

Both are cached in Django's cache (Redis when REDIS_URL is set, in-process otherwise)
under the original's key names and lifetimes. A cache that is down only costs the
recomputation; it never breaks the page or the API call.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache

from sns.core.errors import NotFound
from sns.core.ids import parse_id
from sns.models import Post, PostTag
from sns.selectors.post_reads.instances import posts_by_ids

from ..embeddings import features_for_model, model_name
from ..keyword_hash import unpack_hashes
from ..models import AiPostTag, PostSummary
from ..tags import normalize_keyword
from ..vectors import features_from_b64
from .query import per_user_query
from .rerank import recommend_post_ids
from .seeds import user_search_seeds

log = logging.getLogger(__name__)

EMPTY_SEEDS_TTL = 60
EMPTY_POSTS_TTL = 180
FEED_LIMIT = 100
RELATED_AUTHOR_POSTS = 5
RELATED_DECAY = 0.98
RELATED_TAGS = 10
MISSING = object()


def _cache_get(key: str):
    try:
        return cache.get(key, MISSING)
    except Exception:
        log.warning("cache read of %s failed; recomputing", key, exc_info=True)
        return MISSING


def _cache_set(key: str, value, ttl: int) -> None:
    try:
        cache.set(key, value, ttl)
    except Exception:
        log.warning("cache write of %s failed", key, exc_info=True)


def posts_in_order(post_ids: list[int], focus_user_id: int | None, viewer=None) -> list[Post]:
    """Posts for the given ids, in that order (missing ones and, with a `viewer`, those
    hidden from them skipped), in one query through the pages' statement builder."""
    posts = posts_by_ids(viewer, post_ids, focus_user_id=focus_user_id)
    return [posts[pid] for pid in post_ids if pid in posts]


def page_ids(ids: list[int], *, offset: int, limit: int, order: str = "desc") -> list[int]:
    ordered = list(reversed(ids)) if order == "asc" else ids
    return ordered[offset : offset + limit]


# ------------------------------------------------------------------ for a user (§7.6)


def user_seeds_cached(user_id: int) -> list[dict]:
    key = f"recommend-user-seeds:{user_id}"
    current = model_name()
    cached = _cache_get(key)
    # Seed vectors live in one embedding space: after a model change they are rebuilt.
    if cached is not MISSING and cached.get("model") == current:
        return cached["seeds"]
    seeds = user_search_seeds(user_id, settings.STGY_AI_POST_SEED_NUM_CLUSTERS)
    ttl = settings.STGY_AI_POST_SEED_TTL_SEC if seeds else EMPTY_SEEDS_TTL
    _cache_set(key, {"model": current, "seeds": seeds}, ttl)
    return seeds


def _seed_query(seed: dict, user_id: int):
    return per_user_query(
        tags={t["name"]: float(t["count"]) for t in seed["tags"]},
        extra_tags={t["name"]: float(t["count"]) for t in seed["extraTags"]},
        keyword_hashes={int(h["hash"]): float(h["count"]) for h in seed["keywordHashes"]},
        features=features_from_b64(seed["features"]) if seed.get("features") else None,
        seed_post_ids=[parse_id(pid) for pid in seed["postIds"]],
        self_user_id=user_id,
        limit=FEED_LIMIT,
    )


def _merge(runs: list[tuple[float, list[int]]]) -> list[int]:
    scored: list[tuple[float, float, int]] = []
    for weight, ids in runs:
        n = len(ids)
        for i, post_id in enumerate(ids):
            exponent = i / (n - 1) if n > 1 else 0.0
            scored.append(((weight / 2) ** exponent, weight, post_id))
    scored.sort(key=lambda item: (-item[0], -item[1], -item[2]))
    return list(dict.fromkeys(post_id for _, _, post_id in scored))


def user_recommended_ids_cached(user_id: int) -> list[int] | None:
    """The user's cached recommendation ids, or None when none are cached (nothing is
    computed here)."""
    cached = _cache_get(f"recommend-user-posts:{user_id}")
    return None if cached is MISSING else cached


def user_recommended_ids(user_id: int) -> list[int]:
    """Post ids recommended to `user_id`, best first (cached for an hour)."""
    key = f"recommend-user-posts:{user_id}"
    cached = _cache_get(key)
    if cached is not MISSING:
        return cached
    seeds = sorted(user_seeds_cached(user_id), key=lambda s: -s["weight"])
    if len(seeds) >= 3:
        seeds = seeds[:-1]  # the lightest topic is usually noise
    if not seeds:
        _cache_set(key, [], EMPTY_POSTS_TTL)
        return []
    heaviest = max(s["weight"] for s in seeds)
    runs = []
    for seed in seeds:
        weight = seed["weight"] / heaviest if heaviest > 0 else 1.0
        if seed["tags"]:
            runs.append((weight, recommend_post_ids(_seed_query(seed, user_id))))
    ids = _merge(runs)
    _cache_set(key, ids, settings.STGY_AI_POST_RECOMMEND_TTL_SEC)
    return ids


# ----------------------------------------------------------------- for a post (§7.7)


def _tags_by_post(post_ids: list[int]) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    author: dict[int, list[str]] = defaultdict(list)
    ai: dict[int, list[str]] = defaultdict(list)
    for target, model in ((author, PostTag), (ai, AiPostTag)):
        for post_id, name in model.objects.filter(post_id__in=post_ids).values_list(
            "post_id", "name"
        ):
            key = normalize_keyword(name)
            if key and key not in target[post_id]:
                target[post_id].append(key)
    return author, ai


def _related_query(row: PostSummary, viewer_id: int | None):
    post = row.post
    recent = list(
        Post.objects.filter(owner_id=post.owner_id)
        .order_by("-id")
        .values_list("id", flat=True)[: RELATED_AUTHOR_POSTS + 1]
    )
    others = [pid for pid in recent if pid != post.id][:RELATED_AUTHOR_POSTS]
    author, ai = _tags_by_post([post.id, *others])
    weights: dict[str, float] = defaultdict(float)
    for name in author[post.id] + ai[post.id]:
        weights[name] += 1.0
    try:
        hashes = Counter(unpack_hashes(bytes(row.hashes))) if row.hashes else Counter()
    except ValueError:
        hashes = Counter()
    if not weights and not hashes:
        return None
    related: dict[str, float] = defaultdict(float)
    for u, pid in enumerate(others):
        for name in author[pid] + ai[pid]:
            related[name] += RELATED_DECAY**u
    top = sorted(related.items(), key=lambda kv: (-kv[1], kv[0]))[:RELATED_TAGS]
    if top and top[0][1] > 0:
        for name, score in top:
            weights[name] += score / top[0][1]
    features = (
        features_for_model(bytes(row.features), row.embedding_model) if row.features else None
    )
    return per_user_query(
        tags=dict(weights),
        keyword_hashes={h: float(c) for h, c in hashes.items()},
        features=features,
        seed_post_ids=[post.id],
        self_user_id=viewer_id,
        limit=FEED_LIMIT,
    )


def _post_posts_key(post_id: int, viewer_id: int | None) -> str:
    return f"recommend-post-posts:{viewer_id or 0}:{post_id}"


def post_related_ids(post_id: int, viewer_id: int | None) -> list[int]:
    """Ids of posts related to `post_id` for `viewer_id` (the target may be among them).
    NotFound if the post or its summary row does not exist."""
    key = _post_posts_key(post_id, viewer_id)
    cached = _cache_get(key)
    if cached is not MISSING:
        return cached
    row = PostSummary.objects.select_related("post").filter(post_id=post_id).first()
    if row is None:
        raise NotFound("not found")
    query = _related_query(row, viewer_id)
    if query is None or not query.tags:
        # No tag to retrieve candidates by: §7.2 returns nothing without tags.
        _cache_set(key, [], EMPTY_POSTS_TTL)
        return []
    ids = recommend_post_ids(query)
    _cache_set(key, ids, settings.STGY_AI_POST_RECOMMEND_TTL_SEC)
    return ids


# ------------------------------------------------------------ for an AI user's cycle


def recommend_for_interest(user, interest, *, limit: int = 30) -> list[int]:
    """Candidate posts for an AI user's reading (§7.4, last paragraph): its interest
    tags (count 1 each), its interest vector, the per-user knobs, no seeds."""
    tags: dict[str, float] = defaultdict(float)
    for name in interest.tags or []:
        if isinstance(name, str) and normalize_keyword(name):
            tags[normalize_keyword(name)] += 1.0
    if not tags:
        return []
    features = features_for_model(interest.features, interest.embedding_model)
    query = per_user_query(
        tags=dict(tags), features=features, self_user_id=user.id, limit=min(FEED_LIMIT, limit)
    )
    return recommend_post_ids(query)


# ------------------------------------------------------------------ for the pages


def recommended_posts_for_user(user, *, offset: int = 0, limit: int = 20) -> list[Post]:
    """The "For you" tab: recommended posts for `user`, ready to render."""
    ids = page_ids(user_recommended_ids(user.id), offset=offset, limit=limit)
    return posts_in_order(ids, user.id, viewer=user)


def related_posts(post, viewer, *, limit: int = 5, compute: bool = True) -> list[Post] | None:
    """The "Related posts" box of a post page, without the post itself.

    The ranking is made once per post for every reader (no viewer in the query) and
    cached, then fitted to the viewer: their own posts and posts hidden from them
    (sns/selectors/visibility.py) are left out. A per-viewer ranking would miss the cache on nearly every page
    a reader opens. With `compute=False` only a cached ranking is used; None means
    none is cached yet (the page then loads the box separately)."""
    viewer_id = viewer.id if viewer is not None and viewer.is_authenticated else None
    if not compute:
        ids = _cache_get(_post_posts_key(post.id, None))
        if ids is MISSING:
            return None
    else:
        try:
            ids = post_related_ids(post.id, None)
        except NotFound:
            return []
    wanted = [pid for pid in ids if pid != post.id][: limit * 3]
    fitting = [p for p in posts_in_order(wanted, viewer_id, viewer=viewer or AnonymousUser()) if p.owner_id != viewer_id]
    return fitting[:limit]
