"""The offline stand-in's revision of a draft with knowledge posts (task `revise`,
agents/runs/knowledge.py): the draft as it was, then one sentence naming the first
source by title and author and quoting its first sentence, so a demo and a test can
see which retrieved post the text drew on. Deterministic; marked as the stand-in."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agents.llm.offline_text import STAND_IN, fit, sentences, strip_markdown

if TYPE_CHECKING:
    from agents.llm.offline_context import Ctx

CITE = {
    "en": 'As "{title}" by {author} says: "{quote}" [{ref}]',
    "ja": "{author}の「{title}」によれば「{quote}」[{ref}]",
}


def revise_draft(ctx: Ctx) -> dict[str, Any]:
    draft = ctx.payload.get("draft") if isinstance(ctx.payload.get("draft"), str) else ""
    draft = draft.replace(STAND_IN["en"], "").replace(STAND_IN["ja"], "").strip()
    sources = [s for s in ctx.payload.get("sources") or [] if isinstance(s, dict)]
    if not sources:
        return {"content": fit(draft, ctx.lang, ctx.max_chars), "tags": []}
    first = sources[0]
    body = strip_markdown(str(first.get("content") or ""), headings=False)
    lines = sentences(body)
    title = str(first.get("title") or "")
    quote = next((s for s in lines if s.strip("# ") != title), lines[0] if lines else title)[:120]
    cite = CITE[ctx.lang].format(
        title=title, author=first.get("author") or "", quote=quote, ref=first.get("ref") or 1
    )
    sep = "" if ctx.lang == "ja" else " "
    room = ctx.max_chars - len(cite) - len(STAND_IN[ctx.lang]) - 4
    kept = draft[: max(0, room)].rstrip()
    text = (kept + "\n\n" if kept else "") + cite
    return {
        "content": fit(
            text, ctx.lang, max(ctx.max_chars, len(text) + len(sep) + len(STAND_IN[ctx.lang]))
        ),
        "tags": [],
    }
