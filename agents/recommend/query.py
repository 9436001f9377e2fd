"""A recommendation request and its validation from an HTTP body
(docs/summaries-and-vectors.md §7.1)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from sns.core.errors import InvalidInput
from sns.core.ids import parse_id

from ..tags import normalize_keyword
from ..vectors import DIM, decode_features, features_from_b64

ADMIN_MAX_LIMIT = 65535
USER_MAX_LIMIT = 100
DEFAULT_LIMIT = 100
_KNOBS = {
    "ownerDecay": "owner_decay",
    "promotionByLikesAlpha": "promotion_by_likes_alpha",
    "promotionForSeedPosts": "promotion_for_seed_posts",
    "demotionForReplies": "demotion_for_replies",
    "demotionForDuplication": "demotion_for_duplication",
}


@dataclass
class RecommendQuery:
    """Inputs of §7.2–7.4. Tag and hash maps give each query term its weight."""

    tags: dict[str, float]
    keyword_hashes: dict[int, float] = field(default_factory=dict)
    extra_tags: dict[str, float] = field(default_factory=dict)
    self_user_id: int | None = None
    features: bytes | None = None
    seed_post_ids: list[int] = field(default_factory=list)
    owner_decay: float | None = None
    promotion_by_likes_alpha: float | None = None
    promotion_for_seed_posts: float | None = None
    demotion_for_replies: float | None = None
    demotion_for_duplication: float | None = None
    offset: int = 0
    limit: int = DEFAULT_LIMIT
    order: str = "desc"


def per_user_query(**kwargs) -> RecommendQuery:
    """The knobs the AI users and the per-user / per-post feeds use (§7.4, §7.6, §7.7)."""
    defaults = {
        "owner_decay": 0.95,
        "promotion_by_likes_alpha": 5.0,
        "promotion_for_seed_posts": 2.0,
        "demotion_for_replies": 2.0,
        "demotion_for_duplication": 5.0,
    }
    return RecommendQuery(**{**defaults, **kwargs})


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def to_uint32(value: float) -> int:
    """JavaScript's `n >>> 0`: truncate toward zero, then wrap to 32 bits."""
    return math.trunc(value) & 0xFFFFFFFF


def _tags(raw: Any) -> dict[str, float]:
    if not isinstance(raw, list) or not raw:
        raise InvalidInput("tags is required")
    out: dict[str, float] = {}
    for i, item in enumerate(raw):
        if not isinstance(item, dict):
            raise InvalidInput(f"invalid tags[{i}]")
        name = item.get("name")
        if not isinstance(name, str) or not normalize_keyword(name):
            raise InvalidInput(f"invalid tags[{i}].name")
        count = item.get("count")
        if not _is_number(count) or count <= 0:
            raise InvalidInput(f"invalid tags[{i}].count")
        key = normalize_keyword(name)
        out[key] = out.get(key, 0.0) + float(count)
    return out


def _hashes(raw: Any) -> dict[int, float]:
    if raw is None:
        return {}
    if not isinstance(raw, list):
        raise InvalidInput("invalid keywordHashes")
    out: dict[int, float] = {}
    for i, item in enumerate(raw):
        if _is_number(item):
            key, count = to_uint32(item), 1.0
        elif isinstance(item, dict) and _is_number(item.get("hash")):
            count = item.get("count")
            if not _is_number(count) or count <= 0:
                raise InvalidInput(f"invalid keywordHashes[{i}].count")
            key, count = to_uint32(item["hash"]), float(count)
        else:
            raise InvalidInput(f"invalid keywordHashes[{i}]")
        out[key] = out.get(key, 0.0) + count
    return out


def parse_features(raw: Any) -> bytes | None:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if not isinstance(raw, str):
        raise InvalidInput("invalid features")
    data = features_from_b64(raw.strip())
    # Every vector is DIM bytes: a shorter one, stored or compared, broke every
    # later computation it took part in (a 500 in the user's search seeds).
    if data and len(data) != DIM:
        raise InvalidInput("invalid features")
    try:
        decode_features(data)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    return data or None


def _seed_ids(raw: Any) -> list[int]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InvalidInput("invalid seedPostIds")
    out: list[int] = []
    for item in raw:
        if not isinstance(item, str):
            raise InvalidInput("invalid seedPostIds")
        if item.strip():
            post_id = parse_id(item.strip(), "seedPostIds")
            if post_id not in out:
                out.append(post_id)
    return out


def recommend_query_from_body(body: Any, *, is_admin: bool) -> RecommendQuery:
    if not isinstance(body, dict):
        raise InvalidInput("invalid body")
    offset = (
        math.floor(body["offset"]) if _is_number(body.get("offset")) and body["offset"] >= 0 else 0
    )
    limit = (
        math.floor(body["limit"])
        if _is_number(body.get("limit")) and body["limit"] >= 0
        else DEFAULT_LIMIT
    )
    limit = min(limit, ADMIN_MAX_LIMIT if is_admin else USER_MAX_LIMIT)
    order = (
        "asc" if isinstance(body.get("order"), str) and body["order"].lower() == "asc" else "desc"
    )
    self_id = body.get("selfUserId")
    if self_id is not None and not isinstance(self_id, str):
        raise InvalidInput("invalid selfUserId")
    knobs: dict[str, float | None] = {}
    for key, attr in _KNOBS.items():
        value = body.get(key)
        if value is not None and not _is_number(value):
            raise InvalidInput(f"invalid {key}")
        knobs[attr] = float(value) if value is not None else None
    # `extraTags` is for internal callers only and is ignored here, as in the original.
    return RecommendQuery(
        tags=_tags(body.get("tags")),
        keyword_hashes=_hashes(body.get("keywordHashes")),
        self_user_id=parse_id(self_id.strip(), "selfUserId")
        if self_id and self_id.strip()
        else None,
        features=parse_features(body.get("features")),
        seed_post_ids=_seed_ids(body.get("seedPostIds")),
        offset=offset,
        limit=limit,
        order=order,
        **knobs,
    )
