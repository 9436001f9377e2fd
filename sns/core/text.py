"""Normalisation of user input: post content, tags, locales, time zones."""

from __future__ import annotations

import re
import unicodedata
import zoneinfo

from .errors import InvalidInput
from .textguard import clean_long_text, refuse_invalid, strip_invisible

_SPACES_BEFORE_NEWLINE = re.compile(r"[ \t\u3000]+\n")
_WHITESPACE_RUN = re.compile(r"\s+")
_LOCALE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$")
TAG_MAX_LENGTH = 50


def normalize_content(content) -> str:
    if not isinstance(content, str):
        raise InvalidInput("content is required")
    refuse_invalid(content, "content")
    text = unicodedata.normalize("NFC", content).replace("\r\n", "\n").replace("\r", "\n")
    text = clean_long_text(text, "content")
    text = _SPACES_BEFORE_NEWLINE.sub("\n", text).rstrip("\n")
    if not text.strip():
        raise InvalidInput("content is required")
    return text


def normalize_tag(tag: str) -> str:
    """Lower-case, NFC, folded whitespace, no bidi or control characters, cut to the
    column length (NUL and lone surrogates are the caller's to refuse)."""
    text = strip_invisible(unicodedata.normalize("NFC", tag.lower()))
    return _WHITESPACE_RUN.sub(" ", text).strip()[:TAG_MAX_LENGTH].strip()


def normalize_post_tags(tags, limit: int) -> list[str]:
    """Author tags: strings only, lower-cased, folded, de-duplicated, at most `limit`.

    The original let a duplicate tag reach the primary key and fail with a 400; we
    de-duplicate and cut to the column length instead (docs/differences.md item 10).
    """
    if not isinstance(tags, list):
        raise InvalidInput("tags is required and must be array")
    result: list[str] = []
    for tag in tags:
        if not isinstance(tag, str):
            continue
        name = normalize_tag(refuse_invalid(tag, "tags"))
        if name and name not in result:
            result.append(name)
    if len(result) > limit:
        raise InvalidInput("tags are too many")
    return result


def normalize_locale(locale) -> str:
    """`en_us` -> `en-US`, `JA` -> `ja`; raises on anything that is not a locale."""
    if not isinstance(locale, str):
        raise InvalidInput("locale is invalid")
    parts = [p for p in locale.strip().replace("_", "-").split("-")]
    if not parts or not parts[0]:
        raise InvalidInput("locale is invalid")
    normalized = [parts[0].lower()] + [
        p.upper() if len(p) in (2, 3) and p.isalpha() else p for p in parts[1:]
    ]
    text = "-".join(normalized)
    if not _LOCALE.match(text) or len(text) > 50:
        raise InvalidInput("locale is invalid")
    return text


def normalize_timezone(name) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > 50:
        raise InvalidInput("timezone is invalid")
    try:
        zoneinfo.ZoneInfo(name.strip())
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise InvalidInput("timezone is invalid") from None
    return name.strip()


def language_of(locale: str | None) -> str:
    return (locale or "").strip().replace("_", "-").split("-")[0].lower()
