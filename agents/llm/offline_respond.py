"""The offline stand-in's answer to a person who replied to an AI user (task
`respond`) or sent it a direct message (task `respond-message`): it addresses them by nickname, picks up the content words of their message
in a sentence of their language, and takes the persona's tone and topic; deterministic,
and marked as the stand-in like every text it writes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agents.llm.offline_text import extract_terms, fit, pick, strip_markdown

if TYPE_CHECKING:
    from agents.llm.offline import _Ctx

# Our own sentence frames; the slots only ever receive a nickname or keywords.
RESPOND_PHRASES: dict[str, dict[str, Any]] = {
    "en": {
        "greet": {
            "enthusiastic": ("Thanks for this, {nick}!", "{nick}, great to hear from you!"),
            "skeptical": ("Fair enough, {nick}, but hear me out.", "{nick}, I am not so sure."),
            "calm": ("Thank you, {nick}.", "Good to read you, {nick}."),
        },
        "pickup": {
            "enthusiastic": " What you say about {k} is exactly where my thoughts on {m} were heading.",
            "skeptical": " You make a case for {k}, yet from where I stand on {m} it needs more evidence.",
            "calm": " Your words about {k} sit well beside how I think about {m}.",
        },
        "both": '"{k1}" and "{k2}"',
        "one": '"{k1}"',
        "bare": " I read your reply, though I am not sure what to add yet.",
        "bare_dm": " Thanks for the message; I am still thinking about what to say.",
        "ask": (
            ' What first made you think about "{k1}"?',
            ' How does "{k1}" work out for you in practice?',
            ' Shall we look at "{k1}" a little more closely?',
        ),
    },
    "ja": {
        "greet": {
            "enthusiastic": ("{nick}さん、返信ありがとうございます！", "{nick}さん、うれしい返信です！"),
            "skeptical": ("{nick}さん、なるほど。ただ、少し引っかかります。", "{nick}さん、そうでしょうか。"),
            "calm": ("{nick}さん、ありがとうございます。", "{nick}さん、読ませていただきました。"),
        },
        "pickup": {
            "enthusiastic": "{k}のお話、ちょうど「{m}」について考えていたことにつながります。",
            "skeptical": "{k}については、「{m}」の立場から見るともう少し根拠が欲しいところです。",
            "calm": "{k}のお話は、自分の「{m}」の考え方とよくなじみます。",
        },
        "both": "「{k1}」や「{k2}」",
        "one": "「{k1}」",
        "bare": "返信を読みました。まだ何を足せるかはわかりません。",
        "bare_dm": "メッセージありがとうございます。何と返すか考えています。",
        "ask": (
            "「{k1}」を意識したきっかけは何でしたか？",
            "「{k1}」は実際にはどう試していますか？",
            "「{k1}」について、もう少し詳しく聞かせてください。",
        ),
    },
}


def respond_answer(ctx: _Ctx) -> dict[str, Any]:
    message = ctx.payload.get("message") if isinstance(ctx.payload.get("message"), dict) else {}
    content = message.get("content") if isinstance(message.get("content"), str) else ""
    nick = message.get("author") if isinstance(message.get("author"), str) else ""
    p = RESPOND_PHRASES[ctx.lang]
    words = extract_terms([(strip_markdown(content), 1.0)]).top(2)
    body = pick(p["greet"][ctx.tone], ctx.seed).format(nick=nick or ctx.phrases["someone"])
    if words:
        k1 = words[0]
        if len(words) > 1:
            said = p["both"].format(k1=k1, k2=words[1])
        else:
            said = p["one"].format(k1=k1)
        taken = {w.lower() for w in words}
        # A topic of its own, in a script the sentence can carry (a Japanese persona
        # term inside an English sentence reads as noise).
        m = next(
            (t for t in ctx.persona.top(6) if t.lower() not in taken and (ctx.lang == "ja" or t.isascii())),
            None,
        )
        body += p["pickup"][ctx.tone].format(k=said, m=m or ctx.persona_term(1))
        body += pick(p["ask"], ctx.seed, 2).format(k1=k1)
    else:
        # A direct message (task respond-message) has a conversation, not a thread.
        body += p["bare_dm" if "conversation" in ctx.payload else "bare"]
    return {
        "answer": True,
        "content": fit(body, ctx.lang, ctx.max_chars),
        "tags": ctx.tags(content, words),
    }
