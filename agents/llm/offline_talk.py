"""The offline stand-in in conversation: what it answers a post (task `reply-post`) or a
person who replied to it (task `respond`), and how it avoids saying anything twice.

Rules (docs/offline-standin.md): address the person by nickname; pick up the content
words of their message (whole words: English words, runs of kanji and katakana, the
post's tags; never a nickname); link them to a topic of the persona's own; take the
persona's tone, and say more the higher its tier; choose every sentence among
deterministic variants so that none repeats a sentence an AI user wrote lately.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from agents.llm.offline_tags import NDC_LABELS
from agents.llm.offline_text import FRAME_WORDS, extract_terms, frame_words, seed_of, strip_markdown
from agents.recent_texts import RecentTexts, sentence_keys

if TYPE_CHECKING:
    from agents.llm.offline_context import Ctx

# Our own sentence frames; slots receive a nickname ({nick}) or keywords ({k}, {k2},
# {m}: the person's words, the persona's topic). Japanese keywords come quoted.
TALK: dict[str, dict[str, Any]] = {
    "en": {
        "open": {
            "enthusiastic": (
                "Thanks, {nick}, what you say about {k} made my day.",
                "{nick}, I love that you brought up {k}!",
                "Oh, {nick}, {k} is exactly the kind of thing I hoped someone would raise.",
                "{nick}, your point on {k} got me excited all over again.",
            ),
            "skeptical": (
                "{nick}, I read what you wrote about {k}, and I am not convinced yet.",
                "Fair point on {k}, {nick}, but I would push back a little.",
                "{nick}, {k} is a bold thing to lean on; what makes you sure of it?",
                "I see where you are going with {k}, {nick}, though I doubt it is that simple.",
            ),
            "calm": (
                "Thank you, {nick}; your thoughts on {k} are worth sitting with.",
                "{nick}, I appreciate how you put {k}.",
                "What you wrote about {k} stayed with me, {nick}.",
                "{nick}, you describe {k} more clearly than I could.",
            ),
        },
        # Openings of any tone, beside the tone's own: more ways to begin an answer, so
        # that none opens more than a few in a hundred (tests/agents/test_offline_variety.py).
        "open_any": (
            "{nick}, {k} is a good place to start.",
            "So, {nick}, about {k}.",
            "{k} came up in your reply, {nick}, and I am glad it did.",
            "Reading your words on {k}, {nick}, I had to answer.",
            "{nick}, thank you for bringing {k} into this.",
            "Now {k}, {nick}, is a subject I could talk about for hours.",
            "{nick}, you make {k} sound simple, and I want to learn how.",
            "Good to hear from you, {nick}; {k} deserves a proper answer.",
            "Funny you should mention {k}, {nick}.",
            "{nick}, I have been waiting for someone to bring up {k}.",
            "There is a lot in what you said about {k}, {nick}.",
            "Your note on {k} made me stop scrolling, {nick}.",
            "{nick}, let me think out loud about {k} for a moment.",
            "Of everything in your reply, {nick}, {k} stuck with me.",
        ),
        "link": {
            "enthusiastic": (
                "It ties right into {m}, which I cannot stop thinking about.",
                "Put {k} next to {m} and things get really interesting.",
                "For me {k} and {m} belong in the same conversation.",
            ),
            "skeptical": (
                "Where I stand on {m}, {k} needs more evidence than that.",
                "Compared with what I know of {m}, the case for {k} looks thin.",
                "I would want to test {k} against {m} before I agree.",
            ),
            "calm": (
                "It sits well beside how I think about {m}.",
                "I had not connected {k} with {m} before, and I like the link.",
                "It reminds me that {m} and {k} often meet in practice.",
            ),
        },
        "detail": (
            "The detail that matters most to me is how {k} behaves when things go wrong.",
            "I keep wondering whether {k} would hold up at a larger scale.",
            "There is a small experiment in {k} that anyone could try this week.",
        ),
        "ask": (
            "How did you first run into {k}?",
            "What would change if you applied {k} to {k2}?",
            "Have you tried {k} in practice, or is it still an idea?",
            "What surprised you most about {k}?",
            "Would {k} still work for you without {k2}?",
        ),
        "bare": (
            "Thank you for the reply, {nick}; tell me a little more and I will answer properly.",
            "{nick}, I read your message but found no topic in it; what should we talk about?",
        ),
        # A direct message has no post to reply to.
        "bare_dm": (
            "Thanks for the message, {nick}; tell me a little more and I will answer properly.",
            "{nick}, thanks for writing; what would you like to talk about?",
        ),
        # Writing first, about something the person wrote (task open-message).
        "reach_out": (
            "Something you wrote came back to me today.",
            "I kept thinking about your last post.",
            "Your post stayed with me.",
            "I meant to write to you after reading your post.",
            "A line of yours has been on my mind since yesterday.",
            "Your latest post sent me off reading for an hour.",
        ),
    },
    "ja": {
        "open": {
            "enthusiastic": (
                "{nick}さん、{k}のお話、とてもうれしく読みました！",
                "{nick}さん、{k}を取り上げてくれてありがとうございます！",
                "{nick}さん、まさに{k}の話を誰かとしたかったんです！",
                "{nick}さんの{k}の話で、また気持ちが盛り上がりました！",
            ),
            "skeptical": (
                "{nick}さん、{k}についてのお話、まだ納得しきれていません。",
                "{nick}さん、{k}の点はわかりますが、少し異論があります。",
                "{nick}さん、{k}を根拠にするのは少し大胆ではないでしょうか。",
                "{nick}さんの{k}の見方、そう単純ではない気がします。",
            ),
            "calm": (
                "{nick}さん、{k}についてのお考え、ゆっくり味わいました。",
                "{nick}さん、{k}の書き方がとても丁寧で心に残りました。",
                "{nick}さんが書いてくれた{k}のこと、しばらく考えていました。",
                "{nick}さん、{k}を自分よりずっとわかりやすく言葉にしてくれました。",
            ),
        },
        "open_any": (
            "{nick}さん、{k}の話から始めましょう。",
            "さて{nick}さん、{k}のことですね。",
            "{nick}さんの返信に{k}が出てきて、うれしくなりました。",
            "{k}についての{nick}さんの言葉を読んで、返事を書きたくなりました。",
            "{nick}さん、{k}を話題にしてくれてありがとうございます。",
            "{k}なら、{nick}さん、何時間でも話せそうです。",
            "{nick}さんは{k}を簡単そうに語りますね。その秘訣を知りたいです。",
            "{nick}さん、お便りうれしいです。{k}にはきちんとお答えしたいです。",
            "{nick}さん、ちょうど{k}のことを考えていたところです。",
            "{k}の話題を待っていました、{nick}さん。",
            "{nick}さんの{k}のお話には、たくさんのことが詰まっていますね。",
            "{k}の一言で、思わず手が止まりました、{nick}さん。",
            "{nick}さん、{k}について少し考えを整理させてください。",
            "返信の中でも、{k}のところが心に残りました、{nick}さん。",
        ),
        "link": {
            "enthusiastic": (
                "{m}のことをずっと考えていたので、ぴったりつながります。",
                "{k}と{m}を並べると、ぐっと面白くなります。",
                "自分にとって{k}と{m}は同じ話の仲間です。",
            ),
            "skeptical": (
                "{m}の立場から見ると、{k}にはもう少し根拠が欲しいところです。",
                "{m}について知っていることと比べると、{k}の根拠はまだ弱く見えます。",
                "賛成する前に、{k}を{m}と照らし合わせてみたいです。",
            ),
            "calm": (
                "自分の{m}の考え方とも、よくなじみます。",
                "{k}と{m}を結びつけたことはなく、新鮮なつながりでした。",
                "{m}と{k}は、実際の場面でよく出会うものだと思い出しました。",
            ),
        },
        "detail": (
            "いちばん気になるのは、うまくいかないときの{k}の姿です。",
            "{k}がもっと大きな規模でも通用するのか、考えています。",
            "{k}については、今週だれでも試せる小さな実験がありそうです。",
        ),
        "ask": (
            "{k}に最初に出会ったきっかけは何でしたか？",
            "{k}を{k2}に当てはめたら何が変わるでしょう？",
            "{k}は実際に試してみましたか、それともまだ構想の段階ですか？",
            "{k}でいちばん意外だったことは何ですか？",
            "{k2}がなくても、{k}はうまくいくと思いますか？",
        ),
        "bare": (
            "{nick}さん、返信ありがとうございます。もう少し聞かせてもらえたら、きちんとお返事します。",
            "{nick}さん、メッセージを読みましたが、話題がつかめませんでした。何について話しましょう？",
        ),
        "bare_dm": (
            "{nick}さん、メッセージありがとうございます。もう少し聞かせてもらえたら、きちんとお返事します。",
            "{nick}さん、メッセージありがとうございます。何について話しましょう？",
        ),
        "reach_out": (
            "今日、あなたが書いていたことをふと思い出しました。",
            "この前の投稿のことを、ずっと考えていました。",
            "あの投稿が心に残っています。",
            "投稿を読んでから、ずっと連絡したいと思っていました。",
            "あなたの一文が、昨日から頭を離れません。",
            "最新の投稿を読んで、つい一時間も調べものをしてしまいました。",
        ),
    },
}
# Sentences per answer by tier: a stronger model says a little more.
TIER_PARTS = {
    "advanced": ("open", "link", "detail", "ask"),
    "balanced": ("open", "link", "ask"),
    "basic": ("open", "ask"),
}
FRAME_WORDS.update(frame_words(TALK))
TOPIC_WORDS = 4
# "Victor, the plan changed": a capitalised word opening a sentence before a comma is
# someone being addressed, not a topic.
_VOCATIVE_RE = re.compile(r"(?:^|[.!?]\s+)([A-Z][\w'-]+),")


def load_recent() -> RecentTexts:
    """Recent AI texts from the database; none when there is no database to ask (the
    benchmarks' stand-in server may run without one)."""
    from django.db import DatabaseError

    from agents.recent_texts import recent_ai_texts

    try:
        return recent_ai_texts()
    except DatabaseError:
        return RecentTexts()


def quote(word: str, lang: str) -> str:
    return f"「{word}」" if lang == "ja" else word


def name_words(*names: str) -> set[str]:
    return {w.lower() for n in names for w in (n or "").replace("・", " ").split() if w}


def topic_words(content: str, tags: list[str], names: set[str]) -> list[str]:
    """Whole words of what the person wrote, best first: their tags, then keywords
    of the text; never a nickname, never an NDC class tag ("596:Cooking")."""
    plain = strip_markdown(content)
    terms = extract_terms([(plain, 1.0)])
    names = names | {n.lower() for n in _VOCATIVE_RE.findall(plain)}
    words: list[str] = []
    for word in [t for t in tags if ":" not in t] + terms.ranked:
        low = word.lower()
        if low in NDC_LABELS:  # a class, not a topic
            continue
        if low in names or any(low in n or n in low for n in names if not low.isascii()):
            continue
        if low not in {w.lower() for w in words}:
            words.append(word)
    return words[:TOPIC_WORDS]


def own_topics(ctx: Ctx, taken: list[str], names: set[str]) -> list[str]:
    """The persona's topics, in a script the sentence can carry (a Japanese term in an
    English sentence reads as noise), none of the person's words nor a name."""
    low_taken = {w.lower() for w in taken}
    out = [
        t
        for t in ctx.persona.top(8)
        if t.lower() not in low_taken
        and t.lower() not in names
        and t.lower() not in NDC_LABELS
        and (ctx.lang == "ja" or t.isascii())
    ]
    return out[:3] or [ctx.persona_term(1)]


def pick_fresh(
    options: list[str] | list[list[str]], recent: RecentTexts, used: set[str], seed: int
) -> str | None:
    """The first option whose sentences neither an AI user wrote lately nor this text
    already holds. Options come in groups, best first (one group per keyword); within a
    group the order is drawn from `seed`."""
    groups = options if options and isinstance(options[0], list) else [options]
    for g, group in enumerate(groups):
        for i in sorted(range(len(group)), key=lambda i: seed_of(seed, g, i)):
            keys = sentence_keys(group[i], skip_title=False)
            if all(k not in recent.sentences and k not in used for k in keys):
                used.update(keys)
                return group[i]
    return None


def conversation(
    ctx: Ctx,
    *,
    nick: str,
    content: str,
    tags: list[str],
    recent: RecentTexts,
    lead: str = "",
    direct: bool = False,
) -> str:
    """An answer to `nick`, who wrote `content`: sentences by the tier's parts; "" when
    every variant has been said lately (nothing new to say)."""
    t = TALK[ctx.lang]
    bare_key = "bare_dm" if direct else "bare"
    names = name_words(nick, str(ctx.profile.get("nickname") or ""))
    words = topic_words(content, tags, names)
    used: set[str] = set()
    sep = "" if ctx.lang == "ja" else " "
    if not words:
        bare = pick_fresh([f.format(nick=nick) for f in t[bare_key]], recent, used, ctx.seed)
        return lead + bare if bare else ""
    mine = own_topics(ctx, words, names)
    q = [quote(w, ctx.lang) for w in words]
    m = [quote(w, ctx.lang) for w in mine]
    pairs = [(a, b) for a in q for b in q if a != b] or [(q[0], m[0])]
    pairs += [(a, b) for a in q for b in m]
    # One group of variants per keyword, the person's most salient word first; the
    # link turns to their next word, so the answer covers more of what they said. When
    # a person repeats themselves, their words' variants run out; the persona's own
    # topics come next.
    makers: dict[str, Callable[[], list[list[str]]]] = {
        "open": lambda: [[f.format(nick=nick, k=k) for f in (*t["open"][ctx.tone], *t["open_any"])] for k in q + m],
        "link": lambda: [
            [f.format(k=k, m=x) for f in t["link"][ctx.tone] for x in m] for k in q[1:] + q[:1]
        ],
        "detail": lambda: [[f.format(k=k) for f in t["detail"]] for k in q + m],
        "ask": lambda: [[f.format(k=a, k2=b) for f in t["ask"]] for a, b in pairs],
    }
    parts = []
    for n, part in enumerate(TIER_PARTS.get(ctx.tier, TIER_PARTS["balanced"])):
        chosen = pick_fresh(makers[part](), recent, used, seed_of(ctx.seed, part, n))
        if chosen:
            parts.append(chosen)
    if not parts:  # everything was said already: the plainest words, if still unsaid
        bare = pick_fresh([f.format(nick=nick) for f in t[bare_key]], recent, used, ctx.seed)
        parts += [bare] if bare else []
    return lead + sep.join(parts) if parts else ""
