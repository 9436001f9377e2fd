"""The `openai` provider: any OpenAI-compatible endpoint, through the official SDK.

With agents/llm/gateway.py this is the only module that imports `openai`. The SDK's own
retries are off (`max_retries=0`); `agents.llm.retry` owns timeouts and retries for chat
and embeddings alike, so this module only makes one attempt and classifies failures.
An attempt's `timeout` is its whole wall time, connection to last byte
(agents/llm/http_deadline.py), not only the SDK's bound on each wait.
"""

from __future__ import annotations

import json
import threading
import time
from email.utils import parsedate_to_datetime
from typing import Any

import numpy as np
import openai
from django.conf import settings

from .errors import ProviderError
from .http_deadline import request_ends_at, with_deadline
from .types import ChatRequest, ChatResponse

_ERROR_TEXT_LIMIT = 500


def _retry_after(headers: Any) -> float | None:
    """Seconds the server asked us to wait (Retry-After: seconds or HTTP date; or the
    OpenAI `retry-after-ms` extension), or None."""
    if headers is None:
        return None
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000.0)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(raw).timestamp() - time.time())
    except (TypeError, ValueError, IndexError):
        return None


def provider_error(exc: Exception) -> ProviderError:
    """Classify an SDK exception: only timeouts, connection errors, 429 and 5xx retry."""
    if isinstance(exc, openai.APITimeoutError):
        return ProviderError("request timed out", retriable=True)
    if isinstance(exc, openai.APIConnectionError):
        return ProviderError(f"connection error: {exc}"[:_ERROR_TEXT_LIMIT], retriable=True)
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        retriable = status == 429 or status >= 500
        return ProviderError(
            f"HTTP {status}: {exc.message}"[:_ERROR_TEXT_LIMIT],
            retriable=retriable,
            status=status,
            retry_after=_retry_after(exc.response.headers) if retriable else None,
        )
    return ProviderError(f"{type(exc).__name__}: {exc}"[:_ERROR_TEXT_LIMIT], retriable=False)


class _HttpClient(openai.DefaultHttpxClient):
    """The SDK's own HTTP client and defaults (connection limits, redirects, proxies from
    the environment), its connections' socket calls bound by the attempt's end."""

    def _init_transport(self, *args, **kwargs):
        return with_deadline(super()._init_transport(*args, **kwargs))

    def _init_proxy_transport(self, *args, **kwargs):
        return with_deadline(super()._init_proxy_transport(*args, **kwargs))


_clients_lock = threading.Lock()
_clients: dict[tuple[str, str], openai.OpenAI] = {}


def client() -> openai.OpenAI:
    """One SDK client (and connection pool) per process and per key/base URL, so a
    settings override in tests gets its own client."""
    key = (settings.OPENAI_API_KEY or "", settings.OPENAI_BASE_URL or "")
    with _clients_lock:
        found = _clients.get(key)
        if found is None:
            timeout = max(0.001, settings.STGY_AI_RPC_TIMEOUT_MS / 1000.0)
            found = openai.OpenAI(
                api_key=key[0] or "unused",
                base_url=key[1] or None,
                timeout=timeout,
                max_retries=0,
                http_client=_HttpClient(timeout=timeout),
            )
            if len(_clients) >= 4:  # settings rarely change; tests switch servers often
                _clients.pop(next(iter(_clients))).close()
            _clients[key] = found
        return found


def _int(value: Any) -> int:
    return value if isinstance(value, int) and value > 0 else 0


class OpenAiProvider:
    name = "openai"

    def complete(self, request: ChatRequest, *, timeout: float, max_tokens: int | None = None) -> ChatResponse:
        """One attempt; raises ProviderError."""
        extra: dict[str, Any] = {}
        if request.json_mode:
            extra["response_format"] = {"type": "json_object"}
        if max_tokens is not None:
            extra["max_completion_tokens"] = max_tokens
        # The client and the SDK's lazily imported resource first: a process's first call
        # spends its import there, which is not the model's time.
        completions = client().chat.completions
        try:
            with request_ends_at(timeout):
                completion = completions.create(
                    model=request.model, messages=request.messages, timeout=timeout, **extra
                )
        except openai.OpenAIError as exc:
            raise provider_error(exc) from exc
        return _chat_response(completion, request.model)

    def embed(self, texts: list[str], *, model: str, dim: int, timeout: float) -> tuple[np.ndarray, int]:
        """One attempt: an (n, dim) float32 matrix and the prompt tokens billed."""
        extra: dict[str, Any] = {}
        # Only the text-embedding-3 family accepts `dimensions`; for other models we
        # keep the first `dim` components, which is what the codec does anyway.
        if model.startswith("text-embedding-3"):
            extra["dimensions"] = dim
        embeddings = client().embeddings
        try:
            with request_ends_at(timeout):
                result = embeddings.create(
                    model=model, input=texts, encoding_format="float", timeout=timeout, **extra
                )
        except openai.OpenAIError as exc:
            raise provider_error(exc) from exc
        try:
            rows = sorted(result.data, key=lambda item: item.index)
            if len(rows) != len(texts):
                raise ValueError(f"{len(rows)} embeddings for {len(texts)} inputs")
            matrix = np.zeros((len(texts), dim), dtype=np.float32)
            for i, row in enumerate(rows):
                vector = np.asarray(row.embedding, dtype=np.float32)[:dim]
                matrix[i, : vector.size] = vector
            tokens = _int(getattr(result.usage, "prompt_tokens", 0))
        except (AttributeError, TypeError, ValueError) as exc:
            raise ProviderError(f"malformed embeddings response: {exc}", retriable=False) from exc
        return matrix, tokens


def _chat_response(completion: Any, model: str) -> ChatResponse:
    try:
        choices = completion.choices
        usage = completion.usage
        if choices is None:
            raise ValueError("no choices")
        content = ""
        if choices:
            message = choices[0].message
            content = (message.content if message is not None else None) or ""
        details = getattr(usage, "prompt_tokens_details", None) if usage is not None else None
        return ChatResponse(
            content=content if isinstance(content, str) else str(content),
            model=completion.model if isinstance(completion.model, str) and completion.model else model,
            prompt_tokens=_int(getattr(usage, "prompt_tokens", 0)),
            completion_tokens=_int(getattr(usage, "completion_tokens", 0)),
            cached_tokens=_int(getattr(details, "cached_tokens", 0)),
        )
    except (AttributeError, TypeError, ValueError, IndexError) as exc:
        raise ProviderError(f"malformed chat response: {exc}"[:_ERROR_TEXT_LIMIT], retriable=False) from exc


# --- the batch interface (agents/llm/batch.py): a JSONL file of chat requests, one batch,
# polled until it ends. One attempt each; the caller falls back to direct calls.


def batch_create(lines: list[dict], *, timeout: float) -> dict[str, str]:
    """Upload the request lines and start a batch over them: its id and status."""
    data = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode("utf-8")
    try:
        uploaded = client().files.create(file=("stgy-batch.jsonl", data), purpose="batch", timeout=timeout)
        batch = client().batches.create(
            input_file_id=uploaded.id, endpoint="/v1/chat/completions", completion_window="24h", timeout=timeout
        )
    except openai.OpenAIError as exc:
        raise provider_error(exc) from exc
    return {"id": batch.id, "input_file_id": uploaded.id, "status": batch.status}


def batch_read(batch_id: str, *, timeout: float) -> dict[str, Any]:
    """The batch's status and, once it ended, its output and error files' ids."""
    try:
        batch = client().batches.retrieve(batch_id, timeout=timeout)
    except openai.OpenAIError as exc:
        raise provider_error(exc) from exc
    return {"status": batch.status, "output_file_id": batch.output_file_id, "error_file_id": batch.error_file_id}


def file_text(file_id: str, *, timeout: float) -> str:
    try:
        return client().files.content(file_id, timeout=timeout).text
    except openai.OpenAIError as exc:
        raise provider_error(exc) from exc


def batch_chat_response(body: Any, model: str) -> ChatResponse:
    """A chat completion of a batch's output line, as `complete` would return it."""
    try:
        completion = openai.types.chat.ChatCompletion.model_validate(body)
    except Exception as exc:  # noqa: BLE001 - pydantic's errors, whatever the answer was
        raise ProviderError(f"malformed batch answer: {exc}"[:_ERROR_TEXT_LIMIT], retriable=False) from exc
    return _chat_response(completion, model)
