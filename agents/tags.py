"""Tag and keyword normalisation.

Several rule sets exist on purpose (docs/summaries-and-vectors.md §5): the parser for tags coming
out of a model, the per-endpoint server rules, and our storage clean-up (docs/differences.md item 10)
that the original lacked, which let over-long or duplicate tags make whole writes fail.
Keeping them apart keeps each caller's behaviour exactly as the contract states.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from agents.textmeasure import len16
from sns.core.textguard import strip_invisible

TAG_MAX_LEN = 50

# "007.63:Software" — three ASCII digits, optional decimal part, colon.
_NDC_PREFIX = re.compile(r"^[0-9]{3}(?:\.[0-9]+)?:\s*")
# Official NDC labels join alternatives with a full-width period or ". ".
_NDC_SPLIT = re.compile(r"\uff0e|\. ")
_WHITESPACE = re.compile(r"\s+")


def _ndc_label(tag: str) -> str | None:
    match = _NDC_PREFIX.match(tag)
    if match is None:
        return None
    return tag[match.end() :].strip()


def _dedupe_casefree(items: list[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        key = item.lower()
        if item and key not in seen:
            seen.add(key)
            out.append(item)
    return out


def parse_tags_field(raw: Any, max_count: int) -> list[str]:
    """Tags from a model's ``tags`` value (§5.1).

    Models are asked for NDC-classified tags like "500:Technology. Engineering"; the code is
    dropped and, when the label lists alternatives, only the parts the model also gave as
    plain tags are kept (otherwise all parts), so stored tags are plain words.
    """
    if not isinstance(raw, list):
        return []
    base = [item.strip() for item in raw if isinstance(item, str)]
    base = [tag for tag in base if tag]
    labels = [_ndc_label(tag) for tag in base]
    known = {tag if label is None else label for tag, label in zip(base, labels, strict=True)}
    known.discard("")
    picked: list[str] = []
    for tag, label in zip(base, labels, strict=True):
        if label is None:
            picked.append(tag)
            continue
        parts = [part.strip() for part in _NDC_SPLIT.split(label)]
        parts = [part for part in parts if part]
        chosen = [part for part in parts if part in known]
        picked.extend(chosen or parts)
    return _dedupe_casefree(picked)[:max_count]


def clean_tags_for_storage(
    tags: list[Any], max_len: int = TAG_MAX_LEN, max_count: int = 5
) -> list[str]:
    """Make model tags safe to store (our fix, docs/differences.md item 10).

    Trims, folds whitespace runs, cuts to the column length (code points, as the database
    counts them) and de-duplicates case-insensitively, so a sloppy tag can no longer make
    the whole write fail.
    """
    out: list[str] = []
    for tag in tags:
        if not isinstance(tag, str):
            continue
        folded = _WHITESPACE.sub(" ", tag).strip()
        out.append(folded[:max_len].strip())
    return _dedupe_casefree(out)[:max_count]


def normalize_keyword(s: str) -> str:
    """Lower-case, NFC, collapse whitespace, trim: the server's tag/keyword key form."""
    return _WHITESPACE.sub(" ", strip_invisible(unicodedata.normalize("NFC", s.lower()))).strip()


def normalize_tag_list(items: list[Any]) -> list[str]:
    """Tags or keywords of ``PUT /ai-posts/{id}``: normalised, empties dropped, de-duplicated.

    Non-string items are a client error (the endpoint answers 400), hence ``ValueError``.
    """
    out: list[str] = []
    seen: set[str] = set()
    for item in items:
        if not isinstance(item, str):
            raise ValueError("tags and keywords must be strings")
        value = normalize_keyword(item)
        if value and value not in seen:
            seen.add(value)
            out.append(value)
    return out


def _cut16(text: str, limit: int) -> str:
    # Cut at a code point boundary so no lone surrogate half is ever produced.
    if len16(text) <= limit:
        return text
    units = 0
    for index, ch in enumerate(text):
        units += 2 if ord(ch) > 0xFFFF else 1
        if units > limit:
            return text[:index]
    return text


def normalize_interest_tags(items: list[Any], max_count: int = 5) -> list[str]:
    """Tags of ``POST /ai-users/{id}/interests``: lower, trim, ≤ 50 UTF-16 units, dedup, ≤ 5."""
    out: list[str] = []
    seen: set[str] = set()
    for item in items:
        if not isinstance(item, str):
            continue
        value = _cut16(strip_invisible(item.lower()).strip(), TAG_MAX_LEN)
        if value and value not in seen:
            seen.add(value)
            out.append(value)
        if len(out) >= max_count:
            break
    return out


def parse_keywords(raw: Any, ai_tags: list[str], max_count: int = 10) -> list[str]:
    """Keywords of a post summary (§1.4 step 7), excluding ones that merely repeat a tag."""
    if not isinstance(raw, list):
        return []
    tag_keys = {normalize_keyword(tag) for tag in ai_tags}
    out: list[str] = []
    for item in raw:
        if len(out) >= max_count:
            break
        if not isinstance(item, str):
            continue
        value = normalize_keyword(item)
        if value and value not in tag_keys and value not in out:
            out.append(value)
    return out
