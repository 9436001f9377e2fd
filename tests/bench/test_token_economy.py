"""The arithmetic of bench/token_economy: prefix sharing between consecutive calls of
one AI user, and OpenAI's caching rule."""

from __future__ import annotations

import pytest

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


def test_another_users_call_warms_the_common_part_and_cached_tokens_bill_at_the_ratio(settings):
    from collections import deque

    settings.STGY_AI_PRICES = "priced=2:0.5:8"
    common = "Common instructions for every AI user, the same bytes. " * 120  # > 1,024 tokens
    assert count_tokens(common) >= 1024 + 128
    recent = deque(maxlen=64)
    other = analyse_cycle([dict(call("post-impression", common + "Profile: Mina. A post."), model="priced")], recent)
    # Nothing earlier to share with: the first call ever is all fresh.
    assert other["provider_cacheable_tokens"] == 0
    assert other["billed_equivalent_tokens"] == other["prompt_tokens"]

    first = dict(call("post-impression", common + "Profile: Aiko. Another post."), model="priced")
    result = analyse_cycle([first], recent, default_ratio=0.1)
    cached = provider_cacheable(count_tokens(common + "Profile: "))
    assert result["prefix_shared_bytes"] == 0  # no previous call of this user...
    assert result["provider_cacheable_tokens"] == cached >= 1024  # ...but Mina's call warmed the common part
    # The priced model's cached input costs a quarter of its fresh input.
    expected = result["prompt_tokens"] - cached + cached * 0.25
    assert result["billed_equivalent_tokens"] == round(expected)
    # A provider caches per model: the priced model's calls warm nothing for another one.
    unpriced = analyse_cycle([call("post-impression", common + "Profile: Kai. A third.")], recent, default_ratio=0.1)
    assert unpriced["provider_cacheable_tokens"] == 0
    again = analyse_cycle([call("post-impression", common + "Profile: Lee. A fourth.")], recent, default_ratio=0.1)
    cached = again["provider_cacheable_tokens"]
    assert cached >= 1024  # Kai's call, on the same (unpriced) model, warmed it
    assert again["billed_equivalent_tokens"] == round(again["prompt_tokens"] - cached + cached * 0.1)
    assert again["cost"] == 0.0  # no price, no money


def test_money_per_call_and_the_batch_discount_on_judging_tasks(settings):
    settings.STGY_AI_PRICES = "priced=2:0.5:8"
    judge = dict(call("post-impressions", "Judge these posts."), model="priced")
    write = dict(call("reply-post", "Write a reply."), model="priced")
    direct = analyse_cycle([judge, write])
    expected = sum(
        (count_tokens(c["prompt"]) * 2 + count_tokens(c["completion"]) * 8) / 1_000_000 for c in (judge, write)
    )
    assert direct["cost"] == pytest.approx(expected)
    batched = analyse_cycle([judge, write], batch_discount=0.5)
    judging = (count_tokens(judge["prompt"]) * 2 + count_tokens(judge["completion"]) * 8) / 1_000_000
    assert batched["cost"] == pytest.approx(expected - judging / 2)
