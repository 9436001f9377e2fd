"""Texts of the synthetic community: posts (Markdown and its plain text), summaries,
keywords, tags, introductions, personalities and interests.

Everything is drawn from a `random.Random` the caller seeds, so a chunk of posts is
the same bytes on every run. No Django.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from agents.textmeasure import truncate_pt

from . import vocab

# Length classes: share of posts and the range of sentences. Most posts are a line or
# two; a long tail are articles with headings (capped below the 10,000-unit limit).
LENGTH_CLASSES = (
    ("short", 0.62, 1, 2),
    ("medium", 0.28, 3, 8),
    ("long", 0.08, 10, 30),
    ("article", 0.02, 40, 120),
)
MAX_CONTENT = {"en": 9000, "ja": 4500}
SUMMARY_SENTENCES = 2
SUMMARY_MAX = {"en": 400, "ja": 200}
KEYWORDS_MAX = 10


@dataclass
class PostText:
    content: str
    plain: str
    summary: str
    keywords: list[str]
    author_tags: list[str]
    ai_tags: list[str]


def _nouns(topic: int, lang: str) -> tuple[str, ...]:
    return vocab.TOPICS[topic][3] if lang == "en" else vocab.TOPICS[topic][4]


def _sentence(rng: random.Random, lang: str, topic: int, used: list[str]) -> str:
    nouns = _nouns(topic, lang)
    n1, n2, n3 = rng.sample(nouns, 3)
    for n in (n1, n2):
        if n not in used:
            used.append(n)
    if lang == "en":
        frame = rng.choice(vocab.EN_FRAMES)
        text = frame.format(
            opener=rng.choice(vocab.EN_OPENERS), time=rng.choice(vocab.EN_TIMES),
            verb=rng.choice(vocab.TOPICS[topic][5]), adj=rng.choice(vocab.EN_ADJECTIVES),
            n1=n1, n2=n2, n3=n3,
        ).strip()
        return text[:1].upper() + text[1:]
    frame = rng.choice(vocab.JA_FRAMES)
    return frame.format(
        opener=rng.choice(vocab.JA_OPENERS), time=rng.choice(vocab.JA_TIMES),
        adj=rng.choice(vocab.JA_ADJECTIVES), n1=n1, n2=n2, n3=n3,
    )


def pick_length(rng: random.Random) -> tuple[str, int]:
    roll = rng.random()
    for name, share, low, high in LENGTH_CLASSES:
        if roll < share:
            return name, rng.randint(low, high)
        roll -= share
    name, _, low, high = LENGTH_CLASSES[-1]
    return name, rng.randint(low, high)


def post_text(rng: random.Random, *, lang: str, topic: int, side_topic: int, is_reply: bool) -> PostText:
    kind, count = pick_length(rng)
    if is_reply and kind in ("long", "article"):
        kind, count = "medium", rng.randint(2, 5)
    sep = " " if lang == "en" else ""
    used: list[str] = []
    sentences = [
        _sentence(rng, lang, side_topic if rng.random() < 0.2 else topic, used) for _ in range(count)
    ]
    limit = MAX_CONTENT[lang]
    if kind in ("short", "medium"):
        cut = max(1, len(sentences) // 2) if count > 4 else len(sentences)
        paragraphs = [sep.join(sentences[:cut]), sep.join(sentences[cut:])]
        content = "\n\n".join(p for p in paragraphs if p)
        plain = content
    else:
        blocks_md: list[str] = []
        blocks_plain: list[str] = []
        headings = vocab.EN_HEADINGS if lang == "en" else vocab.JA_HEADINGS
        if kind == "article":
            title = vocab.TOPICS[topic][1] if lang == "en" else vocab.TOPICS[topic][2]
            title = f"{title}: {used[0]}" if used else title
            blocks_md.append(f"# {title}")
            blocks_plain.append(title)
        i, size, was_list = 0, sum(len(b) + 2 for b in blocks_md), False
        while i < len(sentences):
            n = rng.randint(3, 6)
            items = sentences[i : i + n]
            i += n
            new_md, new_plain = [], []
            if kind == "article" and blocks_md and rng.random() < 0.4:
                heading = rng.choice(headings)
                new_md.append(f"## {heading}")
                new_plain.append(heading)
            # Two lists in a row would be one list in Markdown; keep them apart.
            as_list = not was_list and not new_md and rng.random() < 0.15
            if as_list:
                new_md.append("\n".join(f"- {s}" for s in items))
                new_plain.append(new_md[-1])
            else:
                new_md.append(sep.join(items))
                new_plain.append(new_md[-1])
            grown = sum(len(b) + 2 for b in new_md)
            if blocks_md and size + grown > limit:
                break
            was_list = as_list
            blocks_md += new_md
            blocks_plain += new_plain
            size += grown
        content = "\n\n".join(blocks_md)
        plain = "\n\n".join(blocks_plain)
    summary = sep.join(sentences[:SUMMARY_SENTENCES])[: SUMMARY_MAX[lang]]
    ndc, en_label, ja_label = vocab.TOPICS[topic][:3]
    label = en_label if lang == "en" else ja_label
    keywords = used[:KEYWORDS_MAX]
    author_tags: list[str] = []
    roll = rng.random()
    if roll < 0.55:
        author_tags = [label.lower()] + ([keywords[0]] if roll < 0.25 and keywords else [])
    ai_tags = [f"{ndc}:{label}".lower()] + [k.lower() for k in keywords[:2]]
    return PostText(content, plain, summary, keywords, author_tags, ai_tags)


def introduction(rng: random.Random, *, lang: str, topics: list[int]) -> str:
    if rng.random() < 0.15:
        return ""
    used: list[str] = []
    sentences = [_sentence(rng, lang, t, used) for t in topics[: rng.randint(1, len(topics))]]
    if lang == "en":
        labels = ", ".join(vocab.TOPICS[t][1].lower() for t in topics)
        return f"Mostly here for {labels}. " + " ".join(sentences)
    labels = "、".join(vocab.TOPICS[t][2] for t in topics)
    return f"{labels}のことをよく書きます。" + "".join(sentences)


def personality(rng: random.Random, *, lang: str, topics: list[int]) -> str:
    nouns = [n for t in topics for n in rng.sample(_nouns(t, lang), 2)]
    if lang == "en":
        labels = " and ".join(vocab.TOPICS[t][1].lower() for t in topics)
        return (
            f"A {rng.choice(vocab.TEMPERAMENTS)} devotee of {labels} who {rng.choice(vocab.VOICES)} "
            f"and {rng.choice(vocab.QUIRKS)}. Cares deeply about {', '.join(nouns)}. "
            f"Dislikes vague claims; likes concrete stories."
        )
    labels = "と".join(vocab.TOPICS[t][2] for t in topics)
    return (
        f"{rng.choice(vocab.JA_TEMPERAMENTS)}{labels}好き。{rng.choice(vocab.JA_VOICES)}。"
        f"{'、'.join(nouns)}にこだわりがある。曖昧な主張は嫌いで、具体的な話が好き。"
    )


def interest(rng: random.Random, *, lang: str, topics: list[int]) -> tuple[str, list[str]]:
    used: list[str] = []
    sentences = [_sentence(rng, lang, t, used) for t in topics for _ in range(2)]
    ndc, en_label, ja_label = vocab.TOPICS[topics[0]][:3]
    tags = [f"{ndc}:{en_label if lang == 'en' else ja_label}".lower()] + [u.lower() for u in used[:3]]
    return (" " if lang == "en" else "").join(sentences), tags


def nickname(rng: random.Random, *, lang: str, index: int) -> str:
    base = rng.choice(vocab.FIRST_NAMES if lang == "en" else vocab.JA_NAMES)
    return f"{base} {index}"


# The generated Markdown uses only paragraphs, "#"/"##" headings and "- " lists, and
# `PostText.plain` is exactly what `sns.reads.markdown.to_plain_text` makes of it; so the
# function below gives what `post_embedding_input` would, without parsing a million posts
# as Markdown (tests/bench checks the equivalence). Snippets are made by the site's own
# `sns.mdtree.make_snippet` (about 0.1 ms a post).


def embedding_input(body: PostText, snippet_pt: int) -> str:
    folded = re.sub(r"\n+", "\n", re.sub(r"[ \t]+", " ", body.plain)).strip()
    lines = [body.summary.strip()]
    if body.keywords:
        lines += ["", *body.keywords]
    tail = truncate_pt(folded, snippet_pt)
    if tail:
        lines += ["", tail]
    return "\n".join(lines)
