"""The guards before a cycle rewrites a memory (docs/agent-cycle.md, "Memory guards").

A rewrite the guards refuse keeps the old memory; the stage records the refusal with
its reason on the run record (`details.memoryRefusals`), shown on the run page. The
companion system of our design notes drifted when every automatic rewrite was taken as
it came; these are its remedies: a shrink guard, a jump guard on the interest's vector,
and the admin's hold.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings

from agents.embeddings.calibration import calibrated_similarity
from agents.vectors import cosine, decode_features


def text_refusal(old: str, new: str) -> str | None:
    """Why a rewrite of `old` into `new` is refused, or None: empty, or shorter than
    max(STGY_AI_MEMORY_SHRINK_RATIO of the old, STGY_AI_MEMORY_SHRINK_FLOOR characters)
    when the old was longer. A first text (no old one) is refused only when empty."""
    new_len = len(new.strip())
    if new_len == 0:
        return "empty"
    old_len = len((old or "").strip())
    floor = max(
        settings.STGY_AI_MEMORY_SHRINK_RATIO * old_len, settings.STGY_AI_MEMORY_SHRINK_FLOOR
    )
    if old_len > new_len and new_len < floor:
        return (
            f"shrank from {old_len} to {new_len} characters (the least kept is {math.ceil(floor)})"
        )
    return None


def vector_similarity(a: bytes, b: bytes, model: str) -> float:
    """Two int8 vectors of the same model on the one similarity scale
    (agents/embeddings/calibration.py), so one floor serves every model."""
    return calibrated_similarity(cosine(decode_features(a), decode_features(b)), model)


def interest_jump_refusal(
    generated: bytes, previous: bytes | None, model: str
) -> tuple[float | None, str | None]:
    """(similarity, why refused or None) of the new interest's embedding to the
    previous stored vector (same model only): refused below
    STGY_AI_INTEREST_MIN_SIMILARITY; a floor of -1 or less turns the guard off."""
    floor = settings.STGY_AI_INTEREST_MIN_SIMILARITY
    if previous is None or floor <= -1:
        return None, None
    similarity = vector_similarity(generated, previous, model)
    if similarity < floor:
        return (
            similarity,
            f"moved too far in one cycle (similarity {similarity:.2f} to the previous, floor {floor})",
        )
    return similarity, None


def refusal_note(
    details: dict[str, Any], *, stage: str, memory: str, reason: str, peer: str | None = None
) -> dict:
    """Record one refused rewrite on the run's details (the run page lists them)."""
    entry = {"stage": stage, "memory": memory, "reason": reason}
    if peer is not None:
        entry["peerId"] = peer
    details.setdefault("memoryRefusals", []).append(entry)
    return entry
