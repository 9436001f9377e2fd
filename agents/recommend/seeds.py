"""Per-user search seeds (docs/summaries-and-vectors.md §7.5): what a user reads and writes,
clustered into a few topics, each turned into tags, keyword hashes and a vector.

Material = the user's own newest posts and likes, and those of the followees who posted
most recently, weighted by kind and decayed by age. A seed packet is JSON-ready (it is
both the API answer and what the cache holds).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import numpy as np
from django.conf import settings
from django.db.models import F, OuterRef, Subquery, Window
from django.db.models.functions import RowNumber

from sns.core.ids import id_to_hex
from sns.models import Follow, Like, Post, PostTag, User

from ..keyword_hash import unpack_hashes
from ..models import AiPostTag, PostSummary
from ..vectors import encode_features, features_to_b64, l2_normalize
from .kmeans import kmeans_labels, user_seed
from .rerank import post_vectors

OWN_POSTS, OWN_POST_WEIGHT = 10, 1.0
OWN_LIKES, OWN_LIKE_WEIGHT = 20, 0.7
FOLLOWEES = 25
FOLLOWEE_POSTS, FOLLOWEE_POST_WEIGHT = 5, 0.3
FOLLOWEE_LIKES, FOLLOWEE_LIKE_WEIGHT = 10, 0.2
AGE_DECAY = 0.8
EFFECTIVE_POWER = 0.7
TAG_KEEP_FACTOR = 3  # tags ranked past the first N·3 are never used
MAX_RATIO_BELOW_PIVOT = 0.999


@dataclass
class Material:
    post_id: int
    owner_id: int
    effective: float
    vec: np.ndarray
    tags: dict[str, int] = field(default_factory=dict)
    hashes: Counter = field(default_factory=Counter)


def round3(x: float) -> float:
    return math.floor(x * 1000 + 0.5) / 1000  # JavaScript Math.round, not banker's


def floor3(x: float) -> float:
    return math.floor(x * 1000) / 1000


def _newest(qs, partition: str, order: list[str], limit: int):
    """The first `limit` rows of each `partition`, newest first (one query)."""
    ranking = Window(
        RowNumber(), partition_by=[F(partition)], order_by=[F(f).desc() for f in order]
    )
    return qs.annotate(rank=ranking).filter(rank__lte=limit)


def material_weights(user_id: int) -> dict[int, float]:
    """Post id -> summed weight of every way the post entered the user's material."""
    weights: dict[int, float] = defaultdict(float)
    for pid in (
        Post.objects.filter(owner_id=user_id)
        .order_by("-id")
        .values_list("id", flat=True)[:OWN_POSTS]
    ):
        weights[pid] += OWN_POST_WEIGHT
    own_likes = Like.objects.filter(user_id=user_id).order_by("-created_at", "-post_id")
    for pid in own_likes.values_list("post_id", flat=True)[:OWN_LIKES]:
        weights[pid] += OWN_LIKE_WEIGHT
    latest = Post.objects.filter(owner_id=OuterRef("pk")).order_by("-id").values("id")[:1]
    active = list(
        User.objects.filter(pk__in=Follow.objects.filter(follower_id=user_id).values("followee_id"))
        .annotate(latest=Subquery(latest))
        .filter(latest__isnull=False)
        .order_by("-latest")
        .values_list("pk", flat=True)[:FOLLOWEES]
    )
    if active:
        posts = _newest(
            Post.objects.filter(owner_id__in=active), "owner_id", ["id"], FOLLOWEE_POSTS
        )
        for pid in posts.values_list("id", flat=True):
            weights[pid] += FOLLOWEE_POST_WEIGHT
        likes = _newest(
            Like.objects.filter(user_id__in=active),
            "user_id",
            ["created_at", "post_id"],
            FOLLOWEE_LIKES,
        )
        for pid in likes.values_list("post_id", flat=True):
            weights[pid] += FOLLOWEE_LIKE_WEIGHT
    return dict(weights)


def _effective(weights: dict[int, float]) -> dict[int, float]:
    ordered = sorted(weights, reverse=True)
    if not ordered:
        return {}
    decay = AGE_DECAY ** (1 / len(ordered))
    adjusted = {pid: weights[pid] * decay**k for k, pid in enumerate(ordered)}
    total = sum(adjusted.values())
    return {pid: (value / total) ** EFFECTIVE_POWER for pid, value in adjusted.items()}


def load_materials(user_id: int) -> list[Material]:
    """Materials with a usable vector, newest first."""
    effective = _effective(material_weights(user_id))
    vectors, _ = post_vectors(effective)
    ids = sorted((pid for pid, v in vectors.items() if v is not None), reverse=True)
    if not ids:
        return []
    owners = dict(Post.objects.filter(id__in=ids).values_list("id", "owner_id"))
    materials = {
        pid: Material(pid, owners[pid], effective[pid], vectors[pid])
        for pid in ids
        if pid in owners
    }
    for model in (PostTag, AiPostTag):
        for pid, name in model.objects.filter(post_id__in=list(materials)).values_list(
            "post_id", "name"
        ):
            materials[pid].tags[name] = materials[pid].tags.get(name, 0) + 1
    for pid, data in PostSummary.objects.filter(post_id__in=list(materials)).values_list(
        "post_id", "hashes"
    ):
        try:
            materials[pid].hashes = Counter(unpack_hashes(bytes(data))) if data else Counter()
        except ValueError:
            pass
    return [materials[pid] for pid in ids if pid in materials]


def _normalised(ranked: list[tuple], head: int, keep: int) -> tuple[list[tuple], list[tuple]]:
    """The first `head` items with count = max(1, round3(score / pivot)), pivot being the
    last of them; then, up to `keep` in all, later ones whose ratio is below 1."""
    top = ranked[:head]
    if not top:
        return [], []
    pivot = top[-1][1]
    if pivot <= 0:
        return [(key, 1) for key, _ in top], []
    counts = [(key, max(1, round3(score / pivot))) for key, score in top]
    rest = []
    for key, score in ranked[head:keep]:
        ratio = score / pivot
        if ratio < 1:
            count = min(floor3(ratio), MAX_RATIO_BELOW_PIVOT)
            if count > 0:
                rest.append((key, count))
    return counts, rest


def _seed_packet(members: list[Material], user_id: int) -> dict:
    num_tags = settings.STGY_AI_POST_SEED_NUM_TAGS
    num_hashes = settings.STGY_AI_POST_SEED_NUM_KEYWORD_HASHES
    tag_score: dict[str, float] = defaultdict(float)
    hash_score: dict[int, float] = defaultdict(float)
    total = np.zeros_like(members[0].vec)
    for m in members:
        for name, count in m.tags.items():
            tag_score[name] += m.effective * math.log(1 + count)
        for h, count in m.hashes.items():
            hash_score[h] += m.effective * math.log(1 + count)
        total = total + m.vec * m.effective
    tags_ranked = sorted(tag_score.items(), key=lambda kv: (-kv[1], kv[0]))
    tags, extra = _normalised(tags_ranked, num_tags, num_tags * TAG_KEEP_FACTOR)
    hashes_ranked = sorted(hash_score.items(), key=lambda kv: (-kv[1], kv[0]))
    head, tail = _normalised(hashes_ranked, min(10, len(hashes_ranked), num_hashes), num_hashes)
    picked = sorted(
        (m for m in members if m.owner_id != user_id), key=lambda m: (-m.effective, -m.post_id)
    )[: settings.STGY_AI_POST_SEED_CLUSTER_POSTIDS_LIMIT]
    return {
        "tags": [{"name": name, "count": count} for name, count in tags],
        "extraTags": [{"name": name, "count": count} for name, count in extra],
        "keywordHashes": [{"hash": h, "count": count} for h, count in head + tail],
        "features": features_to_b64(encode_features(l2_normalize(total))),
        "weight": round3(sum(m.effective for m in members)),
        "postIds": [id_to_hex(m.post_id) for m in picked],
    }


def _clusters(materials: list[Material], num_clusters: int, user_id: int) -> list[list[Material]]:
    k = min(num_clusters, len(materials))
    if k <= 1:
        return [materials]
    if len(materials) < num_clusters:
        ordered = sorted(materials, key=lambda m: (-m.effective, -m.post_id))
        return [[m] for m in ordered]
    labels = kmeans_labels(np.stack([m.vec for m in materials]), k, user_seed(user_id))
    groups: list[list[Material]] = [[] for _ in range(k)]
    for m, label in zip(materials, labels, strict=True):
        groups[label].append(m)
    return [g for g in groups if g]


def user_search_seeds(user_id: int, num_clusters: int = 1) -> list[dict]:
    """Seed packets of `GET /ai-posts/search-seed`, heaviest first."""
    materials = load_materials(user_id)
    if not materials:
        return []
    seeds = [_seed_packet(group, user_id) for group in _clusters(materials, num_clusters, user_id)]

    def first_tag(seed: dict) -> str:
        return seed["tags"][0]["name"] if seed["tags"] else ""

    return sorted(seeds, key=lambda s: (-s["weight"], len(first_tag(s)), first_tag(s)))
