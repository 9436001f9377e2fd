"""The language a person wrote in, so an answer is written in it (docs/respond-path.md,
"The language of the answer"): the respond path (replies, mentions, messages) and the
cycle's replies both ask `answer_locale`, so both follow the same rule.

Deterministic and cheap: the scripts of the text decide. Hiragana only occur in
Japanese sentences (its particles and endings), so two of them mean Japanese, as does
a text written mostly in kanji and katakana; a text of Latin letters is English unless
the person's locale names another Latin-script language (we prompt in English and
Japanese; a French speaker writing French keeps fr-FR). A text without letters — only
emoji, a URL, numbers — says nothing, and the locale decides.
"""

from __future__ import annotations

import re
import unicodedata

from agents.prompts import is_cjk, normalize_locale

# Not the person's language: addresses, mentions, code and link targets.
_NOISE = re.compile(r"https?://\S+|www\.\S+|\S+@\S+\.\S+|@\S+|`[^`]*`|\]\([^)]*\)")


def _counts(text: str) -> tuple[int, int, int]:
    """(hiragana, other Japanese letters — kanji and katakana, Latin letters)."""
    hiragana = japanese = latin = 0
    for ch in text:
        code = ord(ch)
        if 0x3041 <= code <= 0x309F:
            hiragana += 1
        elif 0x30A0 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF or 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF:
            japanese += 1
        elif ch.isalpha() and unicodedata.name(ch, "").startswith("LATIN"):
            latin += 1
    return hiragana, japanese, latin


def text_language(text: str | None) -> str | None:
    """"ja", "latin" or None (the text says nothing about its language)."""
    if not isinstance(text, str):
        return None
    hiragana, japanese, latin = _counts(_NOISE.sub(" ", unicodedata.normalize("NFKC", text)))
    if hiragana >= 2 or (hiragana + japanese and hiragana + japanese >= latin):
        return "ja"
    if latin:
        return "latin"
    return None


def answer_locale(text: str | None, fallback: str | None) -> str:
    """The locale to answer `text` in: its language as detected, else `fallback` (the
    post's or the person's locale). A detection that agrees with `fallback`'s language
    keeps `fallback` itself (its region: en-GB stays en-GB)."""
    fallback = normalize_locale(fallback)
    found = text_language(text)
    if found == "ja":
        return fallback if fallback.split("-")[0].lower() == "ja" else "ja"
    if found == "latin" and (is_cjk(fallback) or not fallback):
        return "en"
    return fallback
