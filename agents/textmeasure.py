"""Text length measures shared with the original STGY.

Prompts and stored texts are limited in *pseudo tokens* rather than characters so that a
limit means roughly the same amount of text in English and in Japanese: a code point below
U+2000 weighs 1 and everything else (CJK, kana, full-width forms, emoji, and the general
punctuation block U+2000–U+206F) weighs 2. The exact rules matter because truncated inputs
end up inside prompts, so they follow docs/summaries-and-vectors.md §3 to the code point.
"""

from __future__ import annotations

import re

ELLIPSIS = "\u2026"
_WIDE_FROM = 0x2000
_WIDE = re.compile("[\u2000-\U0010ffff]")


def _weight(ch: str) -> int:
    return 1 if ord(ch) < _WIDE_FROM else 2


def count_pt(text: str) -> int:
    """Number of pseudo tokens in ``text`` (code points, wide ones counting 2)."""
    # Counted in C (isascii, the regex engine): a generator over every character cost
    # about 20 ms per AI-user cycle, which measures thousands of prompt inputs.
    if text.isascii():
        return len(text)
    return len(text) + len(_WIDE.findall(text))


def slice_pt(text: str, start: int, end: int) -> str:
    """The code points covering pseudo tokens ``[start, end)``.

    A wide character straddling ``end`` is kept whole rather than dropped, so the result can
    hold ``end + 1`` tokens; one straddling ``start`` is included too.
    """
    if end <= start:
        return ""
    if text[:end].isascii():
        # Every character up to `end` weighs 1 (checked in C): tokens are indexes. A post
        # cut for a prompt was walked character by character, ≈ 1,600 a cycle.
        return text[start:end]
    total = 0
    begin: int | None = None
    for index, ch in enumerate(text):
        weight = _weight(ch)
        if begin is None and total + weight > start:
            begin = index
        if begin is not None and total + weight >= end:
            return text[begin : index + 1]
        total += weight
    if begin is None:
        return ""
    return text[begin:]


def truncate_pt(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` pseudo tokens, marked with "…" when something was cut."""
    if 2 * len(text) <= limit or count_pt(text) <= limit:  # no character weighs more than 2
        return text
    return slice_pt(text, 0, limit) + ELLIPSIS


def len16(text: str) -> int:
    """Length in UTF-16 code units, the unit of the original's content and short-post limits."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2
