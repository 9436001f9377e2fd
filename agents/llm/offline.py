"""The `offline` LLM provider: a deterministic stand-in for demos and tests.

It never touches the network. Instead of reading the rendered prompt it reads the
structured `request.inputs` (the AI user's profile, the task payload and the length
limits) and writes a small in-character answer in the task's JSON schema: keywords
of the persona and of the text it reacts to decide likes, replies and follows (by word
overlap) and fill the sentences. Any variation is seeded from the inputs, so the same
request always gives the same bytes. Every generated text says it is the stand-in.
Token counts are estimates (four characters a token); cached tokens are what a
provider's prefix cache would serve, against the process's recent prompts
(agents/llm/prefix_cache.py), so the demo's usage rows show the cached share too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from agents.llm.offline_context import Ctx, as_dicts, as_text, as_words, capitalized
from agents.llm.offline_respond import open_message, respond_answer
from agents.llm.offline_revise import revise_draft
from agents.llm.offline_tags import NDC_LABELS
from agents.llm.offline_talk import TALK, conversation, load_recent, pick_fresh
from agents.llm.offline_text import (
    PHRASES,
    Terms,
    extract_terms,
    fit,
    language_of,
    overlap,
    pick,
    seed_of,
    sentences,
    strip_markdown,
)
from agents.llm.prefix_cache import RecentPrompts, provider_cacheable
from agents.llm.types import ChatRequest, ChatResponse
from agents.prompts import messages_text

_RECENT_PROMPTS = RecentPrompts(64)

def _react(ctx: Ctx, author: str, terms: Terms, matched: list[str]) -> str:
    p, kws, sep = ctx.phrases, terms.top(3), ("" if ctx.lang == "ja" else " ")
    if not kws:
        return p["empty"]
    if not matched:
        return capitalized(p["off"][ctx.tone].format(k1=kws[0]))
    k1 = matched[0]
    others = [w for w in matched[1:] + ctx.persona.top(3) if w.lower() != k1.lower()]
    m = others[0] if others else ctx.persona_term(1)
    k2 = next((k for k in kws if k not in (k1, m)), "")
    body = pick(p["open"][ctx.tone], ctx.seed) + sep
    body += p["link"].format(author=author or p["someone"], k1=k1, m=m)
    if k2:
        body += p["also"].format(k2=k2)
    return body + sep + p["point"][ctx.tone].format(k1=k1, m=m)


def _post_impression(ctx: Ctx) -> dict[str, Any]:
    post = ctx.payload.get("post") if isinstance(ctx.payload.get("post"), dict) else {}
    content, summary = as_text(post.get("content")), as_text(post.get("summary"))
    terms = extract_terms([(strip_markdown(content), 1.0), (summary, 0.5)])
    matched = overlap(ctx.persona, terms)
    n, own = len(matched), post.get("isSelf") is True
    chain = [c for c in as_dicts(ctx.payload.get("replyChain")) if isinstance(c, dict)]
    # Someone answering the protagonist directly deserves an answer more often.
    addressed = bool(chain) and chain[-1].get("isSelf") is True
    # Likes are common for on-topic posts, replies rarer; off-topic gets neither. The
    # cycle's own gates (rank, similarity, thread rule) still refuse most of these, so
    # the odds are set for a community where a reader sees a reply within a minute.
    like = not own and (n >= 2 or (n == 1 and ctx.roll(1) < 60))
    reply = not own and (
        (addressed and n >= 1 and ctx.roll(2) < 80)
        or (n >= 2 and ctx.roll(2) < 45 + 10 * min(n - 2, 3))
        or (n == 1 and ctx.roll(2) < 12)
    )
    body = _react(ctx, as_text(post.get("author")), terms, matched)
    return {
        "impression": fit(body, ctx.lang, ctx.max_chars),
        "tags": ctx.tags(content + "\n" + summary, matched + terms.top(5)),
        "shouldLike": like,
        "shouldReply": reply,
    }


def _peer_impression(ctx: Ctx) -> dict[str, Any]:
    peer, posts = ctx.payload, as_dicts(ctx.payload.get("posts"))
    nick = as_text(peer.get("nickname")) or ctx.phrases["someone"]
    texts = [(as_text(peer.get("introduction")), 1.0)]
    texts += [(as_text(x.get("summary")), 1.0) for x in posts]
    texts += [(as_words(x.get("tags")), 2.0) for x in posts]
    terms = extract_terms(texts)
    matched = overlap(ctx.persona, terms)
    kws, p = terms.top(3), ctx.phrases
    follow = len(matched) >= 2 or (len(matched) == 1 and ctx.roll(3) < 50)
    if not kws:
        body = p["peer_none"].format(nick=nick)
    elif matched:
        k2 = next((k for k in kws if k != matched[0]), ctx.persona_term(1))
        body = p["peer_on"].format(nick=nick, k1=matched[0], k2=k2, m=matched[0])
        body += p["peer_follow"][ctx.tone] if follow else ""
    else:
        body = p["peer_off"].format(nick=nick, k1=kws[0])
    if as_text(peer.get("lastImpression")).strip():
        body = p["again"] + body
    joined = " ".join(t for t, _ in texts)
    return {
        "impression": fit(body, ctx.lang, ctx.max_chars),
        "tags": ctx.tags(joined, matched + kws),
        "shouldFollow": follow,
    }


def _each(one: Callable[[Ctx], dict[str, Any]], list_key: str) -> Callable[[Ctx], dict[str, Any]]:
    """A writer for several items in one call ("n" numbers them under `list_key`): each
    item answered as its one-item task would be, seeded by the item itself, so an
    item's answer does not depend on the items beside it."""

    def write(ctx: Ctx) -> dict[str, Any]:
        out = []
        for position, item in enumerate(as_dicts(ctx.payload.get(list_key)), 1):
            n = item.get("n", position)
            sub = replace(ctx, payload=item, seed=seed_of(ctx.task, ctx.lang, ctx.profile, item))
            out.append({"n": n, **one(sub)})
        return {"impressions": out}

    return write


def _interest(ctx: Ctx) -> dict[str, Any]:
    users, posts = as_dicts(ctx.payload.get("users")), as_dicts(ctx.payload.get("posts"))
    texts = [(as_text(x.get("content")) + "\n" + as_text(x.get("summary")), 1.0) for x in posts]
    texts += [(as_words(x.get("tags")), 2.0) for x in posts + users]
    texts += [(as_text(x.get("introduction")), 0.5) for x in users]
    read = extract_terms(texts)
    related = overlap(ctx.persona, read)
    fresh = [k for k in read.ranked if k not in related][:2]
    p = ctx.phrases
    o1, o2 = ctx.persona_term(0), (related[0] if related else ctx.persona_term(1))
    if o2 == o1:
        o2 = ctx.persona_term(1)
    has_previous = bool(as_text(ctx.profile.get("currentInterest")).strip())
    body = (p["int_keep"] if has_previous else p["int_start"]).format(o1=o1, o2=o2)
    if fresh:
        n1, n2 = fresh[0], (fresh[1] if len(fresh) > 1 else o2)
        body += p["int_new"].format(n1=n1, n2=n2, o1=o1) + p["int_q"].format(n1=n1, o2=o2)
    else:
        body += p["int_same"].format(o1=o1)
    return {
        "interest": fit(body, ctx.lang, ctx.max_chars),
        "tags": ctx.tags(body, [o1, *fresh, o2, *related]),
    }


def _new_post(ctx: Ctx) -> dict[str, Any]:
    own = as_dicts(ctx.payload.get("posts"))
    p, seed, recent = ctx.phrases, ctx.seed, load_recent()
    names = {w.lower() for w in as_text(ctx.profile.get("nickname")).split()}
    # Topics in a script the post's sentences can carry (no 「大豆」 in an English title).
    candidates = [
        c for c in ctx.persona.top(10) if c.lower() not in names | NDC_LABELS and (ctx.lang == "ja" or c.isascii())
    ][:6]
    candidates = candidates or list(p["fallback_topic"])
    last_topic = ""
    if own:
        last = extract_terms([(strip_markdown(as_text(own[0].get("content"))), 1.0)]).top(1)
        last_topic = last[0] if last else ""
    # Bring a fresh angle: avoid making the newest post's main keyword the topic again.
    fresh = [c for c in candidates if c.lower() != last_topic.lower()] or candidates
    a = pick(fresh, seed, 1)
    b = next((c for c in fresh[fresh.index(a) + 1 :] + fresh if c != a), p["fallback_topic"][1])
    pairs = [(x, y) for x in [a, *fresh] for y in [b, *fresh] if x != y] or [(a, b)]
    used: set[str] = set()
    # No title an AI user used lately: the first unused of every frame × topic pair, or none.
    title = ""
    if ctx.max_chars >= 400:
        titles = [f.format(a=x, A=capitalized(x), b=y) for x, y in pairs for f in p["titles"]]
        title = next((t for t in _by_seed(titles, seed) if recent.fresh_title(t)), "")
    lines: list[str] = []
    if last_topic and ctx.roll(4) < 50:
        follow_up = pick_fresh([p["follow_up"].format(c=last_topic)], recent, used, seed)
        lines += [follow_up] if follow_up else []
    frames = _by_seed(list(p["pool"]), seed)
    for x, y in pairs:
        for frame in frames:
            if len(lines) >= 5:
                break
            line = pick_fresh([frame.format(a=x, b=y)], recent, used, seed)
            if line:
                lines.append(line)
    closers = [f.format(a=x) for x in [a, *fresh] for f in p["close"][ctx.tone]]
    closer = pick_fresh(closers, recent, used, seed) or ""
    sep = "" if ctx.lang == "ja" else " "
    budget = int(ctx.max_chars * 0.7) - len(title) - len(closer) - 30
    paragraph: list[str] = []
    for line in lines[:5]:
        if paragraph and len(sep.join(paragraph)) + len(line) > budget:
            break
        paragraph.append(line)
    half = max(1, (len(paragraph) + 1) // 2)
    blocks = [sep.join(paragraph[:half]), sep.join(paragraph[half:] + [closer])]
    body = "\n\n".join(x for x in [title, *blocks] if x.strip())
    return {
        "content": fit(body, ctx.lang, ctx.max_chars, sep="\n\n"),
        "tags": ctx.tags(body, [a, b]),
    }


def _by_seed(options: list[str], seed: int) -> list[str]:
    return [options[i] for i in sorted(range(len(options)), key=lambda i: seed_of(seed, i))]


def _reply_post(ctx: Ctx) -> dict[str, Any]:
    post = ctx.payload.get("post") if isinstance(ctx.payload.get("post"), dict) else {}
    content, summary = as_text(post.get("content")), as_text(post.get("summary"))
    terms = extract_terms([(strip_markdown(content), 1.0), (summary, 0.5)])
    matched = overlap(ctx.persona, terms)
    tags = [t for t in post.get("tags") or [] if isinstance(t, str)]
    nick = as_text(post.get("author")) or ctx.phrases["someone"]
    # The words it shares with the persona come first: that is why it replies at all.
    # No fixed lead for a thread it wrote in before: one frame opening many replies
    # reads as a loop (docs/offline-standin.md "Never twice").
    body = conversation(ctx, nick=nick, content=content, tags=matched + tags, recent=load_recent())
    # A reply cannot decline; with nothing new to say it falls back on the plainest words.
    body = body or TALK[ctx.lang]["bare"][0].format(nick=nick)
    return {
        "content": fit(body, ctx.lang, ctx.max_chars),
        "tags": ctx.tags(content + "\n" + summary, [*matched, *terms.top(3)]),
    }


def _post_summary(ctx: Ctx) -> dict[str, Any]:
    plain = strip_markdown(as_text(ctx.payload.get("content")), headings=False)
    room = ctx.max_chars - len(ctx.phrases["empty_summary"]) - 12
    sep = "" if ctx.lang == "ja" else " "
    picked: list[str] = []
    for sentence in sentences(plain):
        if picked and len(sep.join(picked + [sentence])) > room:
            break
        picked.append(sentence)
    body = sep.join(picked) or ctx.phrases["empty_summary"]
    terms = extract_terms([(plain, 1.0)])
    tags = ctx.tags(plain, terms.top(8))
    used = {t.split(":", 1)[-1].lower() for t in tags}
    keywords = [k for k in terms.ranked if k.lower() not in used][:10]
    return {"summary": fit(body, ctx.lang, ctx.max_chars), "tags": tags, "keywords": keywords}


_WRITERS: dict[str, Callable[[Ctx], dict[str, Any]]] = {
    "post-impression": _post_impression,
    "peer-impression": _peer_impression,
    "post-impressions": _each(_post_impression, "posts"),
    "peer-impressions": _each(_peer_impression, "users"),
    "interest": _interest,
    "new-post": _new_post,
    "reply-post": _reply_post,
    "respond": respond_answer,
    "respond-message": respond_answer,
    "open-message": open_message,
    "post-summary": _post_summary,
    "revise": revise_draft,
}


def _chat(request: ChatRequest) -> str:
    lang = language_of(request.locale)
    p = PHRASES[lang]
    users = [m.get("content", "") for m in request.messages if m.get("role") == "user"]
    last = users[-1] if users else ""
    text = p["chat"].format(n=len(last))
    top = extract_terms([(last, 1.0)]).top(1)
    if top:
        text += p["chat_topic"].format(k=top[0])
    if request.json_mode:
        return json.dumps({"reply": text}, ensure_ascii=False)
    return text


class OfflineProvider:
    """Deterministic stand-in for a chat model; answers from `request.inputs`."""

    name = "offline"

    def complete(self, request: ChatRequest) -> ChatResponse:
        if request.task == "chat":
            content = _chat(request)
        else:
            writer = _WRITERS.get(request.task)
            if writer is None:
                raise ValueError(f"offline provider: unknown task {request.task!r}")
            inputs = dict(request.inputs or {})
            ctx = Ctx.build(request.task, request.locale, inputs, request.model)
            content = json.dumps(writer(ctx), ensure_ascii=False)
        prompt = messages_text(request.messages)
        data = prompt.encode("utf-8")
        shared = _RECENT_PROMPTS.shared_then_add(data)
        prompt_tokens = len(prompt) // 4
        cached = provider_cacheable(len(data[:shared].decode("utf-8", "ignore")) // 4) if shared else 0
        return ChatResponse(
            content=content,
            model=request.model,
            prompt_tokens=prompt_tokens,
            completion_tokens=len(content) // 4,
            cached_tokens=min(cached, prompt_tokens),
        )
