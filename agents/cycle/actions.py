"""Stage 4: likes and replies (docs/agent-cycle.md §6).

Code decides what is allowed (similarity rank, raw cosine thresholds, the post's own
permissions, never into a thread between two other people); the model's literal
`true` is necessary but never sufficient. Every write goes through sns.services as
the AI user, so blocks, frozen accounts and throttles apply as to a human.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db.models import BooleanField, IntegerField, TextField
from django.utils import timezone

from agents.llm.parsing import parse_reply
from agents.models import PostSummary
from agents.prompt_text import post_prompt_text
from agents.rate_limits import HourlyWrites, hour_before
from agents.runs import inputs, knowledge
from agents.runs.ai_thread import ai_exchange_refusal, chain_depth
from agents.runs.contact import backoff_refusals
from agents.runs.language import answer_locale
from agents.runs.llm_calls import LlmJob, fluctuated_length, run_jobs
from agents.runs.near_duplicate import RecentWrites
from sns import services
from sns.core.errors import Conflict, DomainError
from sns.core.ids import parse_id
from sns.internals.model_rows import RowParts
from sns.models import Post, PostTag, Repost, User
from sns.models.messages import AiStop
from sns.reads.sql_statements import columns, fetch, ids_in, prepared
from sns.selectors.boundaries import ai_contact_annotated
from sns.selectors.visibility import viewable_sql

from .context import StageContext
from .reposts import reposts_write

EXISTING_REPLIES_LIMIT = 5
EXISTING_REPLY_TEXT_LIMIT = 1000


@lru_cache(maxsize=8)
def _stage_posts_sql(visible: str, ids: str) -> str:
    """The read posts the AI user may still see, with their owner and summary and what
    planning and the reply prompts need: the parent's owner (the reply rule), the AI
    user's impressions of the post and of its author, the author's tags, its reposts of
    the last hour (the reposts' hourly cap) and the owner's boundaries toward it
    (`ai_contact_annotations` for "reply"). The posts' table is not aliased:
    `inputs.tags_json` names it."""
    return (
        f'SELECT {columns(Post, "sns_post")}, '
        '(SELECT q."owned_by" FROM "sns_post" q WHERE q."id" = "sns_post"."reply_to" LIMIT 1), '
        '(SELECT i."payload" FROM "agents_postimpression" i WHERE i."post_id" = "sns_post"."id" AND i."user_id" = %s LIMIT 1), '
        '(SELECT e."payload" FROM "agents_peerimpression" e '
        'WHERE e."peer_id" = "sns_post"."owned_by" AND e."user_id" = %s LIMIT 1), '
        f"({inputs.tags_json(PostTag).sql}), "
        '(SELECT COUNT(*) FROM "sns_repost" r WHERE r."user_id" = %s AND r."created_at" >= %s), '
        'COALESCE((SELECT a."allow_replies" FROM "sns_aiboundaries" a WHERE a."user_id" = "sns_post"."owned_by" LIMIT 1), TRUE), '
        'EXISTS (SELECT 1 FROM "sns_aistop" t WHERE t."person_id" = "sns_post"."owned_by" AND t."ai_user_id" = %s '
        'AND (t."until" IS NULL OR t."until" > %s)), '
        f'{columns(User, "u")}, {columns(PostSummary, "s")} '
        'FROM "sns_post" JOIN "sns_user" u ON u."id" = "sns_post"."owned_by" '
        'LEFT JOIN "agents_postsummary" s ON s."post_id" = "sns_post"."id" '
        f"WHERE {visible} AND {ids}"
    )


_STAGE_POSTS = RowParts([
    (Post, "sns_post"), IntegerField(), TextField(), TextField(), TextField(), IntegerField(), BooleanField(),
    BooleanField(), (User, "u"), (PostSummary, "s"),
])
_STAGE_FACTS = (
    "reply_to_owner_id", "my_impression", "my_peer_impression", "author_tags_json", "my_reposts_last_hour",
    "ai_reply_switch", "ai_reply_stopped",
)


def _stage_posts(me, now, since, ids: list[int]) -> list[Post]:
    visible, visible_params = viewable_sql(me, '"sns_post"."owned_by"', '"sns_post"."content"')
    where, id_params = ids_in('"sns_post"."id"', ids)
    params = [
        me.id, me.id, me.id, prepared(Repost, "created_at", since), me.id, prepared(AiStop, "until", now),
        *visible_params, *id_params,
    ]
    posts = []
    for post, *facts, owner, summary in _STAGE_POSTS.values_of(fetch(_stage_posts_sql(visible, where), params)):
        post.owner = owner
        # As select_related caches the summary row, or its absence.
        Post._meta.get_field("ai_summary").set_cached_value(post, summary)
        if summary is not None:
            summary.post = post
        for name, value in zip(_STAGE_FACTS, facts, strict=True):
            setattr(post, name, value)
        posts.append(post)
    return posts


def plan_actions(reads: list[dict], decisions: dict, posts: dict[int, Post], me_id: int) -> list[dict[str, Any]]:
    """Rank the read posts by raw similarity and decide, per post, like and reply."""
    ordered = sorted(reads, key=lambda r: r["sim"], reverse=True)
    plan = []
    for index, read in enumerate(ordered):
        rank = index + 1
        post = posts.get(parse_id(read["postId"]))
        if post is None or post.owner_id == me_id:
            continue  # own posts still consume a rank
        decision = decisions.get(read["postId"]) or {}
        sim = read["sim"]
        like = (
            decision.get("shouldLike") is True
            and rank <= settings.STGY_AI_USER_LIKE_MAX_INTEREST_RANK
            and sim >= settings.STGY_AI_USER_LIKE_MIN_SIMILARITY
            and post.allow_likes
        )
        # replyToOwnerId is null (a root post, or a reply whose parent was deleted) or me;
        # a post without the annotation is never taken for a root post.
        in_my_thread = post.reply_to is None or (
            hasattr(post, "reply_to_owner_id") and post.reply_to_owner_id in (None, me_id)
        )
        reply = (
            decision.get("shouldReply") is True
            and rank <= settings.STGY_AI_USER_REPLY_MAX_INTEREST_RANK
            and sim >= settings.STGY_AI_USER_REPLY_MIN_SIMILARITY
            and post.allow_replies
            and in_my_thread
        )
        plan.append({"post": post, "rank": rank, "sim": sim, "like": like, "reply": reply, "decision": decision})
    return plan


def likes_and_replies(ctx: StageContext) -> dict[str, Any]:
    if not ctx.had_interest_at_start:
        ctx.details["likes"], ctx.details["replies"], ctx.details["reposts"] = [], [], []
        return {"skipped": "no interest at cycle start (first run)"}
    me = ctx.user
    reads = ctx.details.get("reads") or []
    # What planning and reply prompts need, in one query: the posts still viewable, with
    # owner, parent owner (the reply rule), summary and this user's impression of each.
    now = timezone.now()
    ids = [parse_id(r["postId"]) for r in reads]
    found = _stage_posts(me, now, hour_before(now), ids) if ids else []
    posts = {p.id: p for p in found}
    plan = plan_actions(reads, ctx.details.get("postDecisions") or {}, posts, me.id)
    # The likes' and reposts' notifications recorded together, after both (two statements).
    with services.notifications_gathered():
        ctx.details["likes"] = likes = _likes_write(me, plan)
        # Reposts after the likes, by the like gate's judgement under stricter numbers.
        ctx.details["reposts"] = reposts = reposts_write(me, plan)

    to_reply, replies = _contact_allowed(me, [item for item in plan if item["reply"]])
    # The reply chains the prompts show, read once here: the AI-to-AI rule reads them too.
    chains = inputs.ancestor_chains(
        me, [item["post"] for item in to_reply], depth=max(inputs.REPLY_CHAIN_LIMIT, chain_depth()), with_summary=True
    ) if to_reply else {}
    to_reply, looping = _no_ai_loop(to_reply, chains)
    to_reply, capped = _within_hourly_caps(me, to_reply)
    replies += looping + capped
    if to_reply:
        replies += _write_replies(ctx, to_reply, chains)
    ctx.details["replies"] = replies
    return {
        "likes": sum(1 for r in likes if r["result"] == "liked"),
        "reposts": sum(1 for r in reposts if r["result"] == "reposted"),
        "replies": sum(1 for r in replies if r.get("replyId")),
    }


def _likes_write(me, plan: list[dict]) -> list[dict]:
    likes = []
    to_like = [item for item in plan if item["like"]]
    # All likes through one call of the rulebook: the same checks per post, batched.
    outcomes = services.likes_add(me, [item["post"].id for item in to_like]) if to_like else {}
    for item in to_like:
        post = item["post"]
        record = {"postId": post.hex_id, "rank": item["rank"], "sim": item["sim"], "judgement": "shouldLike"}
        outcome = outcomes[post.id]
        if isinstance(outcome, Conflict):
            record["result"] = "already liked"
        elif isinstance(outcome, DomainError):
            record["result"] = f"refused: {outcome.message}"
        else:
            record["result"] = "liked"
        likes.append(record)
    return likes


def _contact_allowed(me, items: list[dict]) -> tuple[list[dict], list[dict]]:
    """The replies the person's boundaries and the back-off rule allow, and a refusal
    record for each of the others, decided before any model call
    (docs/respond-path.md, "Boundaries and back-off"): what `contact_refusal` decides
    per post, with the back-off rule read for every author at once."""
    boundaries = {id(item): ai_contact_annotated(item["post"], me, item["post"].owner, "reply") for item in items}
    backoff = backoff_refusals(me.id, [item["post"].owner_id for item in items if boundaries[id(item)][0]])
    allowed, refused = [], []
    for item in items:
        ok, reason = boundaries[id(item)]
        if not ok:
            refused.append(_refusal_record(item, "boundaries", reason))
        elif backoff[item["post"].owner_id]:
            refused.append(_refusal_record(item, "backoff", backoff[item["post"].owner_id]))
        else:
            allowed.append(item)
    return allowed, refused


def _refusal_record(item: dict, gate: str, why: str) -> dict:
    return {
        "postId": item["post"].hex_id, "rank": item["rank"], "sim": item["sim"], "judgement": "shouldReply",
        "error": f"refused: {gate}: {why}",
    }


def _no_ai_loop(items: list[dict], chains: dict[int, list[Post]]) -> tuple[list[dict], list[dict]]:
    """The replies that do not prolong an exchange between AI users with no person in
    it (agents/runs/ai_thread.py, the rule the respond path applies too)."""
    allowed, refused = [], []
    for item in items:
        post = item["post"]
        line = [post.owner.is_ai, *(p.owner.is_ai for p in reversed(chains.get(post.id, [])))]
        why = ai_exchange_refusal(line)
        if why is None:
            allowed.append(item)
        else:
            refused.append(_refusal_record(item, "ai_exchange", why))
    return allowed, refused


def _within_hourly_caps(me, items: list[dict]) -> tuple[list[dict], list[dict]]:
    """The replies the hourly caps leave room for (the AI user's and the fleet's,
    shared with the respond path: agents/rate_limits.py), best-ranked first."""
    if not items:
        return [], []
    writes = HourlyWrites.load(me.id)
    allowed, refused = [], []
    for item in items:
        for gate, why in (("hourly_fleet", writes.fleet_refusal()), ("hourly_replies", writes.replies_refusal())):
            if why is not None:
                refused.append(_refusal_record(item, gate, why))
                break
        else:
            allowed.append(item)
            writes.count("reply")
    return allowed, refused


def _write_replies(ctx: StageContext, items: list[dict], read_chains: dict[int, list[Post]]) -> list[dict]:
    me = ctx.user
    targets = [item["post"] for item in items]
    chains = {p.id: read_chains.get(p.id, [])[-inputs.REPLY_CHAIN_LIMIT :] for p in targets}
    existing = inputs.latest_direct_replies(
        me, [p.id for p in targets], per_post=EXISTING_REPLIES_LIMIT, with_summary=True
    )
    summaries = inputs.summaries_of(
        [a for c in chains.values() for a in c] + [r for rs in existing.values() for r in rs] + targets
    )
    own = {p.id: inputs.parse_payload(p.my_impression) for p in targets if p.my_impression is not None}
    peers = {p.owner_id: (inputs.parse_payload(p.my_peer_impression), None) for p in targets if p.my_peer_impression is not None}
    author_tags = {p.id: inputs.tag_names(p.author_tags_json) for p in targets}
    rng = random.Random(f"{ctx.run.pk}:replies")
    tag_num = min(max(2, settings.STGY_AI_USER_NEW_POST_TAGS), settings.STGY_AI_TAG_MAX_COUNT)
    jobs = []
    for item in items:
        post = item["post"]
        # The language the post is written in (its locale, or its author's, when the
        # text says nothing): the reply is written in it (agents/runs/language.py).
        locale = answer_locale(post.content, inputs.post_locale(post, me.locale))
        impression = own.get(post.id, {})
        content = post_prompt_text(post.content, settings.STGY_AI_USER_POST_TEXT_LIMIT)
        payload = {
            "replyChain": inputs.context_posts(chains[post.id], me=me, summaries=summaries),
            "post": {
                "locale": locale,
                "author": post.owner.nickname,
                "createdAt": inputs.prompt_time(post.created_at),
                "content": content,
                "tags": author_tags.get(post.id, [])[: settings.STGY_AI_TAG_MAX_COUNT],
                "summary": inputs.summary_unless_whole(summaries, post, content),
                "impression": inputs.impression_text(impression),
                "impressionTags": inputs.impression_tags(impression),
                "peerImpression": inputs.impression_text(peers.get(post.owner_id, ({}, None))[0]),
                "isSelf": post.owner_id == me.id,
            },
            "existingReplies": inputs.context_posts(existing.get(post.id, []), me=me, summaries=summaries, content_limit=EXISTING_REPLY_TEXT_LIMIT),
        }
        max_chars = fluctuated_length(rng, settings.STGY_AI_USER_REPLY_LENGTH, locale, 50)
        jobs.append(LlmJob(
            key=item, task="reply-post", locale=locale, payload=payload, max_chars=max_chars, tag_num=tag_num,
            parse=lambda text, loc=locale: parse_reply(text, loc, tag_num, settings.STGY_AI_TAG_MAX_COUNT),
        ))
    profile = inputs.profile_excerpt(me, ctx.interest)
    run_jobs(jobs, profile=profile, tier=ctx.tier("reply-post"), user_id=me.id, run_id=ctx.run.pk, stage=ctx.stage)
    knowledge.revise_drafts(jobs, me, profile=profile, tier=ctx.tier(knowledge.TASK), run_id=ctx.run.pk, stage=ctx.stage)

    recent = RecentWrites(me.id)  # read at the first reply to check
    with services.notifications_gathered():  # the replies' notifications in two statements
        return [_reply_write(ctx, job, recent) for job in jobs]


def _reply_write(ctx: StageContext, job: LlmJob, recent: RecentWrites) -> dict:
    post = job.key["post"]
    record = {"postId": post.hex_id, "rank": job.key["rank"], "sim": job.key["sim"], "judgement": "shouldReply", "maxChars": job.max_chars, **job.extra}
    if job.result is None:
        record["error"] = job.error
        return record
    why = recent.refusal(job.result["content"], run_id=ctx.run.pk, stage=ctx.stage)
    if why is not None:
        record["error"] = f"refused: near_duplicate: {why}"
        return record
    try:
        # reply_once: not a second reply where the respond path (or an earlier run)
        # answered; the same run's redelivery gets its own reply back.
        reply = services.post_create(
            ctx.user, content=job.result["content"], tags=job.result["tags"], reply_to=post.id,
            idempotency_key=f"run:{ctx.run.pk}:reply:{post.hex_id}", reply_once=True,
        )
        record["replyId"] = reply.hex_id
        recent.add(f"p{reply.id}", reply.content)
    except Conflict:
        record["skipped"] = "already replied to this post"
    except DomainError as exc:
        record["error"] = f"refused: {exc.message}"
    return record
