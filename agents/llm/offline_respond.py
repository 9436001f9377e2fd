"""The offline stand-in's answer to a person who replied to an AI user (task
`respond`) or sent it a direct message (task `respond-message`), and its first
message to a friend (task `open-message`): addressed to them by nickname, about the
words of their message or newest post, in the persona's tone and at its tier's length, never repeating a recent AI sentence
(`agents/llm/offline_talk.py`, docs/offline-standin.md); deterministic for the same
inputs and recent texts, and marked as the stand-in like every text it writes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agents.llm.offline_talk import TALK, conversation, load_recent, name_words, pick_fresh, topic_words
from agents.llm.offline_text import fit

if TYPE_CHECKING:
    from agents.llm.offline_context import Ctx


def respond_answer(ctx: Ctx) -> dict[str, Any]:
    message = ctx.payload.get("message") if isinstance(ctx.payload.get("message"), dict) else {}
    content = message.get("content") if isinstance(message.get("content"), str) else ""
    nick = message.get("author") if isinstance(message.get("author"), str) else ""
    body = conversation(
        ctx,
        nick=nick or ctx.phrases["someone"],
        content=content,
        tags=[],
        recent=load_recent(),
        direct="conversation" in ctx.payload,  # a direct message, not a reply
    )
    if not body:
        # Nothing it has not said lately: it declines, as a model may (docs/offline-standin.md).
        return {"answer": False, "content": "", "tags": ctx.tags(content, [])}
    return {
        "answer": True,
        "content": fit(body, ctx.lang, ctx.max_chars),
        "tags": ctx.tags(content, []),
    }


def open_message(ctx: Ctx) -> dict[str, Any]:
    """A first message about the person's newest post (or their last message); it
    declines when there is nothing of theirs to pick up or nothing new to say."""
    person = ctx.payload.get("person") if isinstance(ctx.payload.get("person"), dict) else {}
    nick = person.get("nickname") if isinstance(person.get("nickname"), str) else ""
    theirs = [p for p in ctx.payload.get("theirPosts") or [] if isinstance(p, dict)]
    said = [m for m in ctx.payload.get("conversation") or [] if isinstance(m, dict) and not m.get("isSelf")]
    source = theirs[0] if theirs else (said[-1] if said else {})
    content = source.get("content") if isinstance(source.get("content"), str) else ""
    if not topic_words(content, [], name_words(nick, str(ctx.profile.get("nickname") or ""))):
        return {"answer": False, "content": "", "tags": []}  # nothing of theirs to pick up
    recent = load_recent()
    lead = pick_fresh(list(TALK[ctx.lang]["reach_out"]), recent, set(), ctx.seed) or ""
    body = conversation(
        ctx, nick=nick or ctx.phrases["someone"], content=content, tags=[], recent=recent,
        lead=lead + ("" if ctx.lang == "ja" or not lead else " "), direct=True,
    )
    if not body:
        return {"answer": False, "content": "", "tags": []}
    return {"answer": True, "content": fit(body, ctx.lang, ctx.max_chars), "tags": ctx.tags(content, [])}
