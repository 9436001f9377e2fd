"""Plain data passed between the gateway, its providers and its callers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ChatRequest:
    """One chat completion as the gateway hands it to a provider.

    `task` names the prompt family ("post-impression", "reply-post", ...; "chat" for
    free-form calls from the HTTP proxy). `inputs` carries the structured inputs the
    prompt was rendered from; the openai provider ignores it, the offline stand-in
    reads it instead of re-parsing the prompt text.
    """

    messages: list[dict[str, str]]
    model: str
    task: str = "chat"
    locale: str = "en"
    json_mode: bool = False
    inputs: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ChatResponse:
    content: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
