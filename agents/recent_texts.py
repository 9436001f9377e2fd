"""What AI users wrote lately, as titles and sentences, so nothing is said twice.

One definition of a post's *title* (its first non-empty line, heading marks and case
dropped) and of its *sentences*, shared by the offline stand-in (which avoids repeating
its own texts, `docs/offline-standin.md`) and the cycle's new-post stage (which skips a
generated post whose title an AI user already used, whoever wrote the text). The window
is bounded: the newest `RECENT_AI_POSTS` posts written by AI users, one query.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

RECENT_AI_POSTS = 200
# The stand-in's markers are not part of what was said.
_MARKERS = ("(offline stand-in)", "（オフライン代替）")
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")
_SPACE_RE = re.compile(r"\s+")
_EMPHASIS_RE = re.compile(r"\*\*|__")
_QUOTED_RE = re.compile(r"「[^」]*」|\"[^\"]*\"")
_JA_ADDRESS_RE = re.compile(r"^[^、。]{1,24}さん[、,]\s*")
_WORD_RE = re.compile(r"[A-Za-z']+")
FRAME_WORDS = 3  # English: an opening frame is its first three words (names left out)
FRAME_CHARS = 8  # Japanese: its first eight characters (quotes and address left out)
_TRIM = " \t\"'「」『』*_`#>-–—…"


def _clean(text: str) -> str:
    for marker in _MARKERS:
        text = text.replace(marker, " ")
    return text


def strip_markers(text: str) -> str:
    """The text without the stand-in's markers (they are not part of what was said)."""
    return _clean(text or "")


def normalise(text: str) -> str:
    return _SPACE_RE.sub(" ", text).strip(_TRIM).lower()


def title_of(content: str) -> str:
    """The first non-empty line of a post, without heading marks: what a reader sees
    as its title (for a post without a heading, its opening line)."""
    for line in _clean(content or "").splitlines():
        key = normalise(line.lstrip("#"))
        if key:
            return key[:200]
    return ""


def sentence_keys(content: str, *, skip_title: bool = True) -> list[str]:
    """The sentences of a post that count as saying something (a title line is not a
    sentence; fragments under 12 characters, or 6 in Japanese, are not either)."""
    lines = [ln for ln in _clean(content or "").splitlines() if ln.strip()]
    if skip_title and lines and lines[0].lstrip().startswith("#"):
        lines = lines[1:]
    keys = []
    for line in lines:
        # Emphasis marks would hide a sentence end ("**Who else?** Tell me…" is two).
        for part in _SENTENCE_RE.split(_EMPHASIS_RE.sub("", line)):
            key = normalise(part)
            if len(key) >= (12 if key.isascii() else 6):
                keys.append(key)
    return keys


def opening_frame(content: str) -> str:
    """How a text opens, its topic words left out, to count texts that open the same
    way (bench/demo_quality, tests/agents/test_offline_variety.py): its first sentence
    (a title line counts) with quoted words masked; then in English its first three
    words that are not capitalised (names, and the capital that opens a sentence),
    in Japanese its first eight characters after an address ("…さん、")."""
    lines = [ln for ln in strip_markers(content).splitlines() if ln.strip()]
    if not lines:
        return ""
    first = _SENTENCE_RE.split(_EMPHASIS_RE.sub("", lines[0].lstrip("# ")))[0]
    first = _QUOTED_RE.sub("「」", first).strip()
    if first.isascii():
        words = [w.lower() for w in _WORD_RE.findall(first) if not w[:1].isupper() or w == "I"]
        return " ".join(words[:FRAME_WORDS])
    return _JA_ADDRESS_RE.sub("", first)[:FRAME_CHARS]


@dataclass(frozen=True)
class RecentTexts:
    titles: frozenset[str] = field(default_factory=frozenset)
    root_titles: frozenset[str] = field(default_factory=frozenset)
    sentences: frozenset[str] = field(default_factory=frozenset)

    def fresh_sentence(self, text: str) -> bool:
        return all(k not in self.sentences for k in sentence_keys(text, skip_title=False))

    def fresh_title(self, text: str) -> bool:
        return title_of(text) not in self.titles


def _recent_ai_rows(limit: int):
    """(content, reply_to) of the newest `limit` posts written by AI users."""
    from sns.models import Post

    return (
        Post.objects.filter(owner__ai_model__isnull=False)
        .order_by("-id")
        .values_list("content", "reply_to")[:limit]
    )


def _recent_ai_messages(limit: int):
    """The content of the newest `limit` direct messages written by AI users."""
    from sns.models.messages import Message

    return Message.objects.filter(sender__ai_model__isnull=False).order_by("-id").values_list("content", flat=True)[:limit]


def recent_ai_texts(limit: int = RECENT_AI_POSTS) -> RecentTexts:
    """Titles and sentences of the newest `limit` posts written by AI users, and the
    sentences of their newest `limit` direct messages (an answer to a message must not
    repeat one either)."""
    titles, roots, sentences = set(), set(), set()
    for content, reply_to in _recent_ai_rows(limit):
        title = title_of(content)
        titles.add(title)
        if reply_to is None:
            roots.add(title)
        sentences.update(sentence_keys(content))
    for content in _recent_ai_messages(limit):
        sentences.update(sentence_keys(content, skip_title=False))
    return RecentTexts(frozenset(titles), frozenset(roots), frozenset(sentences))
