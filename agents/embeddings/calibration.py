"""Putting every embedding model's cosine on one scale before thresholds apply.

The cycle's similarity thresholds come from the original, tuned for
text-embedding-3-small. A model whose cosines run on another scale declares an affine
map `a*cos + b` (`similarity_scale`); models that declare none are used as they are,
so with OpenAI embeddings the thresholds apply to the raw cosine exactly as specified.
"""

from __future__ import annotations

from .hash import HashEmbedder

_SCALES = {HashEmbedder.name: HashEmbedder.similarity_scale}


def calibrated_similarity(cos: float, model: str) -> float:
    a, b = _SCALES.get(model, (1.0, 0.0))
    return max(-1.0, min(1.0, a * cos + b))
