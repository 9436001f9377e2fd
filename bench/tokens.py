"""Token counts for the benchmarks: exact o200k_base counts (the tokenizer of the GPT-4o
and later families) when the optional `bpe-openai` package is installed (`pip install
-e .[bench]`, it ships the vocabulary; nothing is downloaded), otherwise an estimate:
one token per four ASCII characters and one per non-ASCII character (close for English
prose and JSON; Japanese runs about 0.7-1 token per character)."""

from __future__ import annotations

import functools
import math


@functools.lru_cache(maxsize=1)
def _encoding():
    try:
        import bpe_openai
    except ImportError:
        return None
    try:
        return bpe_openai.get_encoding("o200k_base")
    except Exception:
        return None


def tokenizer_name() -> str:
    return "o200k_base (bpe-openai)" if _encoding() is not None else "estimate (ASCII/4 + non-ASCII)"


def count_tokens(text: str) -> int:
    encoding = _encoding()
    if encoding is not None and len(text) < 900_000:
        return len(encoding.encode(text))
    ascii_chars = sum(1 for ch in text if ord(ch) < 128)
    return math.ceil(ascii_chars / 4) + (len(text) - ascii_chars)
