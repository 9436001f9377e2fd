"""The respond prompt's input: the thread as the cycle's reply input shows it (reply
chain oldest first, the newest direct replies, isSelf on the AI user's own words), the
person's message, and the AI user's impression of its author."""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings

from agents.llm.parsing import parse_respond
from agents.prompt_text import post_prompt_text
from agents.relationships import relationship_annotated
from agents.runs import inputs
from agents.runs.language import answer_locale
from agents.runs.llm_calls import LlmJob, fluctuated_length
from agents.textmeasure import truncate_pt
from sns.models import User

from .facts import EventFacts

EXISTING_REPLY_TEXT_LIMIT = 1000  # as the cycle's reply input
LENGTH_STEP = 50


def respond_payload(ai: User, facts: EventFacts) -> dict[str, Any]:
    post = facts.post
    content = post_prompt_text(post.content, settings.STGY_AI_USER_POST_TEXT_LIMIT)
    peer = inputs.parse_payload(post.my_peer_impression)
    return {
        "replyChain": inputs.context_posts(facts.chain, me=ai, summaries=facts.summaries),
        "message": {
            "locale": _post_answer_locale(ai, facts),
            "author": post.owner.nickname,
            "createdAt": inputs.prompt_time(post.created_at),
            "content": content,
            "summary": inputs.summary_unless_whole(facts.summaries, post, content),
            "peerImpression": inputs.impression_text(peer),
            "relationship": relationship_annotated(post),
        },
        "existingReplies": inputs.context_posts(
            facts.replies, me=ai, summaries=facts.summaries, content_limit=EXISTING_REPLY_TEXT_LIMIT
        ),
    }


def _post_answer_locale(ai: User, facts: EventFacts) -> str:
    """The language the person wrote in; the post's or their locale when the text says
    nothing (agents/runs/language.py)."""
    return answer_locale(facts.post.content, inputs.post_locale(facts.post, ai.locale))


def respond_job(ai: User, facts: EventFacts, *, run_id: int) -> LlmJob:
    return _answer_job(
        facts, task="respond", locale=_post_answer_locale(ai, facts),
        payload=respond_payload(ai, facts), run_id=run_id,
    )


def _answer_job(facts, *, task: str, locale: str, payload: dict[str, Any], run_id: int) -> LlmJob:
    """One answer to an event, a reply or a message alike: its length fluctuates around
    STGY_RESPOND_LENGTH, seeded by the run and the event so a retry asks the same."""
    tag_num = min(max(2, settings.STGY_AI_USER_NEW_POST_TAGS), settings.STGY_AI_TAG_MAX_COUNT)
    rng = random.Random(f"{run_id}:respond:{facts.event.pk}")
    return LlmJob(
        key=facts.event,
        task=task,
        locale=locale,
        payload=payload,
        max_chars=fluctuated_length(rng, settings.STGY_RESPOND_LENGTH, locale, LENGTH_STEP),
        tag_num=tag_num,
        parse=lambda text: parse_respond(text, locale, tag_num, settings.STGY_AI_TAG_MAX_COUNT),
    )


def message_payload(ai: User, facts) -> dict[str, Any]:
    """The conversation's recent messages, oldest first, isSelf on the AI user's; the
    message answered (whole, up to the post text limit); whether it is a request."""
    message, sender = facts.message, facts.sender
    peer = inputs.parse_payload(sender.my_peer_impression)
    earlier = [m for m in facts.recent if m.id != message.id]
    return {
        "conversation": inputs.conversation_turns(ai, sender.nickname, earlier),
        "message": {
            "locale": _message_locale(ai, facts),
            "author": sender.nickname,
            "createdAt": inputs.prompt_time(message.created_at),
            "content": truncate_pt(message.content, settings.STGY_AI_USER_POST_TEXT_LIMIT),
            "peerImpression": inputs.impression_text(peer),
            "relationship": relationship_annotated(sender),
        },
        "isRequest": facts.is_request,
    }


def _message_locale(ai: User, facts) -> str:
    """The language of the message; the sender's locale (else the AI user's) when the
    text says nothing."""
    return answer_locale(facts.message.content, inputs.dash_locale(facts.sender.locale or ai.locale))


def message_job(ai: User, facts, *, run_id: int) -> LlmJob:
    return _answer_job(
        facts, task="respond-message", locale=_message_locale(ai, facts),
        payload=message_payload(ai, facts), run_id=run_id,
    )
