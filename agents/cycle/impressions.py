"""Stages 2 and 3: an impression of every post read and of every author met
(docs/agent-cycle.md §4, §5). The post impression doubles as the read marker.

The posts (and then the authors) of one language are judged together, up to BATCH in
one call: every call repeats the shared prefix and the task's instructions, and a
cycle's ten reads as ten calls paid for them ten times (bench/README.md, "Tokens").
The answer is validated item by item, so one bad entry fails only its own post."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from agents import memory
from agents.llm.parsing import parse_peer_impressions, parse_post_impressions
from agents.memory_guards import refusal_note, text_refusal
from agents.memory_versions import cycle_source
from agents.models import PeerImpression, PostImpression
from agents.prompt_text import post_prompt_text
from agents.runs import inputs
from agents.runs.llm_calls import LlmJob, run_jobs, scaled
from agents.textmeasure import truncate_pt
from sns.core.ids import id_to_datetime, id_to_hex, parse_id
from sns.models import User
from sns.selectors import newest_posts_q, viewable_posts
from sns.selectors.boundaries import ai_memory_withheld

from .context import StageContext

# The reason a run record gives for a person not judged (docs/agent-cycle.md §5).
NOT_REMEMBERED_REASON = "the user does not let AI users remember them"
BATCH = 10  # items per call: a cycle's reads (STGY_AI_USER_READ_POST_LIMIT) fit in one
# What an impression needs of a long post: its start; the summary, sent with a cut post,
# covers the whole of it (prompts/common-profile-*.txt, "content may be only the start").
IMPRESSION_POST_TEXT_LIMIT = 2000
# A user is judged on their newest posts: the ones the AI user has an impression of
# (its own memory of them) and the newest others up to this many in all.
PEER_POSTS_SHOWN = 5
# Its own tags fed back beside its own impression text: the first few; the rest are
# further keywords of the text right before them.
OWN_TAGS_BESIDE_TEXT = 3


def _profile(ctx: StageContext) -> dict[str, Any]:
    return inputs.profile_excerpt(ctx.user, ctx.interest)


def post_impressions(ctx: StageContext) -> dict[str, Any]:
    me = ctx.user
    reads = ctx.details.get("reads") or []
    ids = [parse_id(r["postId"]) for r in reads]
    # The posts still viewable, with their owners, summaries, any impression already
    # written (a redelivered stage finds its earlier impressions and reuses their
    # decisions) and this user's impression of each author, in one query of the columns
    # the stage reads.
    mine = PostImpression.objects.filter(user_id=me.id, post_id=OuterRef("pk")).values("payload")[:1]
    of_author = PeerImpression.objects.filter(user_id=me.id, peer_id=OuterRef("owner_id")).values("payload")[:1]
    rows = viewable_posts(me).filter(id__in=ids).annotate(
        my_impression=Subquery(mine), my_peer_impression=Subquery(of_author)
    ).values_list(*_READ_POST_COLUMNS)
    posts = {row[0]: _ReadPost(*row) for row in rows}
    to_read = [posts[i] for i in ids if i in posts and posts[i].owner_id != me.id]
    decisions: dict[str, Any] = ctx.details.setdefault("postDecisions", {})
    existing = {p.id: inputs.parse_payload(p.my_impression) for p in to_read if p.my_impression is not None}
    for post_id, payload in existing.items():
        decisions.setdefault(id_to_hex(post_id), _decision(payload))
    pending = [p for p in to_read if p.id not in existing]
    if not pending:
        return {"read": 0, "reused": len(existing)}

    chains = inputs.ancestor_chains(me, pending, depth=inputs.REPLY_CHAIN_LIMIT, with_summary=True)
    summaries = inputs.summaries_of([a for chain in chains.values() for a in chain])
    peers = {p.owner_id: inputs.parse_payload(p.my_peer_impression) for p in pending if p.my_peer_impression is not None}
    base = settings.STGY_AI_USER_IMPRESSION_LENGTH
    limit = settings.STGY_AI_USER_POST_TEXT_LIMIT
    items = []
    for post in pending:
        locale = inputs.locale_of_post(post.locale, post.owner_locale, me.locale)
        peer_payload = peers.get(post.owner_id, {})
        content = post_prompt_text(post.content, min(limit, IMPRESSION_POST_TEXT_LIMIT))
        item = {
            "replyChain": inputs.context_posts(chains[post.id], me=me, summaries=summaries),
            "post": {
                "locale": locale,
                "author": post.owner_nickname,
                "createdAt": inputs.prompt_time(post.created_at),
                "content": content,
                "summary": inputs.summary_of_cut(post.summary, post.content, content),
                "peerImpression": inputs.impression_text(peer_payload),
                "peerTags": inputs.impression_tags(peer_payload),
                "isSelf": False,
            },
        }
        items.append((post, locale, item))
    tag_num = settings.STGY_AI_TAG_MAX_COUNT
    jobs = batched_jobs(
        items, task="post-impressions", list_key="posts", base=base, tag_num=tag_num,
        parse=lambda text, count: parse_post_impressions(text, count, tag_num),
    )
    jobs, split = _run_with_split_retry(ctx, jobs, "post-impressions")

    failed, rows, first_error = 0, [], None
    for post, answer in answers(jobs):
        if isinstance(answer, str):
            failed += 1
            first_error = first_error or answer
            decisions[post.hex_id] = {"shouldLike": False, "shouldReply": False, "error": answer}
            continue
        payload = {k: answer[k] for k in ("impression", "tags", "shouldLike", "shouldReply")}
        rows.append((post, json.dumps(payload, ensure_ascii=False)))
        decisions[post.hex_id] = _decision(payload)
    # One upsert for the whole stage (with its versions), through the same memory
    # service as the API; the posts of people who asked not to be remembered keep a
    # read marker only.
    withheld = memory.post_impressions_save(me, rows, source=cycle_source(ctx.run.pk, ctx.stage))
    if failed and failed == len(pending):
        raise RuntimeError(f"every post impression failed ({failed}); first error: {first_error}")
    result = {"read": len(pending) - failed, "failed": failed, "reused": len(existing), **split}
    unremembered = sum(1 for post, _ in rows if post.owner_id in withheld)
    if unremembered:
        result["notRemembered"] = unremembered  # read markers without text (aiMemory "none")
    return result


def batched_jobs(
    items: list[tuple[Any, str, dict[str, Any]]], *, task: str, list_key: str, base: int, tag_num: int,
    parse: Callable[[str, int], dict[int, Any]],
) -> list[LlmJob]:
    """The calls for `items` ((key, task locale, input) triples): the items of one
    locale together, BATCH a call, numbered from 1 under `list_key` (a lone item too:
    the instructions in the cached prefix are the list's). Every job's key is the list
    of its items' keys and its result maps item number -> answer or error text."""
    by_locale: dict[str, list[tuple[Any, dict[str, Any]]]] = {}
    for key, locale, item in items:
        by_locale.setdefault(locale, []).append((key, item))
    jobs = []
    for locale, group in by_locale.items():
        for start in range(0, len(group), BATCH):
            chunk = group[start:start + BATCH]
            payload = {list_key: [{"n": n, **item} for n, (_, item) in enumerate(chunk, 1)]}
            jobs.append(LlmJob(
                key=[key for key, _ in chunk], task=task, locale=locale, payload=payload,
                max_chars=scaled(locale, base), tag_num=tag_num,
                parse=lambda text, count=len(chunk): parse(text, count),  # noqa: B008 - this chunk's size
                extra={"list_key": list_key, "parse": parse},
            ))
    return jobs


def split_jobs(job: LlmJob) -> list[LlmJob]:
    """A batched job as one job per item, each numbered 1 as a lone item is."""
    list_key, parse = job.extra["list_key"], job.extra["parse"]
    return [
        LlmJob(
            key=[key], task=job.task, locale=job.locale, payload={list_key: [{**item, "n": 1}]},
            max_chars=job.max_chars, tag_num=job.tag_num, parse=lambda text: parse(text, 1),
            extra=job.extra,
        )
        for key, item in zip(job.key, job.payload[list_key], strict=True)
    ]


def _run_with_split_retry(ctx: StageContext, jobs: list[LlmJob], task: str) -> tuple[list[LlmJob], dict[str, int]]:
    """Run the batched jobs; a batch whose whole answer was unusable (not JSON, cut off)
    is asked again once, one call per item, so one bad item costs only itself. The
    retries are model calls like any other: the gateway's budget checks hold them to
    the cycle's budget. Returns the jobs whose answers stand, and the record's counts."""
    me = ctx.user
    kwargs = {"profile": _profile(ctx), "tier": ctx.tier(task), "user_id": me.id, "run_id": ctx.run.pk, "stage": ctx.stage}
    run_jobs(jobs, **kwargs)
    broken = [job for job in jobs if job.result is None and job.unusable and len(job.key) > 1]
    if not broken:
        return jobs, {}
    retries = [part for job in broken for part in split_jobs(job)]
    run_jobs(retries, **kwargs)
    kept = [job for job in jobs if job not in broken]
    return kept + retries, {"splitBatches": len(broken), "splitCalls": len(retries)}


def answers(jobs: list[LlmJob]):
    """(item key, its validated answer dict or the error text) for every item of `jobs`."""
    for job in jobs:
        for n, key in enumerate(job.key, 1):
            answer = job.result.get(n) if job.result is not None else job.error
            yield key, answer if answer is not None else f"no answer for item {n}"


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
    # The peers with their previous impression (payload and time) in one query, as the
    # few columns the stage reads.
    prev = PeerImpression.objects.filter(user_id=me.id, peer_id=OuterRef("pk"))
    rows = User.objects.filter(id__in=peer_ids).annotate(
        prev_payload=Subquery(prev.values("payload")[:1]), prev_updated_at=Subquery(prev.values("updated_at")[:1])
    ).values_list("id", "locale", "nickname", "introduction", "prev_payload", "prev_updated_at")
    peers, previous = {}, {}
    for peer_id, locale, nickname, introduction, prev_payload, prev_updated_at in rows:
        peers[peer_id] = _Peer(peer_id, id_to_hex(peer_id), locale, nickname, introduction)
        if prev_updated_at is not None:
            previous[peer_id] = (inputs.parse_payload(prev_payload), SimpleNamespace(updated_at=prev_updated_at))
    skip_days = settings.STGY_AI_USER_SKIP_PEER_IMPRESSION_UPDATE_DAYS
    fresh_after = timezone.now() - timedelta(days=skip_days) if skip_days > 0 else None
    run_started = ctx.run.started_at
    # People who asked AI users not to remember them are not judged at all: no
    # impression of them would be kept (agents/memory.py), so no call is made for one.
    withheld = ai_memory_withheld(peers)
    held = ctx.interest is not None and ctx.interest.hold_impressions
    todo = []
    for peer_id in peer_ids:
        peer = peers.get(peer_id)
        if peer is None:
            continue
        if peer_id in withheld:
            decisions[peer.hex_id] = {"shouldFollow": False, "skipped": NOT_REMEMBERED_REASON}
            continue
        payload, row = previous.get(peer_id, ({}, None))
        if row is not None and row.updated_at >= run_started:
            decisions.setdefault(peer.hex_id, {"shouldFollow": payload.get("shouldFollow") is True})
            continue  # written by this run before a redelivery
        if row is not None and fresh_after is not None and row.updated_at > fresh_after:
            decisions[peer.hex_id] = {"shouldFollow": False, "skipped": "recent impression"}
            continue
        if row is not None and held:
            # Held by an admin: read as it is, not rewritten (a first impression is no rewrite).
            decisions[peer.hex_id] = {"shouldFollow": payload.get("shouldFollow") is True, "skipped": "held"}
            refusal_note(ctx.details, stage=ctx.stage, memory="peer", reason="held", peer=peer.hex_id)
            continue
        todo.append(peer)
    unremembered = {"notRemembered": len(withheld)} if withheld else {}
    if not todo:
        return {"judged": 0, **unremembered}

    recent = _recent_posts(me, [p.id for p in todo])
    all_posts = [p for posts in recent.values() for p in posts]
    # A read marker without text (MARKER) is no impression: nothing of it is shown.
    own_impressions = {p.id: inputs.parse_payload(p.my_impression) for p in all_posts if p.my_impression}
    base = settings.STGY_AI_USER_IMPRESSION_LENGTH
    limit = settings.STGY_AI_USER_OUTPUT_TEXT_LIMIT
    items = []
    for peer in todo:
        locale = inputs.dash_locale(peer.locale)
        last = previous.get(peer.id, ({}, None))[0]
        item = {  # no userId: the nickname names the peer (the id costs ≈ 14 tokens)
            "locale": peer.locale,
            "nickname": peer.nickname,
            "introduction": truncate_pt(peer.introduction or "", settings.STGY_AI_USER_INTRO_TEXT_LIMIT),
            "lastImpression": inputs.impression_text(last),
            "posts": [
                {
                    "locale": post.locale or peer.locale,
                    "summary": inputs.summary_text_of(post.summary),
                    "impression": truncate_pt(own_impressions.get(post.id, {}).get("impression", ""), limit),
                    "tags": inputs.impression_tags(own_impressions.get(post.id, {}))[:OWN_TAGS_BESIDE_TEXT],
                }
                for post in _shown(recent.get(peer.id, []), own_impressions)
            ],
        }
        items.append((peer, locale, item))
    tag_num = settings.STGY_AI_TAG_MAX_COUNT
    jobs = batched_jobs(
        items, task="peer-impressions", list_key="users", base=base, tag_num=tag_num,
        parse=lambda text, count: parse_peer_impressions(text, count, tag_num),
    )
    jobs, split = _run_with_split_retry(ctx, jobs, "peer-impressions")

    failed, refused, rows, first_error = 0, 0, [], None
    for peer, answer in answers(jobs):
        if isinstance(answer, str):
            failed += 1
            first_error = first_error or answer
            decisions[peer.hex_id] = {"shouldFollow": False, "error": answer}
            continue
        last = previous.get(peer.id, ({}, None))[0]
        why = text_refusal(inputs.impression_text(last), answer["impression"]) if last else None
        if why:
            # The old impression stays, and so does the follow decision it held.
            refused += 1
            decisions[peer.hex_id] = {"shouldFollow": last.get("shouldFollow") is True, "refused": why}
            refusal_note(ctx.details, stage=ctx.stage, memory="peer", reason=why, peer=peer.hex_id)
            continue
        payload = {k: answer[k] for k in ("impression", "tags", "shouldFollow")}
        rows.append((peer.id, json.dumps(payload, ensure_ascii=False)))
        decisions[peer.hex_id] = {"shouldFollow": payload["shouldFollow"] is True}
    memory.peer_impressions_save(me, rows, source=cycle_source(ctx.run.pk, ctx.stage))
    if failed and failed == len(todo):
        raise RuntimeError(f"every peer impression failed ({failed}); first error: {first_error}")
    result = {"judged": len(todo) - failed - refused, "failed": failed, **split, **unremembered}
    if refused:
        result["refused"] = refused
    return result


_READ_POST_COLUMNS = (
    "id", "owner_id", "reply_to", "locale", "content", "owner__locale", "owner__nickname", "ai_summary__summary",
    "my_impression", "my_peer_impression",
)


@dataclass(frozen=True)
class _ReadPost:
    """The columns of a post read that post_impressions uses (_READ_POST_COLUMNS)."""

    id: int
    owner_id: int
    reply_to: int | None
    locale: str | None
    content: str
    owner_locale: str
    owner_nickname: str
    summary: str | None
    my_impression: str | None
    my_peer_impression: str | None

    @property
    def hex_id(self) -> str:
        return id_to_hex(self.id)

    @property
    def created_at(self):
        return id_to_datetime(self.id)


@dataclass(frozen=True)
class _Peer:
    """The columns of a peer the stage reads."""

    id: int
    hex_id: str
    locale: str
    nickname: str
    introduction: str


@dataclass(frozen=True)
class _PeerPost:
    """The columns of a peer's post the stage reads, with its summary's text and the
    AI user's own impression of it."""

    id: int
    owner_id: int
    locale: str | None
    summary: str | None
    my_impression: str | None


def _shown(posts: list[_PeerPost], judged: dict[int, Any]) -> list[_PeerPost]:
    """`posts` (newest first) cut to PEER_POSTS_SHOWN, keeping every one in `judged`."""
    room = max(0, PEER_POSTS_SHOWN - sum(1 for p in posts if p.id in judged))
    shown = []
    for post in posts:
        if post.id in judged:
            shown.append(post)
        elif room:
            shown.append(post)
            room -= 1
    return shown


def _recent_posts(viewer: User, owner_ids: list[int]) -> dict[int, list[_PeerPost]]:
    """Each peer's newest posts (replies included), viewable ones only, newest first,
    with summaries and the viewer's own impression of each: one query, plain rows (up
    to ten posts a peer, three model instances each with their owners and summaries)."""
    per_user = settings.STGY_AI_USER_READ_PEER_POST_LIMIT
    mine = PostImpression.objects.filter(user_id=viewer.id, post_id=OuterRef("pk")).values("payload")[:1]
    rows = viewable_posts(viewer).filter(newest_posts_q("owner_id", owner_ids, per_user)).annotate(
        my_impression=Subquery(mine)
    ).values_list("id", "owner_id", "locale", "ai_summary__summary", "my_impression")
    result: dict[int, list[_PeerPost]] = {}
    for row in sorted(rows, reverse=True):
        result.setdefault(row[1], []).append(_PeerPost(*row))
    return result
