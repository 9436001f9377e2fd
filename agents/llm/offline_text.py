"""Language side of the offline LLM stand-in: keywords, overlap and tone (its sentence
frames are in offline_phrases.py and offline_talk.py).

Deliberately simple and fully deterministic: frequency-ranked keywords (English words
minus stop-words, plus runs of kanji and katakana for Japanese) and a crude suffix
stemmer so that "gardening" meets "gardener". Nothing here is random; variation comes
from `seed_of` over the inputs.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from agents.llm.offline_phrases import PHRASES  # noqa: F401 - the writers take it from here

STAND_IN = {"en": "(offline stand-in)", "ja": "（オフライン代替）"}

_TOKEN_RE = re.compile(
    r"(?P<lat>[A-Za-z][A-Za-z0-9'+#-]*)"
    # A Japanese word: a run of kanji and katakana ("ライ麦", "サワー種"), which ends at
    # kana particles and okurigana; a run of one character is too short to be a topic.
    r"|(?P<ja>[\u30A1-\u30FA\u30FC\u4E00-\u9FFF\u3005]{2,})"
)
_URL_RE = re.compile(r"https?://\S+")

STOP_WORDS = frozenset(
    """
    a about above after again against all almost also although always am among an and
    another any anyone anything are aren't around as at away back be because been before
    being below between both but by can can't cannot could couldn't did didn't do does
    doesn't doing don't done down during each either else enough even ever every everyone
    everything few first for from further get gets getting give given go goes going gone
    good got great had hadn't has hasn't have haven't having he her here hers herself him
    himself his how however i i'd i'll i'm i've if in into is isn't it it's its itself
    just keep kind know last later least less let let's like liked likes little lot lots
    love loves made make makes making many may maybe me might mine more most much must my
    myself need needs never new next nice no nor not nothing now of off often oh ok okay
    on once one only or other others our ours ourselves out over own part people perhaps
    person post posts quite rather re really right said same say says see seem seems she
    should shouldn't show since so some someone something sometimes soon still such sure
    take than that that's the their theirs them themselves then there there's these they
    they're thing things think this those though through thus time times to today too
    took toward try two under until up upon us use used uses using very via want wants
    was wasn't way ways we we're well were weren't what what's when where whether which
    while who whom whose why will with within without won't would wouldn't yeah year years
    yes yet you you'd you'll you're you've your yours yourself day days week weeks enjoy
    enjoys bit able writes write writing speaks speak speaking voice tone style user users
    character personality someone's who's each other's short long sentences sentence
    hello hi name call called profile interested interest interests currently lately
    add added almost already another anyway ask asked bad best better big came come comes
    coming cut different does easy else end ended fact far feel feels felt find found
    gave happen happened hard help high keeping kept large late lead least left lose lost
    low main mean means meant move moved moving near nearly old open put ran read real
    run said saw seen set small start started stay stayed stop tell tells thanks thank
    told top true turn turned unless usually wonderful amazing awesome actually probably
    simply instead especially certainly exactly already again enough whole half full
    thick thicker thin long longer short shorter able ago become became becomes came
    """.split()
)
JA_STOP_WORDS = frozenset(
    "自分 今日 最近 感じ 本当 部分 方法 意味 以上 程度 今回 一番 全部 場合 必要 可能 大切 "
    "言葉 人物 性格 口調 時間 投稿 返信 ユーザー コメント 話題 興味 関心 好奇心 一緒 毎日 "
    "普段 大好 自己紹介 紹介 丁寧 文章".split()
)

# Tone words describe how a persona speaks, not what it talks about.
TONE_CUES: dict[str, tuple[str, ...]] = {
    "enthusiastic": (
        "cheerful", "enthusiastic", "excited", "energetic", "passionate", "optimistic",
        "upbeat", "bubbly", "exuberant", "陽気", "明るい", "元気", "情熱", "熱血", "楽観",
    ),
    "skeptical": (
        "skeptical", "sceptical", "critical", "cynical", "grumpy", "sarcastic", "doubt",
        "rigorous", "blunt", "contrarian", "懐疑", "皮肉", "辛口", "批判", "頑固", "理屈",
    ),
}
_TONE_WORDS = frozenset(w for cues in TONE_CUES.values() for w in cues if w.isascii()) | {
    "curious", "calm", "friendly", "quiet", "gentle", "polite", "casual", "funny", "witty",
}

def frame_words(frames: Any) -> set[str]:
    """The words of our own sentence frames (slots and topics aside): read back from
    stand-in texts, "remain", "drawn" or 「見方」 would otherwise become topics."""
    if isinstance(frames, dict):
        return {w for k, v in frames.items() if k != "fallback_topic" for w in frame_words(v)}
    if isinstance(frames, (list, tuple)):
        return {w for v in frames for w in frame_words(v)}
    if not isinstance(frames, str):
        return set()
    text = re.sub(r"\{\w+\}", " ", frames)
    return {m.group(0).lower().strip("'-") for m in _TOKEN_RE.finditer(text)}


# Filled from PHRASES below and by the modules with frames of their own (offline_talk).
FRAME_WORDS: set[str] = set()


FRAME_WORDS.update(frame_words(PHRASES))


def language_of(locale: str | None) -> str:
    loc = (locale or "").strip().replace("_", "-")
    return "ja" if loc == "ja" or loc.startswith("ja-") else "en"


def seed_of(*parts: Any) -> int:
    """A stable integer from arbitrary JSON-like inputs (not Python's salted hash())."""
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return int.from_bytes(hashlib.sha256(blob.encode("utf-8")).digest()[:8], "big")


def pick(options: Sequence[Any], seed: int, salt: int = 0) -> Any:
    return options[(seed >> (salt * 5 % 48)) % len(options)]


def stem(word: str) -> str:
    """Crude English suffix stripping, enough to match word families."""
    w = word.lower()
    if not w.isascii() or len(w) <= 3:
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("oes"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix, min_len in (("ing", 6), ("ed", 5), ("er", 7)):
        if w.endswith(suffix) and len(w) >= min_len:
            w = w[: -len(suffix)]
            if len(w) > 2 and w[-1] == w[-2] and w[-1] not in "aeiouls":
                w = w[:-1]
            break
    return w


def _starts_sentence(text: str, index: int) -> bool:
    i = index - 1
    while i >= 0 and text[i] in " \t\"'(":
        i -= 1
    return i < 0 or text[i] in ".!?:;\n#>-"


@dataclass
class Terms:
    """Keywords of a text: `ranked` display forms by score, `keys` their match keys."""

    ranked: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)

    def top(self, n: int) -> list[str]:
        return self.ranked[:n]


_ED_NOUNS = frozenset({"speed", "breed", "greed", "creed", "steed", "tweed", "hundred", "bread"})


def _is_past_tense(low: str) -> bool:
    """"looked", "tried": verbs make poor topics; short -ed words ("seed", "feed")
    and a few nouns are kept."""
    return len(low) > 4 and low.endswith("ed") and low not in _ED_NOUNS


_PARTICLES = frozenset("のはがをにでともへやかよねだ")


def _is_stem(text: str, end: int) -> bool:
    """A run followed by okurigana ("間違" of "間違い", "面白" of "面白い") is the stem
    of a verb or adjective, not a whole word; one followed by a particle is a noun."""
    nxt = text[end : end + 1]
    return bool(nxt) and "\u3041" <= nxt <= "\u309f" and nxt not in _PARTICLES


def extract_terms(weighted_texts: Iterable[tuple[str, float]]) -> Terms:
    """Frequency-ranked keywords over several texts, each with a weight.

    A word family is shown in its first lower-case spelling ("gardening"), else its
    first spelling mid-sentence ("Redis"), else lower-cased when it was only ever seen
    capitalised at the start of a sentence.
    """
    scores: Counter[str] = Counter()
    display: dict[str, tuple[int, str]] = {}
    order: dict[str, int] = {}
    for text, weight in weighted_texts:
        text = _URL_RE.sub(" ", text or "")
        # Our own marker must not become a topic when stand-in texts are read back.
        for marker in STAND_IN.values():
            text = text.replace(marker, " ")
        for m in _TOKEN_RE.finditer(text):
            word = m.group(0)
            if m.group("lat"):
                word = word.strip("'-")
                low = word.lower()
                if (len(word) < 3 and not (len(word) == 2 and word.isupper())) or (
                    low in STOP_WORDS or low in _TONE_WORDS or low.endswith("'s") or _is_past_tense(low)
                    or low in FRAME_WORDS
                ):
                    continue
                key = stem(word)
                if word == low:
                    shown = (0, word)
                elif word[1:] == low[1:] and _starts_sentence(text, m.start()):
                    shown = (2, low)
                else:
                    shown = (1, word)
                if key not in display or shown[0] < display[key][0]:
                    display[key] = shown
            else:
                if word in JA_STOP_WORDS or word in FRAME_WORDS or not word.strip("ー") or _is_stem(text, m.end()):
                    continue
                key = word
                display.setdefault(key, (0, word))
            scores[key] += weight
            order.setdefault(key, len(order))
    keys = sorted(scores, key=lambda k: (-scores[k], order[k]))
    return Terms(ranked=[display[k][1] for k in keys], keys=keys)


def _keys_match(a: str, b: str) -> bool:
    if a == b:
        return True
    if not a.isascii() and not b.isascii():  # Japanese runs: one contains the other
        return len(a) >= 2 and len(b) >= 2 and (a in b or b in a)
    return False


def overlap(interests: Terms, text: Terms, limit: int = 40) -> list[str]:
    """Display forms of `text` keywords that match one of the top `interests`."""
    persona = interests.keys[:limit]
    return [
        shown
        for key, shown in zip(text.keys, text.ranked)
        if any(_keys_match(key, p) for p in persona)
    ]


def detect_tone(text: str) -> str:
    low = (text or "").lower()
    counts = {tone: sum(low.count(cue) for cue in cues) for tone, cues in TONE_CUES.items()}
    best = max(counts, key=lambda t: counts[t])
    return best if counts[best] > 0 else "calm"


def strip_markdown(text: str, *, headings: bool = True) -> str:
    """Plain text of Markdown; `headings=False` drops heading lines altogether."""
    text = _URL_RE.sub("", text or "")
    if not headings:
        text = re.sub(r"^\s{0,3}#{1,6}\s.*$", "", text, flags=re.M)
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"^\s{0,3}(#{1,6}\s+|[-*+]\s+|>\s?|\d+\.\s+)", "", text, flags=re.M)
    text = re.sub(r"[*_`~]+", "", text)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


def sentences(text: str) -> list[str]:
    """Split plain text after ". ! ?" (followed by a space) or "。！？"."""
    parts = re.split(r"(?<=[.!?])\s+|(?<=[。！？])", text)
    return [p.strip() for p in parts if p and p.strip()]


def fit(body: str, lang: str, max_chars: int, sep: str | None = None) -> str:
    """`body` plus the stand-in marker, cut so the whole is at most `max_chars` long."""
    marker = STAND_IN[lang]
    joiner = sep if sep is not None else ("" if lang == "ja" else " ")
    tail = joiner + marker
    if len(body) + len(tail) <= max_chars:
        return body + tail
    room = max_chars - len(tail) - 1
    if room <= 0:
        return marker[:max_chars]
    return body[:room].rstrip() + "…" + tail
