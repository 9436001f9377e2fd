"""Stage 6: a new post (docs/agent-cycle.md §8, with the skip rule on root posts of
docs/differences.md item 9)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from agents.llm.parsing import parse_new_post
from agents.models import AiPostTag
from agents.prompt_text import post_prompt_text
from agents.rate_limits import HourlyWrites, root_share_refusal
from agents.runs import inputs, knowledge
from agents.runs.llm_calls import LlmJob, fluctuated_length, run_jobs
from agents.runs.near_duplicate import RecentWrites
from agents.tags import parse_tags_field
from sns import services
from sns.core.ids import id_to_datetime, id_to_hex
from sns.models import Post
from sns.reads.sql_statements import fetch

from .context import StageContext

SEED_POSTS = 5
CONTEXT_ITEMS = 2
CONTEXT_TEXT_LIMIT = 1000


@dataclass(frozen=True)
class _OwnPost:
    """The columns of an own post the stage reads (its owner is the AI user)."""

    id: int
    reply_to: int | None
    locale: str | None
    content: str
    summary: str | None
    ai_tags_json: str | None
    done_id: int | None


@lru_cache(maxsize=4)
def _own_sql(vendor: str) -> str:
    """The AI user's newest posts with their summaries' text and tags, and the post this
    run wrote if any (by its idempotency key). Parameters: the key, the AI user, the
    limit. The posts' table is not aliased: `inputs.tags_json` names it (per `vendor`)."""
    return (
        'SELECT "sns_post"."id", "sns_post"."reply_to", "sns_post"."locale", "sns_post"."content", s."summary", '
        f'({inputs.tags_json(AiPostTag).sql}), '
        '(SELECT d."id" FROM "sns_post" d WHERE d."idempotency_key" = %s LIMIT 1) '
        'FROM "sns_post" LEFT JOIN "agents_postsummary" s ON s."post_id" = "sns_post"."id" '
        'WHERE "sns_post"."owned_by" = %s ORDER BY "sns_post"."id" DESC LIMIT %s'
    )


def new_post(ctx: StageContext) -> dict[str, Any]:
    me = ctx.user
    if ctx.interest is None:
        return {"skipped": "no interest yet"}
    key = f"run:{ctx.run.pk}:post"
    # The post this run may already have written (a redelivered stage) rides on the
    # own posts' query: it is the AI user's own, so when it exists that list is not empty.
    own = [_OwnPost(*row) for row in fetch(_own_sql(connection.vendor), [key, me.id, settings.STGY_AI_USER_READ_OWN_POST_LIMIT])]
    if own and own[0].done_id is not None:
        done_hex = id_to_hex(own[0].done_id)
        ctx.details["newPost"] = {"postId": done_hex, "reused": True}
        return {"postId": done_hex}
    skip_days = settings.STGY_AI_USER_SKIP_NEW_POST_DAYS
    # The latest root post is usually among the newest own posts; ask only if it is not.
    latest_root = next((p for p in own if p.reply_to is None), None)
    if latest_root is None and len(own) >= settings.STGY_AI_USER_READ_OWN_POST_LIMIT:
        latest_root = Post.objects.filter(owner_id=me.id, reply_to__isnull=True).order_by("-id").first()
    if skip_days > 0 and latest_root is not None and id_to_datetime(latest_root.id) > timezone.now() - timedelta(days=skip_days):
        ctx.details["newPost"] = {"skipped": f"latest root post is younger than {skip_days} days"}
        return {"skipped": "recent root post"}

    writes = HourlyWrites.load(me.id)
    # The share of the site's root posts last: its count is the one query of its own.
    caps = (
        ("hourly_fleet", writes.fleet_refusal),
        ("hourly_root_posts", writes.root_posts_refusal),
        ("root_share", root_share_refusal),
    )
    for gate, refusal in caps:
        why = refusal()
        if why is not None:
            # A refusal, recorded like a rule's verdict: the cap binds, nothing broke.
            ctx.details["newPost"] = {"refused": gate, "why": why}
            return {"skipped": why}

    seeds = own[: min(SEED_POSTS, settings.STGY_AI_USER_READ_POST_LIMIT)]
    chains = inputs.ancestor_chains(me, seeds, depth=CONTEXT_ITEMS, with_summary=True)
    replies = inputs.latest_direct_replies(me, [p.id for p in seeds], per_post=CONTEXT_ITEMS, with_summary=True)
    summaries = inputs.summaries_of([a for c in chains.values() for a in c] + [r for rs in replies.values() for r in rs])

    def seed(post: _OwnPost) -> dict[str, Any]:
        content = post_prompt_text(post.content, settings.STGY_AI_USER_POST_TEXT_LIMIT)
        return {
            "locale": inputs.dash_locale(post.locale or me.locale),
            "createdAt": inputs.prompt_time(id_to_datetime(post.id)),
            "content": content,
            "tags": parse_tags_field(inputs.tag_names(post.ai_tags_json), settings.STGY_AI_TAG_MAX_COUNT),
            "summary": inputs.summary_of_cut(post.summary, post.content, content),
            "replyChain": inputs.context_posts(chains[post.id], me=me, summaries=summaries, content_limit=CONTEXT_TEXT_LIMIT),
            "existingReplies": inputs.context_posts(replies.get(post.id, []), me=me, summaries=summaries, content_limit=CONTEXT_TEXT_LIMIT),
        }

    payload = {"posts": [seed(post) for post in seeds]}
    locale = inputs.dash_locale(me.locale)
    rng = random.Random(f"{ctx.run.pk}:new-post")
    tag_num = min(settings.STGY_AI_USER_NEW_POST_TAGS, settings.STGY_AI_TAG_MAX_COUNT)
    job = LlmJob(
        key="new-post", task="new-post", locale=locale, payload=payload,
        max_chars=fluctuated_length(rng, settings.STGY_AI_USER_NEW_POST_LENGTH, locale, 100), tag_num=tag_num,
        parse=lambda text: parse_new_post(text, tag_num),
    )
    profile = inputs.profile_excerpt(me, ctx.interest)
    run_jobs([job], profile=profile, tier=ctx.tier("new-post"), user_id=me.id, run_id=ctx.run.pk, stage=ctx.stage)
    if job.result is None:
        raise RuntimeError(job.error)
    knowledge.revise_drafts([job], me, profile=profile, tier=ctx.tier(knowledge.TASK), run_id=ctx.run.pk, stage=ctx.stage)
    why = RecentWrites.load(me.id).refusal(job.result["content"], run_id=ctx.run.pk, stage=ctx.stage)
    if why is not None:
        # Whoever wrote it (a model or the stand-in), a post saying again what AI users
        # said lately is skipped rather than reworded: rewording would be a second call,
        # and the next cycle writes another post anyway (docs/agent-cycle.md §8).
        ctx.details["newPost"] = {"refused": "near_duplicate", "why": why, "maxChars": job.max_chars}
        return {"skipped": f"near-duplicate: {why}"}
    post = services.post_create(me, content=job.result["content"], tags=job.result["tags"], idempotency_key=key)
    ctx.details["newPost"] = {"postId": post.hex_id, "maxChars": job.max_chars, "seedPosts": len(seeds), **job.extra}
    return {"postId": post.hex_id}
