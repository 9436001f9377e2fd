"""Embedders other than the built-in hash vectoriser.

`openai` calls the embeddings endpoint through `agents.llm.openai_provider` under the
same timeout and retry policy, circuit breaker and web time limit as chat; `local`
runs a sentence-transformers model in process (an optional extra, imported only when
chosen).
"""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np

from agents.llm.errors import LlmError, LlmRequestError, LlmUnavailable
from agents.llm.retry import call_with_retries
from agents.llm.usage import usage_record

EMBED_DIM = 512


class OpenAiEmbedder:
    dim = EMBED_DIM

    def __init__(self, model: str) -> None:
        self.model = model
        self.name = f"openai:{model}"

    def embed(self, texts: list[str], *, user_id: int | None = None, run_id: int | None = None,
              stage: str = "") -> np.ndarray:
        from agents.llm.openai_provider import OpenAiProvider

        provider = OpenAiProvider()
        started = time.monotonic()

        def record(**fields: Any) -> None:
            usage_record(
                provider="openai", model=self.model, task="embedding", stage=stage,
                user_id=user_id, run_id=run_id, latency_ms=int((time.monotonic() - started) * 1000),
                **fields,
            )

        try:
            (matrix, tokens), attempts = call_with_retries(
                lambda timeout: provider.embed(texts, model=self.model, dim=self.dim, timeout=timeout)
            )
        except LlmError as exc:
            refused = isinstance(exc, LlmUnavailable) and not exc.attempts
            outcome = "refused" if refused else "error"
            record(outcome=outcome, attempts=exc.attempts, error=exc.message)
            raise
        record(outcome="ok", attempts=attempts, prompt_tokens=tokens)
        return matrix


_local_lock = threading.Lock()
_local_models: dict[str, Any] = {}


class LocalEmbedder:
    """sentence-transformers, loaded once per process. Models with fewer than 512
    dimensions are zero-padded by the codec, which leaves cosines unchanged."""

    dim = EMBED_DIM

    def __init__(self, model: str) -> None:
        self.model = model
        self.name = f"local:{model}"

    def _load(self) -> Any:
        with _local_lock:
            loaded = _local_models.get(self.model)
            if loaded is None:
                try:
                    from sentence_transformers import SentenceTransformer
                except ImportError as exc:
                    raise LlmRequestError(
                        "STGY_EMBEDDING_PROVIDER=local needs the optional package "
                        "sentence-transformers (pip install sentence-transformers)"
                    ) from exc
                loaded = SentenceTransformer(self.model)
                _local_models[self.model] = loaded
            return loaded

    def embed(self, texts: list[str], **_: Any) -> np.ndarray:
        vectors = np.asarray(self._load().encode(list(texts), normalize_embeddings=True), dtype=np.float32)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        width = min(self.dim, vectors.shape[1]) if vectors.ndim == 2 else 0
        if width:
            out[:, :width] = vectors[:, :width]
        return out
