"""Stage 7: follow management (docs/agent-cycle.md §9).

Each candidate and each current followee is summarised by the sum of the unit
vectors of its recent posts; its cosine with the interest decides. At most
FOLLOWEES_MAX_SWAP new follows per cycle, at most FOLLOWEES_LIMIT kept; unfollows
happen before follows.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import numpy as np
from django.conf import settings
from django.utils import timezone

from agents.embeddings import features_for_model, model_name
from agents.embeddings.calibration import calibrated_similarity
from agents.recommend.batch import decode_by_length, unit_rows
from agents.runs import inputs
from agents.vectors import cosine, decode_features
from sns import services
from sns.core.errors import Conflict, DomainError, NotFound
from sns.core.ids import id_to_datetime, id_to_hex, parse_id
from sns.models import Follow, User
from sns.selectors import newest_posts_q, viewable_posts

from .context import StageContext
from .outreach import outreach

POSTS_FETCHED = 12
VECTORS_USED = 10


def analyse(viewer: User, user_ids: list[int], interest_vec: np.ndarray, model: str) -> dict[int, dict[str, Any]]:
    """{user_id: {"similarity", "latestPostAt"}} for users with at least one usable vector."""
    if not user_ids:
        return {}
    # Each user's newest posts, kept if viewable, with their vectors: one query (the
    # viewable filter applies to the newest POSTS_FETCHED).
    rows = (
        viewable_posts(viewer)
        .filter(newest_posts_q("owner_id", user_ids, POSTS_FETCHED))
        .values_list("id", "owner_id", "ai_summary__features", "ai_summary__embedding_model")
    )
    facts = {row[0]: row for row in rows}
    by_user: dict[int, list[int]] = {}
    for post_id in sorted(facts, reverse=True):
        by_user.setdefault(facts[post_id][1], []).append(post_id)
    blobs = {}
    current = model_name()
    for post_id, (_, _, features, embedding_model) in facts.items():
        stored = features_for_model(features, embedding_model, current=current)
        if stored is not None:
            blobs[post_id] = stored
    # Every usable vector decoded and normalised in one numpy pass; vectors that do not
    # decode or have another length are skipped, as before.
    decoded = decode_by_length(blobs, len(interest_vec))
    if not decoded:
        return {}
    units = unit_rows(np.stack(list(decoded.values())))
    row_of = {post_id: i for i, post_id in enumerate(decoded)}
    result = {}
    for user_id, post_ids in by_user.items():
        rows = [row_of[post_id] for post_id in post_ids if post_id in row_of][:VECTORS_USED]
        if rows:
            # The first VECTORS_USED usable vectors, newest first, added in that order.
            total = units[rows].sum(axis=0)
            result[user_id] = {
                "similarity": calibrated_similarity(cosine(total, interest_vec), model),
                "latestPostAt": id_to_datetime(post_ids[0]),
            }
    return result


def plan_follows(candidates: dict[int, dict], current: dict[int, dict], current_ids: list[int]) -> tuple[list[int], list[int], list[int]]:
    """(final set, to_unfollow, to_follow) from analysed candidates and followees."""
    active_after = timezone.now() - timedelta(days=settings.STGY_AI_USER_FOLLOWEE_ACTIVE_DAYS)
    swap = settings.STGY_AI_USER_FOLLOWEES_MAX_SWAP
    limit = settings.STGY_AI_USER_FOLLOWEES_LIMIT
    new_side = sorted(candidates.items(), key=lambda kv: kv[1]["similarity"], reverse=True)[:swap]
    new_side = [
        (uid, a) for uid, a in new_side
        if a["similarity"] >= settings.STGY_AI_USER_FOLLOWEES_UP_SIMILARITY and a["latestPostAt"] > active_after
    ]
    if len(current) < limit - swap:
        keep = list(current.items())
    else:
        keep = [
            (uid, a) for uid, a in current.items()
            if a["similarity"] >= settings.STGY_AI_USER_FOLLOWEES_DOWN_SIMILARITY and a["latestPostAt"] > active_after
        ]
    union: dict[int, float] = {}
    for uid, a in keep + new_side:
        union[uid] = max(union.get(uid, -2.0), a["similarity"])
    final = [uid for uid, _ in sorted(union.items(), key=lambda kv: kv[1], reverse=True)[:limit]]
    final_set = set(final)
    to_unfollow = [uid for uid in current_ids if uid not in final_set]
    to_follow = [uid for uid in final if uid not in set(current_ids)]
    return final, to_unfollow, to_follow


def follow_management(ctx: StageContext) -> dict[str, Any]:
    me = ctx.user
    interest = ctx.interest
    if interest is None:
        return {"skipped": "no interest yet"}
    stored = features_for_model(bytes(interest.features), interest.embedding_model)
    if stored is None:
        return {"skipped": "interest vector is of another embedding model"}
    interest_vec = decode_features(stored)
    candidate_ids = []
    for hex_id, decision in (ctx.details.get("peerDecisions") or {}).items():
        uid = parse_id(hex_id)
        if decision.get("shouldFollow") is True and uid != me.id and uid not in candidate_ids:
            candidate_ids.append(uid)
    current_ids = [uid for uid in Follow.objects.filter(follower_id=me.id).order_by("-created_at").values_list("followee_id", flat=True) if uid != me.id]
    analysed = analyse(me, list(set(candidate_ids) | set(current_ids)), interest_vec, interest.embedding_model)
    candidates = {uid: analysed[uid] for uid in candidate_ids if uid in analysed}
    current = {uid: analysed[uid] for uid in current_ids if uid in analysed}
    _, to_unfollow, to_follow = plan_follows(candidates, current, current_ids)

    def describe(uid: int) -> dict[str, Any]:
        a = analysed.get(uid)
        return {
            "userId": id_to_hex(uid),
            "similarity": round(a["similarity"], 6) if a else None,
            "latestPostAt": inputs.iso(a["latestPostAt"]) if a else None,
        }

    # All unfollows through one call of the rulebook too (two statements for the lot).
    removed = services.follows_remove(me, to_unfollow) if to_unfollow else {}
    unfollows = [
        _act(lambda uid=uid: _raise_if_refused(removed[uid]), "unfollowed", NotFound, "was not following",
             describe(uid) | {"reason": "not analysable" if uid not in analysed else "below keep threshold or inactive"})
        for uid in to_unfollow
    ]
    # All follows through one call of the rulebook: the same checks per user, batched.
    outcomes = services.follows_add(me, to_follow) if to_follow else {}
    follows = [
        _act(lambda uid=uid: _raise_if_refused(outcomes[uid]), "followed", Conflict, "already following",
             describe(uid) | {"reason": "shouldFollow and similar"})
        for uid in to_follow
    ]
    ctx.details["follows"], ctx.details["unfollows"] = follows, unfollows
    return {
        "candidates": len(candidate_ids), "followees": len(current_ids), "followed": len(follows),
        "unfollowed": len(unfollows), **outreach(ctx),
    }


def _raise_if_refused(outcome) -> None:
    if isinstance(outcome, DomainError):
        raise outcome


def _act(action, done: str, benign: type[DomainError], benign_text: str, record: dict[str, Any]) -> dict[str, Any]:
    """Run one follow or unfollow through the rulebook and note its result; a refusal is
    recorded, never raised, so one refused action does not stop the others."""
    try:
        action()
        record["result"] = done
    except benign:
        record["result"] = benign_text
    except DomainError as exc:
        record["result"] = f"refused: {exc.message}"
    return record
