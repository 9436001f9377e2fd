"""Keyword-in-context data, in the shape of the original's KWIC (`version: 1`): the
title with its keyword highlights, and up to `max_segments` excerpts of the body, each
`context_size` pseudo tokens either side of a match (a character below U+2000 weighs 1,
any other 2, so a Japanese excerpt holds about half as many characters).

Keywords and text are compared folded (NFKC, lower case, control and format characters
as spaces, no diacritics), with a map back to the original characters, so highlights
fall on the text as written. A keyword starting or ending with a Latin, Greek or
Cyrillic letter or a digit matches only at a word boundary there. Positions are code
point offsets into the body text; `endPosition` is exclusive.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

from sns.reads.markdown import _parser, to_plain_text

MAX_SEGMENTS = 4
CONTEXT_SIZE = 40
MAX_IDS = 100
MAX_KEYWORDS = 32
MAX_KEYWORD_PSEUDO_TOKENS = 256

_SPACE_LIKE = re.compile(r"[\u0000-\u001f\u007f-\u009f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]+")
_WORD_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")


def pseudo_tokens(text: str) -> int:
    return sum(_weight(ch) for ch in text)


def _weight(ch: str) -> int:
    return 1 if ord(ch) < 0x2000 else 2


def _fold(fragment: str) -> str:
    text = _SPACE_LIKE.sub(" ", unicodedata.normalize("NFKC", fragment).lower())
    stripped = "".join(c for c in unicodedata.normalize("NFD", text) if not 0x300 <= ord(c) <= 0x36F)
    return unicodedata.normalize("NFC", stripped)


def _continues_cluster(ch: str) -> bool:
    cp = ord(ch)
    return (
        unicodedata.category(ch).startswith("M")
        or cp in (0xFE0E, 0xFE0F, 0xFF9E, 0xFF9F)
        or 0x1F3FB <= cp <= 0x1F3FF
    )


def _fold_with_map(text: str) -> tuple[str, list[tuple[int, int]]]:
    """The folded text and, per folded character, the original range it came from."""
    folded: list[str] = []
    origin: list[tuple[int, int]] = []
    start, n = 0, len(text)
    while start < n:
        end = start + 1
        while end < n and _continues_cluster(text[end]):
            end += 1
        while end + 1 < n and text[end] == "\u200d":
            end += 2
            while end < n and _continues_cluster(text[end]):
                end += 1
        fragment = _fold(text[start:end])
        folded.append(fragment)
        origin.extend([(start, end)] * len(fragment))
        start = end
    return "".join(folded), origin


def _word_like(ch: str | None) -> bool:
    if not ch:
        return False
    category = unicodedata.category(ch)
    if category.startswith("N") or category.startswith("M"):
        return True
    return unicodedata.name(ch, "").startswith(_WORD_SCRIPTS)


def _at_boundaries(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else None
    after = text[end] if end < len(text) else None
    if _word_like(text[start]) and _word_like(before):
        return False
    return not (_word_like(text[end - 1]) and _word_like(after))


def _distinct_keywords(keywords) -> list[str]:
    out: list[str] = []
    for keyword in keywords:
        folded = _fold(keyword).strip()
        if folded and folded not in out:
            out.append(folded)
    return out


def _matches(text: str, keywords: list[str]) -> list[list[tuple[int, int]]]:
    """Per keyword, its matches in `text` as original (start, end) ranges."""
    folded, origin = _fold_with_map(text)
    out = []
    for keyword in keywords:
        found: list[tuple[int, int]] = []
        at = folded.find(keyword)
        while at >= 0:
            end = at + len(keyword)
            if _at_boundaries(folded, at, end):
                span = (origin[at][0], origin[end - 1][1])
                if span not in found:
                    found.append(span)
            at = folded.find(keyword, at + 1)
        out.append(found)
    return out


@dataclass
class _Highlight:
    start: int
    end: int
    keyword_index: int


def _highlights(matches: list[list[tuple[int, int]]]) -> list[_Highlight]:
    """Non-overlapping highlight pieces; where matches overlap, the earlier keyword wins."""
    spans = [(s, e, k) for k, found in enumerate(matches) for s, e in found]
    cuts = sorted({p for s, e, _ in spans for p in (s, e)})
    out: list[_Highlight] = []
    for start, end in zip(cuts, cuts[1:]):
        active = [k for s, e, k in spans if s < end and start < e]
        if not active:
            continue
        keyword = min(active)
        if out and out[-1].end == start and out[-1].keyword_index == keyword:
            out[-1].end = end
        else:
            out.append(_Highlight(start, end, keyword))
    return out


def _merged(ranges, *, touching: bool) -> list[list[int]]:
    out: list[list[int]] = []
    for start, end in sorted(ranges):
        if out and (start <= out[-1][1] if touching else start < out[-1][1]):
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return out


def _inline(text: str, start: int, end: int, highlights: list[_Highlight]) -> list[dict]:
    nodes: list[dict] = []

    def push(kind: str, value: str, keyword: int | None = None):
        if not value:
            return
        last = nodes[-1] if nodes else None
        if last and last["type"] == kind and last.get("keywordIndex") == keyword:
            last["text"] += value
        elif kind == "text":
            nodes.append({"type": "text", "text": value})
        else:
            nodes.append({"type": "highlight", "text": value, "keywordIndex": keyword})

    cursor = start
    for h in highlights:
        if h.end <= start:
            continue
        if h.start >= end:
            break
        hs, he = max(start, h.start), min(end, h.end)
        push("text", text[cursor:hs])
        push("highlight", text[hs:he], h.keyword_index)
        cursor = max(cursor, he)
    push("text", text[cursor:end])
    return nodes


def _context_start(text: str, position: int, size: int) -> int:
    used = 0
    while position > 0 and used < size:
        position -= 1
        used += _weight(text[position])
    return position


def _context_end(text: str, position: int, size: int) -> int:
    used = 0
    while position < len(text) and used < size:
        used += _weight(text[position])
        position += 1
    return position


def _widen_to_highlights(start: int, end: int, coverage) -> tuple[int, int]:
    changed = True
    while changed:
        changed = False
        for hs, he in coverage:
            if hs < start < he:
                start, changed = hs, True
            if hs < end < he:
                end, changed = he, True
    return start, end


def _segment_ranges(text, matches, coverage, max_segments, context_size) -> list[list[int]]:
    """Keywords take turns anchoring excerpts, each at most ceil(max / keywords) of them;
    a match already inside an excerpt anchors none."""
    if max_segments <= 0 or not matches:
        return []
    quota = math.ceil(max_segments / len(matches))
    next_index = [0] * len(matches)
    anchored = [0] * len(matches)
    segments: list[list[int]] = []
    progressed = True
    while len(segments) < max_segments and progressed:
        progressed = False
        for k, found in enumerate(matches):
            if len(segments) >= max_segments:
                break
            if anchored[k] >= quota:
                continue
            anchor = None
            while next_index[k] < len(found):
                candidate = found[next_index[k]]
                next_index[k] += 1
                if not any(s <= candidate[0] and candidate[1] <= e for s, e in segments):
                    anchor = candidate
                    break
            if anchor is None:
                continue
            progressed = True
            anchored[k] += 1
            start = _context_start(text, anchor[0], context_size)
            end = _context_end(text, anchor[1], context_size)
            segments = _merged([*map(tuple, segments), _widen_to_highlights(start, end, coverage)], touching=True)
    return segments[:max_segments]


def kwic_data(
    title: str | None,
    body: str,
    keywords,
    *,
    max_segments: int = MAX_SEGMENTS,
    context_size: int = CONTEXT_SIZE,
) -> dict:
    words = _distinct_keywords(keywords)
    body_matches = _matches(body, words)
    body_highlights = _highlights(body_matches)
    coverage = _merged([span for found in body_matches for span in found], touching=False)
    ranges = _segment_ranges(body, body_matches, coverage, max_segments, context_size)
    return {
        "version": 1,
        "title": None if title is None else _inline(title, 0, len(title), _highlights(_matches(title, words))),
        "segments": [
            {
                "type": "segment",
                "startPosition": start,
                "endPosition": end,
                "isStart": start == 0,
                "isEnd": end == len(body),
                "children": _inline(body, start, end, body_highlights),
            }
            for start, end in ranges
        ],
    }


def split_title(markdown_text: str) -> tuple[str | None, str]:
    """The first level-1 heading (else the first level-2 one) as the title, and the
    rest of the post as plain text, as the original's post KWIC separates them."""
    tokens = _parser().parse(markdown_text or "")
    for level in ("h1", "h2"):
        for i, token in enumerate(tokens):
            if token.type == "heading_open" and token.tag == level and token.map and i + 1 < len(tokens):
                title = " ".join(_heading_text(tokens[i + 1]).split())
                lines = (markdown_text or "").split("\n")
                rest = "\n".join(lines[: token.map[0]] + lines[token.map[1] :])
                return title, to_plain_text(rest)
    return None, to_plain_text(markdown_text)


def _heading_text(inline) -> str:
    return "".join(
        child.content for child in (inline.children or []) if child.type in ("text", "code_inline", "image")
    )


def post_kwic(content: str, keywords) -> dict:
    title, body = split_title(content)
    return kwic_data(title, body, keywords)


def user_kwic(nickname: str, introduction: str, keywords) -> dict:
    return kwic_data(nickname, to_plain_text(introduction), keywords)
