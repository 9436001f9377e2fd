"""The offline stand-in's view of one request (agents/llm/offline.py): the task, the
language and its sentence frames, the AI user's profile and persona keywords, the length
limits and the seed every variation is drawn from; and the tolerant readers of the
request's JSON inputs, which never trust a value's type."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.llm.offline_tags import make_tags, ndc_tag
from agents.llm.offline_text import (
    PHRASES,
    Terms,
    detect_tone,
    extract_terms,
    language_of,
    seed_of,
)
from agents.prompts import scaled_lengths

DEFAULT_MAX_CHARS = {
    "post-impression": 1000,
    "peer-impression": 1000,
    "post-impressions": 1000,
    "peer-impressions": 1000,
    "interest": 2000,
    "new-post": 2000,
    "reply-post": 1000,
    "respond": 500,
    "respond-message": 500,
    "open-message": 500,
    "post-summary": 1000,
}


def as_text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def as_dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def as_words(value: Any) -> str:
    return " ".join(v for v in value if isinstance(v, str)) if isinstance(value, list) else ""


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def tier_of(model: str) -> str:
    """The tier whose model the gateway asked for (the stand-in sees only the name)."""
    from django.conf import settings

    for tier in ("advanced", "balanced", "basic"):
        if getattr(settings, f"STGY_AI_MODEL_{tier.upper()}", None) == model:
            return tier
    return "balanced"


@dataclass(frozen=True)
class Ctx:
    task: str
    lang: str
    phrases: dict[str, Any]
    profile: dict[str, Any]
    payload: dict[str, Any]
    max_chars: int
    tag_chars: int
    tag_num: int
    seed: int
    tone: str
    persona: Terms
    tier: str = "balanced"

    @classmethod
    def build(cls, task: str, locale: str, inputs: dict[str, Any], model: str = "") -> Ctx:
        profile = inputs.get("profile") if isinstance(inputs.get("profile"), dict) else {}
        payload = inputs.get("payload") if isinstance(inputs.get("payload"), dict) else {}
        max_default, tag_default = scaled_lengths(locale, DEFAULT_MAX_CHARS.get(task, 1000), 40)
        lang = language_of(locale)
        character = as_text(profile.get("aiPersonality")) + "\n" + as_text(profile.get("introduction"))
        persona = extract_terms(
            [
                (as_words(profile.get("currentInterestTags")), 3.0),
                (as_text(profile.get("currentInterest")), 2.0),
                (as_text(profile.get("aiPersonality")), 1.0),
                (as_text(profile.get("introduction")), 1.0),
            ]
        )
        return cls(
            task=task,
            lang=lang,
            phrases=PHRASES[lang],
            profile=profile,
            payload=payload,
            max_chars=max(1, int(inputs.get("max_chars") or max_default)),
            tag_chars=max(1, int(inputs.get("tag_chars") or tag_default)),
            tag_num=int(inputs.get("tag_num") or 5),
            seed=seed_of(task, locale, inputs),
            tone=detect_tone(character),
            persona=persona,
            tier=tier_of(model),
        )

    def roll(self, salt: int) -> int:
        """A number in 0..99 drawn from the seed; different salts give different draws."""
        return (self.seed >> (salt * 7 % 56)) % 100

    def persona_term(self, n: int = 0) -> str:
        top = self.persona.top(n + 1)
        return top[n] if len(top) > n else self.phrases["fallback_topic"][n % 2]

    def tags(self, text: str, keywords: list[str]) -> list[str]:
        return make_tags(ndc_tag(text, self.lang), keywords, self.tag_num, self.tag_chars)
