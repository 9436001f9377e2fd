"""Boundaries said in words (docs/respond-path.md): a reply, mention or message that
asks the AI user to stop sets the same stop as the person's Stop button, and the AI
user answers it once with a short fixed line — no model call, no guilt-trip — then
neither answers nor reaches out until the stop ends (the `boundaries` gates and
outreach read the stop).

Detected by `sns.core.stop_words.stop_request` before the model call, or by the model's
`stop` field after it (the model may add a stop, never lift one). The stop is recorded
whatever the gates say (a person's "leave me alone" counts even when the AI user could
not have answered); the acknowledgement is written only when the gates let an answer
through, in the same transaction as the stop — before the stop exists, so the
rulebook's own stop check does not refuse it, and never after one already held.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from agents.llm.parsing import reply_fallback_tags
from agents.models import AttentionEvent
from agents.runs import inputs
from agents.runs.language import answer_locale
from sns.api.presenters import iso
from sns.core.errors import DomainError
from sns.core.stop_words import stop_request
from sns.models import User
from sns.services.boundaries import ai_stop_from_words

from .events import event_close
from .facts import EventFacts
from .facts_message import MessageFacts
from .write import answer_write, message_answer_write

# The acknowledgement: brief, no reproach, no plea, no promise beyond the stop.
ACKNOWLEDGEMENT = {
    "en": "Understood, {nick}. I'll stop writing to you.",
    "ja": "わかりました、{nick}さん。これ以上は連絡しません。",
}
Status = AttentionEvent.Status


def said(facts: EventFacts | MessageFacts) -> tuple[str, int] | None:
    """The person's words and where they are (the message or post id), if still there."""
    if isinstance(facts, MessageFacts):
        return (facts.message.content, facts.message.id) if facts.message is not None else None
    return (facts.post.content, facts.post.id) if facts.post is not None else None


def matcher_detection(facts: EventFacts | MessageFacts) -> dict[str, Any] | None:
    """The deterministic matcher's verdict on the person's words: {"detectedBy":
    "matcher"} (with the words, for a public post; a message's text is private and
    admins read run records), or None."""
    words = said(facts)
    found = stop_request(words[0]) if words else None
    if found is None:
        return None
    detection: dict[str, Any] = {"detectedBy": "matcher"}
    if not isinstance(facts, MessageFacts):
        detection["words"] = found
    return detection


def acknowledgement_text(ai: User, facts: EventFacts | MessageFacts) -> tuple[str, str]:
    """(the fixed line in the language the person wrote in, its locale)."""
    sender = facts.sender if isinstance(facts, MessageFacts) else facts.post.owner
    fallback = (
        inputs.dash_locale(sender.locale or ai.locale)
        if isinstance(facts, MessageFacts)
        else inputs.post_locale(facts.post, ai.locale)
    )
    locale = answer_locale(said(facts)[0], fallback)
    lang = "ja" if locale.split("-")[0].lower() == "ja" else "en"
    return ACKNOWLEDGEMENT[lang].format(nick=sender.nickname), locale


def stop_handle(ai: User, run, facts, detection: dict, record: dict, *, refusal: str | None) -> dict:
    """Record the stop the person asked for and, unless a gate refused (`refusal`),
    acknowledge it once; the outcome on the event and on `record`."""
    event = facts.event
    sender = facts.sender if isinstance(facts, MessageFacts) else facts.post.owner
    said_in = said(facts)[1]
    source = "model" if detection["detectedBy"] == "model" else "words"
    record["stop"] = dict(detection)
    if refusal is not None:
        stop, new = ai_stop_from_words(sender, ai, said_in=said_in, source=source)
        _stop_fields(record, stop, new)
        _close(record, event, Status.REFUSED, refusal)
        return record
    content, locale = acknowledgement_text(ai, facts)
    result = {"content": content, "tags": reply_fallback_tags(locale)}
    try:
        with transaction.atomic():
            try:
                if isinstance(facts, MessageFacts):
                    answer = message_answer_write(ai, event, facts, result, run, acknowledgement=True)
                else:
                    answer = answer_write(ai, event, facts.post, result, run, acknowledgement=True)
                why = None if answer is not None else "not_answered: the AI user answered meanwhile"
            except DomainError as exc:
                answer, why = None, f"write refused: {exc.message}"
            stop, new = ai_stop_from_words(sender, ai, said_in=said_in, source=source)
    except Exception:
        # The stop stands whatever became of the acknowledgement.
        ai_stop_from_words(sender, ai, said_in=said_in, source=source)
        raise
    _stop_fields(record, stop, new)
    if answer is None:
        _close(record, event, Status.REFUSED, why)
    elif isinstance(facts, MessageFacts):
        record["result"], record["answerMessageId"] = Status.ANSWERED, answer.hex_id
        if facts.is_request:
            record["request"] = "accepted"
    else:
        record["result"], record["replyId"] = Status.ANSWERED, answer.hex_id
    record["stop"]["acknowledged"] = answer is not None
    return record


def _stop_fields(record: dict, stop, new: bool) -> None:
    record["stop"].update(until=iso(stop.until), new=new)


def _close(record: dict, event: AttentionEvent, status: str, why: str) -> None:
    event_close(event, status, why)
    record["result"], record["reason"] = status, why
