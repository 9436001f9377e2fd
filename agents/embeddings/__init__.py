"""The site's one embedding space (docs/differences.md item 7).

STGY_EMBEDDING_PROVIDER picks the embedder: `hash` (default, numpy only, offline),
`openai` (STGY_EMBEDDING_OPENAI_MODEL, 512 dimensions) or `local` (sentence-
transformers, optional). Every stored vector carries the embedder's name; vectors of
different models are never compared — `features_for_model` hides stale ones, and
`manage.py reembed` brings them to the current model.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
from django.conf import settings

from agents.llm.errors import LlmError
from agents.vectors import encode_features

from .hash import HashEmbedder

EMBED_DIM = 512
PROVIDERS = ("hash", "openai", "local")


class UnsupportedEmbedder(LlmError):
    """STGY_EMBEDDING_PROVIDER names no known embedder."""


_lock = threading.Lock()
_cache: dict[tuple[str, str], Any] = {}


def get_embedder() -> Any:
    """The configured embedder (one per process and configuration): `.name`, `.dim`,
    `.embed(texts) -> (n, 512) float array`."""
    provider = (settings.STGY_EMBEDDING_PROVIDER or "hash").strip().lower()
    if provider == "openai":
        key = (provider, settings.STGY_EMBEDDING_OPENAI_MODEL)
    elif provider == "local":
        key = (provider, settings.STGY_EMBEDDING_LOCAL_MODEL)
    elif provider == "hash":
        key = (provider, "")
    else:
        raise UnsupportedEmbedder(f"unsupported embedding provider {provider!r}")
    with _lock:
        embedder = _cache.get(key)
        if embedder is None:
            from . import providers

            if provider == "openai":
                embedder = providers.OpenAiEmbedder(key[1])
            elif provider == "local":
                embedder = providers.LocalEmbedder(key[1])
            else:
                embedder = HashEmbedder()
            _cache[key] = embedder
        return embedder


def model_name() -> str:
    return get_embedder().name


def embed_texts(
    texts: list[str], *, user_id: int | None = None, run_id: int | None = None, stage: str = ""
) -> tuple[np.ndarray, str]:
    """Embed `texts` as an (n, 512) float array; also returns the model name to store.
    The openai embedder records a usage row attributed to `user_id` / `run_id`."""
    embedder = get_embedder()
    if not texts:
        return np.zeros((0, EMBED_DIM), dtype=np.float32), embedder.name
    if isinstance(embedder, HashEmbedder):
        matrix = embedder.embed(list(texts))
    else:
        matrix = embedder.embed(list(texts), user_id=user_id, run_id=run_id, stage=stage)
    return np.asarray(matrix), embedder.name


def embed_features(
    text: str, *, user_id: int | None = None, run_id: int | None = None, stage: str = ""
) -> tuple[bytes, str]:
    """The int8 codec (docs/summaries-and-vectors.md §2) of the embedding of `text`, and the model name."""
    matrix, name = embed_texts([text], user_id=user_id, run_id=run_id, stage=stage)
    return encode_features(matrix[0]), name


def features_for_model(
    stored: bytes | memoryview | None, stored_model: str | None, *, current: str | None = None
) -> bytes | None:
    """`stored` if it was made by the current model, else None (never compare across models).
    `current`: the current model's name, for a caller that checks many rows at once."""
    if not stored or not stored_model or stored_model != (current or model_name()):
        return None
    return bytes(stored)
