"""Stage 1: choose what to read (docs/agent-cycle.md §3).

Candidates from six sources with base weights, reply and locale multipliers; merged
by maximum; filtered to what the AI user may see; a random score; posts already read
dropped; ranked by similarity to the current interest; at most READ_POST_LIMIT read,
at most two per author.
"""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings
from django.db import connection

import numpy as np

from agents.embeddings import features_for_model, model_name
from agents.embeddings.calibration import calibrated_similarity
from agents.recommend.batch import cosines, decode_by_length, similarity_scores
from agents.vectors import decode_features
from sns import services
from sns.core.errors import DomainError
from sns.core.ids import id_to_hex, parse_id
from sns.models import Follow, Post
from sns.selectors import newest_posts_q, notification_rows, timeline_rows
from sns.core.text import language_of

from . import sources
from .context import StageContext

BOOST_OFFSET = 0.2
PER_AUTHOR_CAP = 2
FOLLOWER_SAMPLE = 5
POSTS_PER_FOLLOWER = 3
FOLLOWEE_POSTS_PER_USER = 3


def locale_multiplier(my_locale: str, post_locale: str | None) -> float:
    mine, theirs = language_of(my_locale), language_of(post_locale)
    if mine and mine == theirs:
        return 1.0
    return 0.5 if theirs == "en" else 0.3


def reply_multiplier(post: Post, parent_owner_id: int | None, me_id: int) -> float:
    # A reply is a post with a parent owner (replyToOwnerId): one whose parent was deleted
    # keeps a dangling reply_to (docs/data-model.md §2) and counts as a root post, as in the original.
    is_reply = post.reply_to is not None and parent_owner_id is not None
    return 0.5 if is_reply and parent_owner_id != me_id else 1.0


def _timeline_candidates(ctx: StageContext, rows, base: float, source: str, out: list) -> None:
    me = ctx.user
    for row in rows:
        if row["owner_id"] == me.id:
            continue
        weight = base
        # A reply is a post with a parent owner (see reply_multiplier).
        is_reply = row["reply_to"] is not None and row["reply_to_owner_id"] is not None
        weight *= 0.5 if is_reply and row["reply_to_owner_id"] != me.id else 1.0
        weight *= locale_multiplier(me.locale, row["locale"] or row["owner__locale"])
        out.append((row["id"], weight, source))


def _notification_candidates(ctx: StageContext, out: list) -> None:
    """Reply and mention notifications as candidates; the ones consumed are marked
    read, as a person reading them would (docs/differences.md item 6)."""
    me_id = ctx.user.id
    shown = settings.STGY_NOTIFICATION_SHOWN_RECORDS
    feed = notification_rows(me_id, shown=shown)
    consumed = [(note.slot, note.term) for note in feed if not note.is_read and note.slot.startswith(("reply:", "mention:"))]
    if consumed:
        try:
            services.notifications_mark_read(ctx.user, consumed)
        except DomainError as exc:
            ctx.notes["notificationsNotMarked"] = exc.message
    for note in feed:
        if note.slot.startswith("reply:"):
            weight, source = 0.8, "reply-notification"
        elif note.slot.startswith("mention:"):
            weight, source = 0.6, "mention-notification"
        else:
            continue
        for record in (note.payload or {}).get("records", []):
            post_hex, user_hex = record.get("postId"), record.get("userId")
            if not isinstance(post_hex, str) or not isinstance(user_hex, str):
                continue
            try:
                if parse_id(user_hex) == me_id:
                    continue
                out.append((parse_id(post_hex), weight, source))
            except Exception:
                continue


def _recommended_candidates(ctx: StageContext, out: list) -> None:
    interest = ctx.interest
    if interest is None:
        return
    limit = min(100, settings.STGY_AI_USER_FETCH_POST_LIMIT)
    try:
        from agents.recommend import recommend_for_interest

        ids = recommend_for_interest(ctx.user, interest, limit=limit)
    except Exception as exc:  # the original treats this source as optional
        ctx.notes.setdefault("sourceErrors", {})["recommendations"] = str(exc)
        return
    for post_id in ids[:limit]:
        out.append((post_id, 0.8, "recommendation"))


def _follower_candidates(ctx: StageContext, rng: random.Random, out: list) -> None:
    me = ctx.user
    fetch = settings.STGY_AI_USER_FETCH_POST_LIMIT
    per_follower = min(POSTS_PER_FOLLOWER, settings.STGY_AI_USER_READ_POST_LIMIT)
    followers, posts_of = _newest_followers_posts(me.id, fetch, per_follower)
    rng.shuffle(followers)
    chosen = followers[:FOLLOWER_SAMPLE]
    for owner_id in sorted(chosen):
        for post_id in posts_of(owner_id, chosen):
            out.append((post_id, 0.5, "follower"))


def _newest_followers_posts(me_id: int, fetch: int, per_follower: int):
    """The user's `fetch` newest followers (newest first) and a function giving a
    follower's `per_follower` newest post ids (newest first). On PostgreSQL one round
    trip reads both (each follower's posts by a LATERAL join on the (owner, id) index:
    30 followers × 3 posts); elsewhere the posts are read for the chosen followers."""
    follows = Follow.objects.filter(followee_id=me_id).order_by("-created_at")
    if connection.vendor != "postgresql":
        followers = list(follows.values_list("follower_id", flat=True)[:fetch])

        read_posts: dict[int, list[int]] = {}

        def read(owner_id: int, chosen: list[int]) -> list[int]:
            if not read_posts:  # the chosen followers' posts, in one query on first use
                ranked = Post.objects.filter(newest_posts_q("owner_id", chosen, per_follower)).order_by("owner_id", "-id")
                read_posts[0] = []
                for post_id, owner in ranked.values_list("id", "owner_id"):
                    read_posts.setdefault(owner, []).append(post_id)
            return read_posts.get(owner_id, [])

        return followers, read
    sql = (
        'SELECT f."follower_id", p."id" FROM (SELECT "follower_id", "created_at" FROM "sns_follow" '
        'WHERE "followee_id" = %s ORDER BY "created_at" DESC LIMIT %s) AS f LEFT JOIN LATERAL '
        '(SELECT "id" FROM "sns_post" WHERE "owned_by" = f."follower_id" ORDER BY "id" DESC LIMIT %s) AS p ON true '
        'ORDER BY f."created_at" DESC, f."follower_id", p."id" DESC'
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, (me_id, fetch, per_follower))
        rows = cursor.fetchall()
    followers = list(dict.fromkeys(follower for follower, _ in rows))
    posts: dict[int, list[int]] = {}
    for follower, post_id in rows:
        if post_id is not None:
            posts.setdefault(follower, []).append(post_id)
    return followers, lambda owner_id, chosen: posts.get(owner_id, [])


def gather_candidates(ctx: StageContext, rng: random.Random) -> list[tuple[int, float, str]]:
    me = ctx.user
    fetch = settings.STGY_AI_USER_FETCH_POST_LIMIT
    out: list[tuple[int, float, str]] = []
    followees, latest = timeline_rows(me.id, limit=fetch, per_followee=FOLLOWEE_POSTS_PER_USER, viewer=me)
    _timeline_candidates(ctx, followees, 1.0, "followee", out)
    _timeline_candidates(ctx, latest, 0.5, "latest", out)
    _notification_candidates(ctx, out)
    _recommended_candidates(ctx, out)
    _follower_candidates(ctx, rng, out)
    return out


def merge_by_max(candidates: list[tuple[int, float, str]]) -> dict[int, dict[str, Any]]:
    merged: dict[int, dict[str, Any]] = {}
    for post_id, weight, source in candidates:
        entry = merged.setdefault(post_id, {"weight": weight, "sources": []})
        entry["weight"] = max(entry["weight"], weight)
        if source not in entry["sources"]:
            entry["sources"].append(source)
    return merged


def rank_by_interest(ctx: StageContext, ordered: list[dict[str, Any]], facts: dict[int, dict]) -> list[dict[str, Any]]:
    """`facts[post_id]` has the post's summary facts (`summarised`, `features`,
    `embedding_model`); the similarity of every kept post is computed in one numpy pass."""
    interest = ctx.interest
    core = None
    if interest is not None:
        stored = features_for_model(bytes(interest.features), interest.embedding_model)
        if stored is not None:
            try:
                core = decode_features(stored)
            except ValueError:
                core = None
    ranked = []
    if core is None:
        # First run (or an undecodable interest): read only posts already summarised.
        for item in ordered:
            if facts[item["postId"]]["summarised"]:
                item.update(sim=0.0, boosted=item["score"])
                ranked.append(item)
        return ranked
    blobs: dict[int, bytes] = {}
    current = model_name()  # features_for_model's rule, the model asked once
    for item in ordered:
        fact = facts[item["postId"]]
        if item["score"] > 0 and fact["features"] and fact["embedding_model"] == current:
            blobs[item["postId"]] = bytes(fact["features"])
    # Posts whose vector does not decode or has another length are skipped, as before.
    vectors = decode_by_length(blobs, len(core))
    sims: dict[int, float] = {}
    if vectors:
        keys = list(vectors)
        raw = cosines(np.array([vectors[k] for k in keys]), core).tolist()
        # Every kept vector is of the current model: one calibration for all.
        calibrated = [calibrated_similarity(cos, current) for cos in raw]
        sims = dict(zip(keys, zip(calibrated, similarity_scores(np.array(calibrated)).tolist())))
    for item in ordered:
        sim, score = sims.get(item["postId"], (None, None))
        if sim is None or sim != sim:  # missing, or NaN
            continue
        item.update(sim=sim, boosted=(item["score"] + BOOST_OFFSET) * score)
        ranked.append(item)
    ranked.sort(key=lambda entry: entry["boosted"], reverse=True)
    return ranked


def select_posts(ctx: StageContext) -> dict[str, Any]:
    me = ctx.user
    rng = random.Random(f"{ctx.run.pk}:select")
    merged = merge_by_max(gather_candidates(ctx, rng))
    # Viewable filter, read marker and summary facts of every candidate in one query.
    visible = sources.candidate_facts(me, merged.keys())
    ordered = []
    for post_id, entry in merged.items():
        if post_id not in visible or entry["weight"] <= 0:
            continue
        ordered.append({
            "postId": post_id,
            "ownerId": visible[post_id]["owner_id"],
            "sources": entry["sources"],
            "weight": round(entry["weight"], 6),
            "score": rng.random() * entry["weight"],
        })
    ordered.sort(key=lambda entry: entry["score"], reverse=True)
    already_read = {e["postId"] for e in ordered if visible[e["postId"]]["read"]}
    kept = [e for e in ordered if e["postId"] not in already_read][: settings.STGY_AI_USER_COMPARE_POST_LIMIT]
    ranked = rank_by_interest(ctx, kept, visible)

    reads, per_author = [], {}
    for entry in ranked:
        if len(reads) >= settings.STGY_AI_USER_READ_POST_LIMIT:
            break
        owner = entry["ownerId"]
        if per_author.get(owner, 0) >= PER_AUTHOR_CAP:
            continue
        per_author[owner] = per_author.get(owner, 0) + 1
        # The raw cosine, not a rounded one: stage 4 compares it with the like/reply thresholds.
        reads.append({"postId": id_to_hex(entry["postId"]), "ownerId": id_to_hex(owner), "sim": entry["sim"]})

    ctx.details["candidates"] = [
        {
            "postId": id_to_hex(e["postId"]),
            "sources": e["sources"],
            "weight": e["weight"],
            "score": round(e["score"], 6),
            "sim": round(e["sim"], 6) if "sim" in e else None,
            "boosted": round(e["boosted"], 6) if "boosted" in e else None,
            "alreadyRead": e["postId"] in already_read,
        }
        for e in ordered[:200]
    ]
    ctx.details["reads"] = reads
    return {"candidates": len(merged), "visible": len(ordered), "unread": len(kept), "read": len(reads)}
