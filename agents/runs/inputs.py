"""Prompt inputs shared by the cycle's stages and the respond path: the profile
excerpt, reply context, summaries, impressions and conversation turns, each gathered
for a whole batch of posts in a few queries."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import TextField
from django.db.models.expressions import RawSQL

from agents.models import Interest, PostImpression, PostSummary
from agents.prompt_text import post_prompt_text
from agents.tags import parse_tags_field
from agents.textmeasure import truncate_pt
from sns.api.presenters import iso
from sns.media.embeds import images_as_alt_text
from sns.models import Post, User
from sns.selectors import newest_posts_q, viewable_posts

from .viewable import viewable_by_id

TAGS_REFED = 5  # impression tags fed back into prompts (fixed in the original)
REPLY_CHAIN_LIMIT = 5  # ancestors shown with a post to judge or answer (fixed)
REPLY_CHAIN_TEXT_LIMIT = 3000  # pseudo tokens of each ancestor (fixed)


def dash_locale(locale: str | None) -> str:
    return (locale or "").strip().replace("_", "-")


def post_locale(post: Post, fallback: str) -> str:
    return locale_of_post(post.locale, post.owner.locale, fallback)


def locale_of_post(locale: str | None, owner_locale: str | None, fallback: str) -> str:
    """A post's language for a prompt: its own, else its owner's, else `fallback` (for
    posts read as plain columns as for instances)."""
    return dash_locale(locale or owner_locale or fallback)


def prompt_time(moment) -> str | None:
    """A post's time for a prompt: ISO-8601 UTC to the minute ("2026-05-01T10:00Z").
    The API's seconds and milliseconds tell the model nothing and cost ≈ 4 tokens on
    every post shown."""
    stamp = iso(moment)
    return stamp[:16] + "Z" if stamp else stamp


def profile_excerpt(user: User, interest: Interest | None) -> dict[str, Any]:
    """The AI user's own profile for the common prefix of its prompts. Unlike the
    original, without its own id (no input refers to it: its own words are marked with
    isSelf) and without the interest's tags (keywords of the interest text right before
    them): together ≈ 27 tokens in each of ≈ 23 calls per cycle."""
    limit = settings.STGY_AI_USER_INTRO_TEXT_LIMIT
    return {
        "locale": user.locale,
        "nickname": user.nickname,
        "introduction": truncate_pt(user.introduction or "", limit),
        "aiPersonality": truncate_pt(user.ai_personality or "", limit),
        "currentInterest": truncate_pt(interest.interest, limit) if interest else "",
    }


def parse_payload(text: str | None) -> dict[str, Any]:
    """An impression payload as the cycle wrote it; anything unreadable counts as none."""
    if not text:
        return {}
    try:
        data = json.loads(text)
    except (TypeError, ValueError):
        return {}
    if not isinstance(data, dict) or not isinstance(data.get("impression"), str):
        return {}
    return data


def impression_text(payload: dict[str, Any]) -> str:
    return truncate_pt(payload.get("impression", ""), settings.STGY_AI_USER_OUTPUT_TEXT_LIMIT)


def impression_tags(payload: dict[str, Any]) -> list[str]:
    return parse_tags_field(payload.get("tags"), settings.STGY_AI_TAG_MAX_COUNT)[:TAGS_REFED]


def tags_json(model) -> RawSQL:
    """The names of each post's `model` rows (PostTag: its author's tags; AiPostTag: the
    summariser's), sorted by name, as a JSON array: a correlated subquery on the outer
    query's posts table, so the tags ride on the posts' read instead of a query of
    their own. `tag_names` reads it."""
    qn = connection.ops.quote_name
    table, name = qn(model._meta.db_table), qn("name")
    where = f"t.{qn(model._meta.get_field('post').column)} = {qn(Post._meta.db_table)}.{qn('id')}"
    if connection.vendor == "postgresql":
        sql = f"SELECT COALESCE(json_agg(t.{name} ORDER BY t.{name})::text, '[]') FROM {table} t WHERE {where}"
    else:
        sql = f"SELECT json_group_array(n) FROM (SELECT t.{name} AS n FROM {table} t WHERE {where} ORDER BY t.{name})"
    return RawSQL(sql, (), output_field=TextField())


def tag_names(joined: str | None) -> list[str]:
    return json.loads(joined) if joined else []


def summaries_for(post_ids: Iterable[int]) -> dict[int, PostSummary]:
    return {s.post_id: s for s in PostSummary.objects.filter(post_id__in=list(post_ids))}


def summaries_of(posts: Iterable[Post]) -> dict[int, PostSummary]:
    """The summary rows of posts loaded with `select_related("ai_summary")`, in the
    shape of `summaries_for` (posts without a row are absent)."""
    out: dict[int, PostSummary] = {}
    for post in posts:
        try:
            row = post.ai_summary
        except PostSummary.DoesNotExist:
            continue
        if row is not None:
            out[post.id] = row
    return out


def summary_text(summaries: dict[int, PostSummary], post_id: int) -> str:
    row = summaries.get(post_id)
    return summary_text_of(row.summary if row else None)


def summary_text_of(summary: str | None) -> str:
    """A summary as prompts show it ("" for none)."""
    return truncate_pt(summary, settings.STGY_AI_USER_POST_TEXT_LIMIT) if summary else ""


def summary_unless_whole(summaries: dict[int, PostSummary], post: Post, shown: str) -> str:
    """The summary only when the prompt shows `post` cut (`shown` is its content as put
    in the prompt): next to the whole text a summary repeats it and only costs tokens
    (short posts' summaries are often the text itself)."""
    row = summaries.get(post.id)
    return summary_of_cut(row.summary if row else None, post.content, shown)


def summary_of_cut(summary: str | None, content: str, shown: str) -> str:
    """`summary_unless_whole` for a post read as plain columns."""
    return "" if shown == images_as_alt_text(content) else summary_text_of(summary)


def post_impression_payloads(user_id: int, post_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    rows = PostImpression.objects.filter(user_id=user_id, post_id__in=list(post_ids))
    return {row.post_id: parse_payload(row.payload) for row in rows}


def ancestor_chains(viewer: User, posts: list[Post], *, depth: int, with_summary: bool = False) -> dict[int, list[Post]]:
    """Reply chains of many posts at once, one query per level, oldest first. Parents
    hidden from the viewer (sns/selectors/visibility.py) end the chain
    (docs/differences.md item 10)."""
    chains: dict[int, list[Post]] = {p.id: [] for p in posts}
    frontier = {p.id: p.reply_to for p in posts if p.reply_to is not None}
    seen = {p.id: {p.id} for p in posts}
    for _ in range(depth):
        if not frontier:
            break
        parents = viewable_by_id(viewer, frontier.values(), with_summary=with_summary)
        next_frontier = {}
        for post_id, parent_id in frontier.items():
            parent = parents.get(parent_id)
            if parent is None or parent_id in seen[post_id]:
                continue
            seen[post_id].add(parent_id)
            chains[post_id].append(parent)
            if parent.reply_to is not None:
                next_frontier[post_id] = parent.reply_to
        frontier = next_frontier
    return {post_id: list(reversed(chain)) for post_id, chain in chains.items()}


def context_post(post: Post, *, me: User, content_limit: int, summaries: dict[int, PostSummary]) -> dict[str, Any]:
    """The ReplyContextPost shape: {locale, author, isSelf, createdAt, content, summary}."""
    content = post_prompt_text(post.content, content_limit)
    return {
        "locale": post_locale(post, me.locale),
        "author": post.owner.nickname,
        "isSelf": post.owner_id == me.id,
        "createdAt": prompt_time(post.created_at),
        "content": content,
        "summary": summary_unless_whole(summaries, post, content),
    }


def context_posts(posts: list[Post], *, me: User, summaries: dict[int, PostSummary],
                  content_limit: int = REPLY_CHAIN_TEXT_LIMIT) -> list[dict[str, Any]]:
    return [context_post(p, me=me, content_limit=content_limit, summaries=summaries) for p in posts]


def viewable_newest(viewer: User, field: str, keys, n: int, *, with_summary: bool = False):
    """The `n` newest posts of each key of `field` ("owner_id" or "reply_to") that the
    viewer may see, with owners: `viewable_posts` over `newest_posts_q` in one query
    (the viewable filter applies to the newest `n`, not "the newest `n` viewable")."""
    qs = viewable_posts(viewer).filter(newest_posts_q(field, keys, n)).select_related("owner")
    if with_summary:
        qs = qs.select_related("ai_summary")
    return qs


def latest_direct_replies(viewer: User, post_ids: list[int], *, per_post: int, with_summary: bool = False) -> dict[int, list[Post]]:
    """Newest `per_post` viewable direct replies of each post, chronological."""
    if not post_ids:
        return {}
    result: dict[int, list[Post]] = {pid: [] for pid in post_ids}
    replies = viewable_newest(viewer, "reply_to", post_ids, per_post, with_summary=with_summary)
    for reply in sorted(replies, key=lambda p: p.id):
        result[reply.reply_to].append(reply)
    return result


MESSAGE_TEXT_LIMIT = 1000  # each earlier message of the conversation, as existing replies


def conversation_turns(ai: User, peer_nickname: str, messages) -> list[dict[str, Any]]:
    """Messages between the AI user and one person as the prompts show them, oldest
    first, isSelf on the AI user's own."""
    return [
        {
            "author": ai.nickname if m.sender_id == ai.id else peer_nickname,
            "isSelf": m.sender_id == ai.id,
            "createdAt": prompt_time(m.created_at),
            "content": truncate_pt(m.content, MESSAGE_TEXT_LIMIT),
        }
        for m in messages
    ]
