"""Stage 5: the interest update (docs/agent-cycle.md §7).

The model verbalises the new interest from recent peer and post impressions; code
embeds it (never the fixed personality) and blends it with the previous direction:
stored = encode(L2(L2(new) + h·L2(old))).
"""

from __future__ import annotations

from datetime import timedelta
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from agents import memory
from agents.embeddings import embed_features, features_for_model, model_name
from agents.embeddings.inputs import interest_embedding_input
from agents.llm.parsing import parse_interest
from agents.memory_guards import interest_jump_refusal, refusal_note, text_refusal
from agents.memory_versions import cycle_source
from agents.models import Interest
from agents.prompt_text import post_prompt_text
from agents.runs import inputs
from agents.runs.llm_calls import LlmJob, run_jobs, scaled
from agents.tags import normalize_interest_tags
from agents.textmeasure import truncate_pt
from agents.vectors import blend_interest
from sns.reads.sql_statements import fetch
from sns.selectors.visibility import viewable_sql

from .context import StageContext
from .impressions import OWN_TAGS_BESIDE_TEXT


def interest_snapshot(interest: Interest | None) -> dict[str, Any] | None:
    if interest is None:
        return None
    return {"interest": interest.interest, "tags": list(interest.tags), "updatedAt": inputs.iso(interest.updated_at)}


# The peers with the impressions of them, newest first. Parameters: the AI user, the limit.
_PEERS = (
    'SELECT e."payload", u."locale", u."nickname", u."introduction" FROM "agents_peerimpression" e '
    'JOIN "sns_user" u ON u."id" = e."peer_id" WHERE e."user_id" = %s '
    'ORDER BY e."updated_at" DESC, e."peer_id" DESC LIMIT %s'
)


@lru_cache(maxsize=4)
def _posts_sql(visible: str) -> str:
    """The newest post impressions with their posts' owners and summaries, each flagged
    by the site's visibility rule (the newest `limit` read, the hidden ones dropped
    after). Read markers without text (a forgotten person's posts, or those of one who
    asked not to be remembered) are no memory: neither the post nor its author's
    nickname goes into the prompt from them."""
    return (
        f'SELECT i."payload", {visible}, p."locale", u."locale", u."nickname", p."content", s."summary" '
        'FROM "agents_postimpression" i JOIN "sns_post" p ON p."id" = i."post_id" '
        'JOIN "sns_user" u ON u."id" = p."owned_by" LEFT JOIN "agents_postsummary" s ON s."post_id" = p."id" '
        'WHERE i."user_id" = %s AND NOT (i."payload" = %s) ORDER BY i."updated_at" DESC, i."post_id" DESC LIMIT %s'
    )


def _post_rows(me, limit: int) -> list[tuple]:
    visible, visible_params = viewable_sql(me, 'p."owned_by"', 'p."content"')
    return fetch(_posts_sql(visible), [*visible_params, me.id, memory.MARKER, limit])


def _interest_input(ctx: StageContext) -> dict[str, Any]:
    me = ctx.user
    limit = settings.STGY_AI_USER_READ_OWN_POST_LIMIT
    peer_text_limit = settings.STGY_AI_USER_IMPRESSION_PEER_TEXT_LIMIT
    # Plain rows of two statements: the stage reads a few columns of each (one query for
    # the peers, one for the posts with their summaries).
    users = []
    for payload_text, locale, nickname, introduction in fetch(_PEERS, [me.id, limit]):
        payload = inputs.parse_payload(payload_text)
        # Users and posts are linked by nickname: the 16-hex-digit ids the original
        # also sends cost ≈ 14 tokens each (280 per call) and tell the model no more.
        impression = inputs.impression_text(payload)
        users.append({
            "locale": locale,
            "nickname": nickname,
            # Its impression of a user is its digest of their introduction and posts
            # (judged from both, most in this very cycle): the introduction beside it
            # would be read twice.
            "introduction": "" if impression else truncate_pt(introduction or "", peer_text_limit),
            "impression": impression,
            "tags": inputs.impression_tags(payload)[:OWN_TAGS_BESIDE_TEXT],
        })
    posts = []
    for payload_text, viewable, locale, owner_locale, nickname, content, summary in _post_rows(me, limit):
        if not viewable:
            continue
        payload = inputs.parse_payload(payload_text)
        # The gist is enough here: the post itself was read (and judged, in the
        # impression beside it) when it was read; its summary, where there is one,
        # stands for it at a fraction of the tokens.
        summary = inputs.summary_text_of(summary)
        posts.append({
            "locale": inputs.locale_of_post(locale, owner_locale, me.locale),
            "authorNickname": nickname,
            "summary": truncate_pt(summary, peer_text_limit),
            "content": "" if summary else post_prompt_text(content, peer_text_limit),
            "impression": inputs.impression_text(payload),
            "tags": inputs.impression_tags(payload)[:OWN_TAGS_BESIDE_TEXT],
        })
    return {"users": users, "posts": posts}


def interest_update(ctx: StageContext) -> dict[str, Any]:
    me = ctx.user
    if "interestAfter" in ctx.details:
        return {"reused": True}  # a redelivery after the interest was already saved
    previous = ctx.interest
    if previous is not None and previous.hold_interest:
        # Held by an admin: the cycle reads with it and does not rewrite it.
        refusal_note(ctx.details, stage=ctx.stage, memory="interest", reason="held")
        return {"skipped": "interest is held", "refused": "held"}
    skip_days = settings.STGY_AI_USER_SKIP_INTEREST_UPDATE_DAYS
    if previous is not None and skip_days > 0 and previous.updated_at > timezone.now() - timedelta(days=skip_days):
        return {"skipped": "interest is recent"}
    payload = _interest_input(ctx)
    if previous is None and (not payload["users"] or not payload["posts"]):
        return {"skipped": "nothing read yet to form a first interest"}
    locale = inputs.dash_locale(me.locale)
    job = LlmJob(
        key="interest", task="interest", locale=locale, payload=payload,
        max_chars=scaled(locale, settings.STGY_AI_USER_INTEREST_LENGTH), tag_num=settings.STGY_AI_TAG_MAX_COUNT,
        parse=lambda text: parse_interest(text, settings.STGY_AI_TAG_MAX_COUNT),
    )
    run_jobs([job], profile=inputs.profile_excerpt(me, previous), tier=ctx.tier("interest"), user_id=me.id, run_id=ctx.run.pk, stage=ctx.stage)
    if job.result is None:
        raise RuntimeError(job.error)
    text = job.result["interest"]
    tags = normalize_interest_tags(job.result["tags"], settings.STGY_AI_TAG_MAX_COUNT)
    refused = text_refusal(previous.interest if previous else "", text)
    if refused:
        return _refused(ctx, refused)
    generated, model = embed_features(interest_embedding_input(text, job.result["tags"], me.introduction or ""))
    old = features_for_model(bytes(previous.features), previous.embedding_model) if previous else None
    similarity, refused = interest_jump_refusal(generated, old, model)
    if refused:
        return _refused(ctx, refused)
    features = blend_interest(generated, old, settings.STGY_AI_USER_INTEREST_HYSTERESIS_COEFFICIENT)
    with transaction.atomic():
        memory.interest_save(
            me, interest=text, tags=sorted(tags), features=features, embedding_model=model,
            source=cycle_source(ctx.run.pk, ctx.stage),
        )
        ctx.details["interestAfter"] = {"interest": text, "tags": sorted(tags), "embeddingModel": model}
        result = {"users": len(payload["users"]), "posts": len(payload["posts"]), "model": model_name()}
        if similarity is not None:
            result["similarity"] = round(similarity, 3)
        # The record (with the details) saved with the interest, so a redelivered stage
        # cannot blend the vector twice.
        ctx.record_now(result)
    ctx.refresh_interest()
    return result


def _refused(ctx: StageContext, reason: str) -> dict[str, Any]:
    """The rewrite refused by a guard: the old interest stays; the reason is on the
    record (the stage itself went well: the model answered, the code said no)."""
    refusal_note(ctx.details, stage=ctx.stage, memory="interest", reason=reason)
    return {"refused": reason}
