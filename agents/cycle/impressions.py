"""Stages 2 and 3: an impression of every post read and of every author met
(docs/agent-cycle.md §4, §5). The post impression doubles as the read marker."""

from __future__ import annotations

import json
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from agents import memory
from agents.llm.parsing import parse_peer_impression, parse_post_impression
from agents.models import PeerImpression, PostImpression
from agents.textmeasure import truncate_pt
from agents.prompt_text import post_prompt_text
from sns.ids import id_to_hex, parse_id
from sns.models import Post, User
from sns.selectors import viewable_posts

from . import inputs
from .context import StageContext
from .llm_calls import LlmJob, run_jobs, scaled



def _profile(ctx: StageContext) -> dict[str, Any]:
    return inputs.profile_excerpt(ctx.user, ctx.interest)


def post_impressions(ctx: StageContext) -> dict[str, Any]:
    me = ctx.user
    reads = ctx.details.get("reads") or []
    ids = [parse_id(r["postId"]) for r in reads]
    # The posts still viewable, with their owners, summaries and any impression already
    # written (a redelivered stage finds its earlier impressions and reuses their
    # decisions), in one query.
    mine = PostImpression.objects.filter(user_id=me.id, post_id=OuterRef("pk")).values("payload")[:1]
    posts = {
        p.id: p
        for p in viewable_posts(me).filter(id__in=ids).select_related("owner", "ai_summary").annotate(my_impression=Subquery(mine))
    }
    to_read = [posts[i] for i in ids if i in posts and posts[i].owner_id != me.id]
    decisions: dict[str, Any] = ctx.details.setdefault("postDecisions", {})
    existing = {p.id: inputs.parse_payload(p.my_impression) for p in to_read if p.my_impression is not None}
    for post_id, payload in existing.items():
        decisions.setdefault(id_to_hex(post_id), _decision(payload))
    pending = [p for p in to_read if p.id not in existing]
    if not pending:
        return {"read": 0, "reused": len(existing)}

    chains = inputs.ancestor_chains(me, pending, depth=inputs.REPLY_CHAIN_LIMIT, with_summary=True)
    summaries = inputs.summaries_of([a for chain in chains.values() for a in chain] + pending)
    peers = inputs.peer_payloads(me.id, {p.owner_id for p in pending})
    base = settings.STGY_AI_USER_IMPRESSION_LENGTH
    limit = settings.STGY_AI_USER_POST_TEXT_LIMIT
    jobs = []
    for post in pending:
        locale = inputs.post_locale(post, me.locale)
        peer_payload = peers.get(post.owner_id, ({}, None))[0]
        content = post_prompt_text(post.content, limit)
        payload = {
            "replyChain": inputs.context_posts(chains[post.id], me=me, summaries=summaries),
            "post": {
                "locale": locale,
                "author": post.owner.nickname,
                "createdAt": inputs.prompt_time(post.created_at),
                "content": content,
                "summary": inputs.summary_unless_whole(summaries, post, content),
                "peerImpression": inputs.impression_text(peer_payload),
                "peerTags": inputs.impression_tags(peer_payload),
                "isSelf": False,
            },
        }
        jobs.append(LlmJob(
            key=post, task="post-impression", locale=locale, payload=payload,
            max_chars=scaled(locale, base), tag_num=settings.STGY_AI_TAG_MAX_COUNT,
            parse=lambda text: parse_post_impression(text, settings.STGY_AI_TAG_MAX_COUNT),
        ))
    run_jobs(jobs, profile=_profile(ctx), tier=me.ai_model, user_id=me.id, run_id=ctx.run.pk, stage=ctx.stage)

    failed, rows = 0, []
    for job in jobs:
        post = job.key
        if job.result is None:
            failed += 1
            decisions[post.hex_id] = {"shouldLike": False, "shouldReply": False, "error": job.error}
            continue
        payload = {k: job.result[k] for k in ("impression", "tags", "shouldLike", "shouldReply")}
        rows.append((post, json.dumps(payload, ensure_ascii=False)))
        decisions[post.hex_id] = _decision(payload)
    # One upsert for the whole stage, through the same memory service as the API.
    memory.post_impressions_save(me, rows)
    if failed and failed == len(jobs):
        raise RuntimeError(f"every post impression failed ({failed}); first error: {jobs[0].error}")
    return {"read": len(jobs) - failed, "failed": failed, "reused": len(existing)}


def _decision(payload: dict[str, Any]) -> dict[str, Any]:
    return {"shouldLike": payload.get("shouldLike") is True, "shouldReply": payload.get("shouldReply") is True}


def peer_impressions(ctx: StageContext) -> dict[str, Any]:
    me = ctx.user
    peer_ids: list[int] = []
    for read in ctx.details.get("reads") or []:
        owner = parse_id(read["ownerId"])
        if owner != me.id and owner not in peer_ids:
            peer_ids.append(owner)
    decisions: dict[str, Any] = ctx.details.setdefault("peerDecisions", {})
    # The peers with their previous impression (payload and time) in one query.
    prev = PeerImpression.objects.filter(user_id=me.id, peer_id=OuterRef("pk"))
    peers = {
        u.id: u
        for u in User.objects.filter(id__in=peer_ids).annotate(
            prev_payload=Subquery(prev.values("payload")[:1]), prev_updated_at=Subquery(prev.values("updated_at")[:1])
        )
    }
    previous = {
        u.id: (inputs.parse_payload(u.prev_payload), SimpleNamespace(updated_at=u.prev_updated_at))
        for u in peers.values()
        if u.prev_updated_at is not None
    }
    skip_days = settings.STGY_AI_USER_SKIP_PEER_IMPRESSION_UPDATE_DAYS
    fresh_after = timezone.now() - timedelta(days=skip_days) if skip_days > 0 else None
    run_started = ctx.run.started_at
    todo = []
    for peer_id in peer_ids:
        peer = peers.get(peer_id)
        if peer is None:
            continue
        payload, row = previous.get(peer_id, ({}, None))
        if row is not None and row.updated_at >= run_started:
            decisions.setdefault(peer.hex_id, {"shouldFollow": payload.get("shouldFollow") is True})
            continue  # written by this run before a redelivery
        if row is not None and fresh_after is not None and row.updated_at > fresh_after:
            decisions[peer.hex_id] = {"shouldFollow": False, "skipped": "recent impression"}
            continue
        todo.append(peer)
    if not todo:
        return {"judged": 0}

    recent = _recent_posts(me, [p.id for p in todo])
    all_posts = [p for posts in recent.values() for p in posts]
    summaries = inputs.summaries_of(all_posts)
    own_impressions = {p.id: inputs.parse_payload(p.my_impression) for p in all_posts if p.my_impression is not None}
    base = settings.STGY_AI_USER_IMPRESSION_LENGTH
    limit = settings.STGY_AI_USER_OUTPUT_TEXT_LIMIT
    jobs = []
    for peer in todo:
        locale = inputs.dash_locale(peer.locale)
        last = previous.get(peer.id, ({}, None))[0]
        payload = {  # no userId: the nickname names the peer (the id costs ≈ 14 tokens)
            "locale": peer.locale,
            "nickname": peer.nickname,
            "introduction": truncate_pt(peer.introduction or "", settings.STGY_AI_USER_INTRO_TEXT_LIMIT),
            "lastImpression": inputs.impression_text(last),
            "posts": [
                {
                    "locale": post.locale or peer.locale,
                    "summary": inputs.summary_text(summaries, post.id),
                    "impression": truncate_pt(own_impressions.get(post.id, {}).get("impression", ""), limit),
                    "tags": inputs.impression_tags(own_impressions.get(post.id, {})),
                }
                for post in recent.get(peer.id, [])
            ],
        }
        jobs.append(LlmJob(
            key=peer, task="peer-impression", locale=locale, payload=payload,
            max_chars=scaled(locale, base), tag_num=settings.STGY_AI_TAG_MAX_COUNT,
            parse=lambda text: parse_peer_impression(text, settings.STGY_AI_TAG_MAX_COUNT),
        ))
    run_jobs(jobs, profile=_profile(ctx), tier=me.ai_model, user_id=me.id, run_id=ctx.run.pk, stage=ctx.stage)

    failed, rows = 0, []
    for job in jobs:
        peer = job.key
        if job.result is None:
            failed += 1
            decisions[peer.hex_id] = {"shouldFollow": False, "error": job.error}
            continue
        payload = {k: job.result[k] for k in ("impression", "tags", "shouldFollow")}
        rows.append((peer.id, json.dumps(payload, ensure_ascii=False)))
        decisions[peer.hex_id] = {"shouldFollow": payload["shouldFollow"] is True}
    memory.peer_impressions_save(me, rows)
    if failed and failed == len(jobs):
        raise RuntimeError(f"every peer impression failed ({failed}); first error: {jobs[0].error}")
    return {"judged": len(jobs) - failed, "failed": failed}


def _recent_posts(viewer: User, owner_ids: list[int]) -> dict[int, list[Post]]:
    """Each peer's newest posts (replies included), viewable ones only, newest first,
    with summaries and the viewer's own impression of each: one query."""
    per_user = settings.STGY_AI_USER_READ_PEER_POST_LIMIT
    mine = PostImpression.objects.filter(user_id=viewer.id, post_id=OuterRef("pk")).values("payload")[:1]
    posts = inputs.viewable_newest(viewer, "owner_id", owner_ids, per_user, with_summary=True).annotate(
        my_impression=Subquery(mine)
    )
    result: dict[int, list[Post]] = {}
    for post in sorted(posts, key=lambda p: p.id, reverse=True):
        result.setdefault(post.owner_id, []).append(post)
    return result
