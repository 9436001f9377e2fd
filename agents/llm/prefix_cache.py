"""What a provider's prefix cache would serve of a prompt: OpenAI's rule (a shared
prefix counts from 1,024 tokens on, in 128-token steps) over the longest prefix the
prompt shares with recent prompts. The offline stand-in reports cached tokens with it,
and the token benchmark and its stand-in server measure with it (bench/)."""

from __future__ import annotations

import threading
from collections import deque

OPENAI_MIN_CACHED = 1024
OPENAI_STEP = 128


def common_prefix(a: bytes, b: bytes) -> int:
    """The number of equal leading bytes."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    lo, hi = 0, n
    while lo < hi:  # longest equal prefix by bisection on slices (fast in C)
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def provider_cacheable(prefix_tokens: int) -> int:
    """Tokens of a shared prefix of `prefix_tokens` that OpenAI bills as cached."""
    if prefix_tokens < OPENAI_MIN_CACHED:
        return 0
    return OPENAI_MIN_CACHED + (prefix_tokens - OPENAI_MIN_CACHED) // OPENAI_STEP * OPENAI_STEP


class RecentPrompts:
    """The last `size` prompts seen (bytes), shared by threads."""

    def __init__(self, size: int) -> None:
        self._recent: deque[bytes] = deque(maxlen=size)
        self._lock = threading.Lock()

    def shared_then_add(self, data: bytes) -> int:
        """Bytes of the longest prefix `data` shares with a remembered prompt; then
        remember `data`."""
        with self._lock:
            recent = list(self._recent)
            self._recent.append(data)
        return max((common_prefix(other, data) for other in recent), default=0)
