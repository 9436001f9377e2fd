"""The vector universe and the re-ranking passes (docs/summaries-and-vectors.md §7.4).

Vectors of another embedding model than the site's current one count as missing: they
live in a different space and are never compared (docs/differences.md item 7).
"""

from __future__ import annotations

import math

import numpy as np
from django.conf import settings

from ..embeddings import model_name
from ..models import PostSummary
from ..vectors import decode_features, l2_normalize
from .batch import cosines, decode_rows, ids_in, similarity_scores, sum_cosine, unit_rows
from .candidates import Candidate, coarse_candidates, post_facts
from .query import RecommendQuery

NEG_INF = float("-inf")
DUPLICATE_SIMILARITY = 0.8


def post_vectors(post_ids) -> tuple[dict[int, np.ndarray | None], set[int]]:
    """Unit vectors of the given posts (None when absent or of another model), and
    the ids whose summary row has non-NULL features at all."""
    out: dict[int, np.ndarray | None] = {}
    with_features: set[int] = set()
    usable: dict[int, bytes] = {}
    ids = list(post_ids)
    rows = PostSummary.objects.filter(ids_in("post_id", ids)).values_list("post_id", "features", "embedding_model") if ids else []
    current = model_name()  # asked once, not once a row (features_for_model's rule)
    for post_id, data, model in rows:
        if data:
            with_features.add(post_id)
        out[post_id] = None
        stored = bytes(data) if data and model == current else None
        if stored:
            usable[post_id] = stored
    # Decoded and normalised per length in one numpy pass, not one call per post.
    groups: dict[int, list[int]] = {}
    for post_id, stored in usable.items():
        groups.setdefault(len(stored), []).append(post_id)
    for ids in groups.values():
        matrix, ok = decode_rows([usable[i] for i in ids])
        if not ok.all():
            raise ValueError("feature byte -128 is outside the codec range")
        for i, row in zip(ids, unit_rows(matrix)):
            out[i] = row
    return out, with_features


def _sort(
    items: list[Candidate], base: dict[int, float], position: dict[int, int]
) -> list[Candidate]:
    """Base desc; two -inf keep the universe order, other ties newest first."""

    def key(c: Candidate):
        b = base[c.post_id]
        return (-b, position[c.post_id] if b == NEG_INF else -c.post_id)

    return sorted(items, key=key)


def _owner_decay(items: list[Candidate], base: dict[int, float], decay: float) -> None:
    seen: dict[int, int] = {}
    for c in items:
        k = seen.get(c.owner_id, 0)
        seen[c.owner_id] = k + 1
        factor = decay**k
        if factor == 0:
            if base[c.post_id] != NEG_INF:
                base[c.post_id] = 0.0
        else:
            base[c.post_id] *= factor


def _social_rank(
    q: RecommendQuery, items: list[Candidate], base: dict[int, float]
) -> list[Candidate]:
    alpha = q.promotion_by_likes_alpha or 0.0
    promotion = q.promotion_for_seed_posts or 0.0
    demotion = q.demotion_for_replies or 0.0
    seeds = {post_id: j for j, post_id in enumerate(q.seed_post_ids)}
    rank: dict[int, float] = {}
    for i, c in enumerate(items):
        r = float(i)
        if alpha > 0:
            r -= math.log(alpha + c.like_count) / math.log(3)
        if demotion > 0 and not c.is_root:
            r += demotion
        if promotion > 0 and c.post_id in seeds:
            r -= promotion * (len(seeds) - seeds[c.post_id]) / len(seeds)
        rank[c.post_id] = r
    return sorted(items, key=lambda c: (rank[c.post_id], -base[c.post_id], -c.post_id))


def _dedup(items: list[Candidate], vectors: dict, weight: float) -> list[Candidate]:
    """Demote each post by its similarity to the sum of the vectors ranked above it
    (those of the first vector's length). The cosines are `cosine`'s arithmetic with
    only the dot products per candidate (norm and similarity_score cost more in call
    overhead than in arithmetic), the similarity scores one numpy pass."""
    rank = {c.post_id: float(i) for i, c in enumerate(items)}
    total: np.ndarray | None = None
    later: list[int] = []  # the index of each candidate compared with the sum above it
    cosines_above: list[float] = []
    for i, c in enumerate(items):
        v = vectors.get(c.post_id)
        if v is None:
            continue
        if total is None:
            total = v.copy()
            continue
        if total.size != v.size:
            continue
        later.append(i)
        cosines_above.append(sum_cosine(total, v))
        total = total + v
    if later:
        sims = similarity_scores(np.array(cosines_above))
        over = (sims - DUPLICATE_SIMILARITY) / (1 - DUPLICATE_SIMILARITY)
        for i, w in zip(later, np.where(sims > DUPLICATE_SIMILARITY, over, 0.0).tolist()):
            rank[items[i].post_id] = i + w * weight
    return sorted(items, key=lambda c: (rank[c.post_id], -c.post_id))


def _universe(ranked: list[Candidate], with_row: set[int]) -> list[Candidate]:
    """The best coarse candidates that have a summary row (its features may be NULL).
    The original asks in chunks of 100; the rows were read with the hashes already."""
    limit = settings.STGY_AI_POST_RECOMMEND_VEC_CANDIDATES
    return [c for c in ranked if c.post_id in with_row][:limit]


def recommend_post_ids(q: RecommendQuery) -> list[int]:
    """Ids of recommended posts for `q`, ordered and paged."""
    ranked, with_row = coarse_candidates(q)
    if not ranked:
        return []
    universe = _universe(ranked, with_row)
    present = {c.post_id for c in universe}
    extra_seeds = [pid for pid in q.seed_post_ids if pid not in present]
    query_vec = l2_normalize(decode_features(q.features)) if q.features else None
    needs_vectors = query_vec is not None or (q.demotion_for_duplication or 0) > 0
    vectors: dict[int, np.ndarray | None] = {}
    with_features: set[int] = set()
    if needs_vectors or extra_seeds:
        vectors, with_features = post_vectors(present | set(extra_seeds))
    if extra_seeds:
        facts = post_facts([pid for pid in extra_seeds if pid in with_features], q.self_user_id)
        universe += [facts[pid] for pid in extra_seeds if pid in facts]
    if not universe:
        return []
    coarse = {c.post_id: c.coarse for c in ranked}
    base = {c.post_id: coarse.get(c.post_id, 0.0) for c in universe}
    if query_vec is not None:
        comparable = []
        for c in universe:
            v = vectors.get(c.post_id)
            if v is None or v.size != query_vec.size:
                base[c.post_id] = NEG_INF
            else:
                comparable.append(c)
        if comparable:
            sims = cosines(np.array([vectors[c.post_id] for c in comparable]), query_vec)
            for c, score in zip(comparable, similarity_scores(sims).tolist()):
                base[c.post_id] = score * c.penalty
    position = {c.post_id: i for i, c in enumerate(universe)}
    items = _sort(universe, base, position)
    if q.owner_decay is not None and q.owner_decay < 1:  # absent or 1 = disabled
        _owner_decay(items, base, max(q.owner_decay, 0.0))
        items = _sort(items, base, position)
    items = _social_rank(q, items, base)
    if (q.demotion_for_duplication or 0) > 0:
        items = _dedup(items, vectors, q.demotion_for_duplication)
    ids = [c.post_id for c in items]
    if q.order == "asc":
        ids.reverse()
    return ids[q.offset : q.offset + q.limit]
