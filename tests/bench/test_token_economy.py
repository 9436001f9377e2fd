"""The arithmetic of bench/token_economy: prefix sharing between consecutive calls of
one AI user, and OpenAI's caching rule."""

from __future__ import annotations

from bench.token_economy import analyse_cycle, common_prefix, provider_cacheable
from bench.tokens import count_tokens


def call(task, prompt):
    return {"task": task, "locale": "en", "prompt": prompt, "completion": '{"impression":"ok"}', "max_chars": 0}


def test_common_prefix_counts_equal_leading_bytes():
    assert common_prefix(b"abcdef", b"abcxyz") == 3
    assert common_prefix(b"abc", b"abcdef") == 3
    assert common_prefix(b"x", b"y") == 0


def test_provider_cacheable_follows_the_1024_token_rule_in_128_steps():
    assert provider_cacheable(1023) == 0
    assert provider_cacheable(1024) == 1024
    assert provider_cacheable(1151) == 1024
    assert provider_cacheable(1152) == 1152


def test_shared_and_unshared_parts_of_a_cycle():
    shared = "Profile: the same words for every call. " * 5
    first, second = shared + "first post", shared + "second post, longer"
    result = analyse_cycle([call("post-impression", first), call("post-impression", second)])
    assert result["calls"] == 2
    assert result["prefix_shared_bytes"] == len(shared.encode())  # the first call shares nothing
    assert result["prefix_share"] == len(shared.encode()) / len((first + second).encode())
    # All of the first call, and the second call after the shared prefix.
    expected = count_tokens(first) + count_tokens(second) - count_tokens(shared)
    assert abs(result["unshared_prompt_tokens"] - expected) <= 1  # a token may straddle the cut
    assert result["impression_prompt_tokens"] == [count_tokens(first), count_tokens(second)]
