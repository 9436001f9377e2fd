"""Stage 7's last step: an AI user opens a direct message with a friend
(docs/respond-path.md, "Opening a conversation").

Code decides whom, and whether at all: only a person who follows the AI user, is at
least a friend by the relationship score, has written to it (a reply, a mention or a
message) within STGY_AI_USER_OUTREACH_RECENT_DAYS, and allows AI messages; never in
their quiet hours, never while its last message is unanswered (which, after a day,
lowers the relationship), never past the back-off rule or the hourly caps, and
only in a share STGY_AI_USER_OUTREACH_PROBABILITY of cycles. The model writes the text
(or declines). At most one message per cycle, sent through sns.services as the AI user.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.utils import timezone

from agents.budget import budget_refusal
from agents.llm.parsing import parse_respond
from agents.memory_versions import VersionSource, cycle_source
from agents.models import AttentionEvent, PeerImpression, Relationship
from agents.prompt_text import post_prompt_text
from agents.rate_limits import HourlyWrites
from agents.relationships import LEVELS, relationship_now, relationship_opener_unanswered
from agents.runs import inputs
from agents.runs.contact import backoff_refusal
from agents.runs.llm_calls import LlmJob, fluctuated_length, run_job
from agents.runs.near_duplicate import RecentWrites
from agents.runs.viewable import viewable_by_id
from sns.core.errors import DomainError
from sns.core.ids import id_to_datetime, id_to_hex
from sns.models import Follow, Post
from sns.models.messages import Message
from sns.selectors.boundaries import ai_contact_allowed, ai_quiet_hours_refusal
from sns.services import messages

from .context import StageContext

CANDIDATES = 5  # the closest friends looked at per cycle
THEIR_POSTS = 3  # the person's newest posts shown to the model
CONVERSATION_TURNS = 6
TEXT_LIMIT = 1000
FRIEND = next(threshold for threshold, name in LEVELS if name == "friend")
TASK = "open-message"
# An opener still unanswered after a day has gone unanswered: the relationship falls
# (agents/relationships.py, UNANSWERED_OPENER_STEP). Shorter would count a person
# asleep in another time zone; a cycle comes every 12 hours or so anyway.
OPENER_ANSWER_HOURS = 24


def outreach(ctx: StageContext) -> dict[str, Any]:
    """Perhaps one message; the record goes to details["outreach"]."""
    me = ctx.user
    chance = settings.STGY_AI_USER_OUTREACH_PROBABILITY
    if chance <= 0 or random.Random(f"{ctx.run.pk}:outreach").random() >= chance:
        return _done(ctx, {"skipped": "not this cycle"})
    friends = _candidates(me.id)
    if not friends:
        return _done(ctx, {"skipped": "no friend who follows and wrote lately"})
    writes = HourlyWrites.load(me.id)
    looked = []
    for person, closeness in friends:
        entry = {"userId": person.hex_id, "nickname": person.nickname, **closeness}
        refusal = _refusal(me, person, writes, cycle_source(ctx.run.pk, ctx.stage))
        looked.append(entry)
        if refusal is not None:
            entry["refused"] = refusal
            continue
        entry.update(_write(ctx, person, closeness))
        break
    return _done(ctx, {"candidates": looked})


def _done(ctx: StageContext, record: dict[str, Any]) -> dict[str, Any]:
    ctx.details["outreach"] = record
    sent = [c for c in record.get("candidates", []) if c.get("messageId")]
    return {"messaged": sent[0]["userId"] if sent else None}


def _candidates(ai_id: int) -> list[tuple[Any, dict]]:
    """Followers who wrote to the AI user lately, closest first, friends and closer."""
    since = timezone.now() - timedelta(days=settings.STGY_AI_USER_OUTREACH_RECENT_DAYS)
    wrote = AttentionEvent.objects.filter(user_id=ai_id, sender_id=OuterRef("peer_id"), created_at__gte=since)
    follows = Follow.objects.filter(follower_id=OuterRef("peer_id"), followee_id=ai_id)
    rows = (
        Relationship.objects.filter(user_id=ai_id, score__gte=FRIEND, peer__is_frozen=False)
        .filter(Exists(wrote), Exists(follows))
        .select_related("peer")
        .order_by("-score")[:CANDIDATES]
    )
    friends = [(row.peer, relationship_now(row)) for row in rows]
    return [(peer, now) for peer, now in friends if now["score"] >= FRIEND]


def _refusal(me, person, writes: HourlyWrites, source: VersionSource) -> str | None:
    if person.is_ai and not settings.STGY_RESPOND_AI_MESSAGES:
        return "ai_messages: messages between AI users are off"
    allowed, why = ai_contact_allowed(me, person, "message")
    if not allowed:
        return f"boundaries: {why}"
    # Starting a conversation, unlike an answer, waits for the person's quiet hours.
    why = ai_quiet_hours_refusal(person)
    if why is not None:
        return f"quiet_hours: {why}"
    why = backoff_refusal(me.id, person.id)
    if why is not None:
        return f"backoff: {why}"
    low, high = sorted((me.id, person.id))
    last = (
        Message.objects.filter(conversation__user_low_id=low, conversation__user_high_id=high)
        .order_by("-id").values_list("id", "sender_id").first()
    )
    if last is not None and last[1] == me.id:
        sent_at = id_to_datetime(last[0])
        if timezone.now() - sent_at >= timedelta(hours=OPENER_ANSWER_HOURS) and relationship_opener_unanswered(
            me.id, person.id, sent_at, source=source
        ):
            return "waiting: the AI user's last message is not answered yet (relationship lowered)"
        return "waiting: the AI user's last message is not answered yet"
    for gate, why in (
        ("hourly_fleet", writes.fleet_refusal()),
        ("hourly_messages", writes.messages_refusal()),
        ("hourly_to_person", writes.messages_to_refusal(person.id, answering=False)),
        ("budget", budget_refusal(user_id=me.id)),
    ):
        if why is not None:
            return f"{gate}: {why}"
    return None


def _write(ctx: StageContext, person, closeness: dict) -> dict[str, Any]:
    me = ctx.user
    job = _job(ctx, person, closeness)
    run_job(job, profile=inputs.profile_excerpt(me, ctx.interest), tier=ctx.tier(TASK), user_id=me.id,
            run_id=ctx.run.pk, stage=ctx.stage)
    if job.result is None:
        return {"error": job.error}
    if not job.result["answer"]:
        return {"result": "model: chose not to write"}
    why = RecentWrites.load(me.id).refusal(job.result["content"], run_id=ctx.run.pk, stage=ctx.stage)
    if why is not None:
        return {"error": f"refused: near_duplicate: {why}"}
    try:
        message = messages.message_send(me, person.id, content=job.result["content"])
    except DomainError as exc:
        return {"error": f"refused: {exc.message}"}
    return {"result": "sent", "messageId": message.hex_id}


def _job(ctx: StageContext, person, closeness: dict) -> LlmJob:
    me = ctx.user
    locale = inputs.dash_locale(person.locale or me.locale)
    low, high = sorted((me.id, person.id))
    turns = list(
        Message.objects.filter(conversation__user_low_id=low, conversation__user_high_id=high)
        .order_by("-id")[:CONVERSATION_TURNS]
    )[::-1]
    newest = Post.objects.filter(owner_id=person.id).order_by("-id").values_list("id", flat=True)[:THEIR_POSTS * 2]
    seen = viewable_by_id(me, list(newest), with_owner=False)
    posts = sorted(seen.values(), key=lambda p: p.id, reverse=True)[:THEIR_POSTS]
    peer = PeerImpression.objects.filter(user_id=me.id, peer_id=person.id).values_list("payload", flat=True).first()
    payload = {
        "person": {
            "locale": locale,
            "nickname": person.nickname,
            "peerImpression": inputs.impression_text(inputs.parse_payload(peer) if peer is not None else {}),
            "relationship": closeness["level"],
        },
        "theirPosts": [
            {"createdAt": inputs.prompt_time(p.created_at), "content": post_prompt_text(p.content, TEXT_LIMIT)}
            for p in posts
        ],
        "conversation": inputs.conversation_turns(me, person.nickname, turns),
    }
    tag_num = min(max(2, settings.STGY_AI_USER_NEW_POST_TAGS), settings.STGY_AI_TAG_MAX_COUNT)
    rng = random.Random(f"{ctx.run.pk}:outreach:{id_to_hex(person.id)}")
    return LlmJob(
        key=person, task=TASK, locale=locale, payload=payload,
        max_chars=fluctuated_length(rng, settings.STGY_RESPOND_LENGTH, locale, 50), tag_num=tag_num,
        parse=lambda text: parse_respond(text, locale, tag_num, settings.STGY_AI_TAG_MAX_COUNT),
    )
