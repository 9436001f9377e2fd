"""The offline stand-in's answer to a person who replied to an AI user (task
`respond`) or sent it a direct message (task `respond-message`): addressed to them by nickname, about the words of their message, in the
persona's tone and at its tier's length, never repeating a recent AI sentence
(`agents/llm/offline_talk.py`, docs/offline-standin.md); deterministic for the same
inputs and recent texts, and marked as the stand-in like every text it writes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agents.llm.offline_talk import conversation, load_recent
from agents.llm.offline_text import fit

if TYPE_CHECKING:
    from agents.llm.offline import _Ctx


def respond_answer(ctx: _Ctx) -> dict[str, Any]:
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
