"""Locale tags as the geocoder compares them: `ja_JP` and `ja-jp` both read `ja-JP`."""

from __future__ import annotations

import re

_SUBTAG = re.compile(r"^[A-Za-z0-9]{1,8}$")
_LANGUAGE = re.compile(r"^[A-Za-z]{2,8}$")


def normalize_locale(locale: str | None) -> str | None:
    """A canonical BCP 47 spelling (language lower-case, script title-case, region
    upper-case), or None for an empty or malformed tag."""
    if not locale:
        return None
    text = re.sub(r"-+", "-", locale.strip().replace("_", "-")).strip("-")
    if not text:
        return None
    parts = text.split("-")
    if not _LANGUAGE.match(parts[0]) or not all(_SUBTAG.match(p) for p in parts[1:]):
        return None
    out = [parts[0].lower()]
    for part in parts[1:]:
        if len(part) == 4 and part.isalpha():
            out.append(part.title())
        elif (len(part) == 2 and part.isalpha()) or (len(part) == 3 and part.isdigit()):
            out.append(part.upper())
        else:
            out.append(part.lower())
    return "-".join(out)


def locale_candidates(locale: str | None) -> list[str]:
    """The tag itself, then its language alone (`ja-JP`, `ja`)."""
    normal = normalize_locale(locale)
    if normal is None:
        return []
    language = normal.split("-")[0]
    return [normal] if language == normal else [normal, language]


def language_of(locale: str) -> str:
    return locale.split("-")[0]
