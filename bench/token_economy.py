"""bench/token_economy: what one AI-user cycle costs in LLM tokens.

Cycles run in this process with the offline stand-in; every prompt the gateway sends is
captured. Per cycle: LLM calls, prompt tokens, completion tokens, and the share of
prompt bytes that is a byte-identical prefix of the previous call of the same AI user
(what a provider's prefix cache could reuse). Per post read: prompt tokens of its
impression call. Token counts are o200k_base when `bpe-openai` is installed (see
bench/tokens.py).

Completion tokens are given twice: what the stand-in wrote (short, fixed phrasing) and
what a model writing the length each prompt asks for would bill ({{MAX_CHARS}}
characters of text plus the JSON around it) — the latter is the realistic figure.
Calls are made one at a time (stage concurrency 1) so "the previous call" is
well-defined; with parallel calls a provider sees the same prefixes, only later.

    python -m bench.token_economy --db stgy_bench_medium --cycles 30
"""

from __future__ import annotations

import argparse
import os
import threading

from .common import INPROCESS_REDIS_URL, django_setup, redis_flush, summary, write_json
from .tokens import count_tokens, tokenizer_name

ORIGINAL_ESTIMATE = {"prompt_tokens": 115_000, "completion_tokens": 24_000}
OPENAI_MIN_CACHED = 1024  # a prompt prefix is cached from 1,024 tokens on, in 128-token steps
OPENAI_STEP = 128
JSON_OVERHEAD_TOKENS = 40  # keys, tags and booleans around the text


def common_prefix(a: bytes, b: bytes) -> int:
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
    if prefix_tokens < OPENAI_MIN_CACHED:
        return 0
    return OPENAI_MIN_CACHED + (prefix_tokens - OPENAI_MIN_CACHED) // OPENAI_STEP * OPENAI_STEP


class Capture:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls: list[dict] = []

    def install(self) -> None:
        from agents.llm.offline import OfflineProvider

        capture = self
        original = OfflineProvider.complete

        def complete(self, request):
            response = original(self, request)
            prompt = "\n".join(str(m.get("content", "")) for m in request.messages)
            with capture.lock:
                capture.calls.append({
                    "task": request.task, "locale": request.locale, "prompt": prompt,
                    "completion": response.content,
                    "max_chars": int((request.inputs or {}).get("max_chars") or 0),
                })
            return response

        OfflineProvider.complete = complete


def expected_completion_tokens(call: dict) -> int:
    """Tokens of a model answer of the asked length: {{MAX_CHARS}} characters of text
    in the call's language (counted on the stand-in's own text, scaled), plus JSON."""
    text = call["completion"]
    sample_tokens = max(1, count_tokens(text))
    per_char = sample_tokens / max(1, len(text))
    return int(call["max_chars"] * per_char) + JSON_OVERHEAD_TOKENS if call["max_chars"] else sample_tokens


def analyse_cycle(calls: list[dict]) -> dict:
    previous: bytes | None = None
    prompt_bytes = shared_bytes = 0
    prompt_tokens = completion_tokens = expected_tokens = cacheable_tokens = unshared_tokens = 0
    by_task: dict[str, dict] = {}
    impression_tokens = []
    for call in calls:
        data = call["prompt"].encode("utf-8")
        tokens = count_tokens(call["prompt"])
        shared = common_prefix(previous, data) if previous is not None else 0
        # Token count of the shared part, cut at a character boundary.
        prefix_tokens = count_tokens(data[:shared].decode("utf-8", "ignore")) if shared else 0
        previous = data
        prompt_bytes += len(data)
        shared_bytes += shared
        prompt_tokens += tokens
        cacheable_tokens += provider_cacheable(prefix_tokens)
        # What no prefix cache can spare, whatever its minimum: the part after the
        # prefix shared with the previous call.
        unshared_tokens += max(0, tokens - prefix_tokens)
        completion = count_tokens(call["completion"])
        expected = expected_completion_tokens(call)
        completion_tokens += completion
        expected_tokens += expected
        task = by_task.setdefault(call["task"], {"calls": 0, "prompt_tokens": 0, "expected_completion_tokens": 0})
        task["calls"] += 1
        task["prompt_tokens"] += tokens
        task["expected_completion_tokens"] += expected
        if call["task"] == "post-impression":
            impression_tokens.append(tokens)
    return {
        "calls": len(calls),
        "prompt_tokens": prompt_tokens,
        "completion_tokens_standin": completion_tokens,
        "completion_tokens_expected": expected_tokens,
        "prompt_bytes": prompt_bytes,
        "prefix_shared_bytes": shared_bytes,
        "prefix_share": shared_bytes / prompt_bytes if prompt_bytes else 0.0,
        "provider_cacheable_tokens": cacheable_tokens,
        "unshared_prompt_tokens": unshared_tokens,
        "by_task": by_task,
        "impression_prompt_tokens": impression_tokens,
    }


def run(*, cycles: int, seed: int) -> dict:
    from django.db import connection

    from agents.cycle.run import run_cycle_sync
    from sns.models import Post, User

    from .cycle_overhead import ai_users

    capture = Capture()
    capture.install()
    per_cycle = []
    for user_id in ai_users(cycles, seed):
        capture.calls = []
        run_ = run_cycle_sync(user_id)
        if run_ is None:
            continue
        result = analyse_cycle(capture.calls)
        result["reads"] = len(run_.details.get("reads") or [])
        result["locale"] = run_.user.locale
        per_cycle.append(result)
    impressions = [t for c in per_cycle for t in c["impression_prompt_tokens"]]
    reads = sum(c["reads"] for c in per_cycle)
    tasks: dict[str, dict] = {}
    for c in per_cycle:
        for name, t in c["by_task"].items():
            agg = tasks.setdefault(name, {"calls": 0, "prompt_tokens": 0, "expected_completion_tokens": 0})
            for k in agg:
                agg[k] += t[k]
    n = len(per_cycle) or 1
    for agg in tasks.values():
        agg["prompt_tokens_per_call"] = round(agg["prompt_tokens"] / agg["calls"]) if agg["calls"] else 0
        agg["calls_per_cycle"] = round(agg["calls"] / n, 2)
    total_bytes = sum(c["prompt_bytes"] for c in per_cycle)
    return {
        "bench": "token_economy",
        "database": connection.settings_dict["NAME"],
        "users": User.objects.count(),
        "posts": Post.objects.count(),
        "tokenizer": tokenizer_name(),
        "cycles": len(per_cycle),
        "per_cycle": {
            key: summary([c[key] for c in per_cycle])
            for key in ("calls", "prompt_tokens", "completion_tokens_standin", "completion_tokens_expected",
                        "prefix_share", "provider_cacheable_tokens", "unshared_prompt_tokens", "reads")
        },
        "prefix_share_overall": sum(c["prefix_shared_bytes"] for c in per_cycle) / total_bytes if total_bytes else 0,
        "per_post_read": {
            "impression_prompt_tokens": summary(impressions),
            "cycle_prompt_tokens_per_read": sum(c["prompt_tokens"] for c in per_cycle) / reads if reads else None,
        },
        "by_task": tasks,
        "original_estimate": ORIGINAL_ESTIMATE,
    }


def print_report(r: dict) -> None:
    pc = r["per_cycle"]
    print(f"token_economy on {r['database']} ({r['users']:,} users, {r['posts']:,} posts), {r['cycles']} cycles, "
          f"tokenizer {r['tokenizer']}")
    print(f"per cycle: {pc['calls']['mean']:.1f} calls, prompt {pc['prompt_tokens']['mean']:,.0f} tokens "
          f"(p90 {pc['prompt_tokens']['p90']:,.0f}), completion {pc['completion_tokens_expected']['mean']:,.0f} "
          f"expected ({pc['completion_tokens_standin']['mean']:,.0f} from the stand-in); "
          f"prefix share {r['prefix_share_overall']:.0%}, provider-cacheable {pc['provider_cacheable_tokens']['mean']:,.0f} tokens, "
          f"outside the shared prefix {pc['unshared_prompt_tokens']['mean']:,.0f} tokens")
    pr = r["per_post_read"]
    print(f"per post read: impression prompt p50 {pr['impression_prompt_tokens']['p50']:,.0f}, "
          f"p90 {pr['impression_prompt_tokens']['p90']:,.0f}, max {pr['impression_prompt_tokens']['max']:,.0f}; "
          f"cycle prompt tokens / reads {pr['cycle_prompt_tokens_per_read'] or 0:,.0f}")
    for name, t in sorted(r["by_task"].items()):
        print(f"  {name:<16} {t['calls_per_cycle']:>5} calls/cycle  {t['prompt_tokens_per_call']:>6,} prompt tokens/call")
    print(f"original design estimate: {ORIGINAL_ESTIMATE['prompt_tokens']:,} in / {ORIGINAL_ESTIMATE['completion_tokens']:,} out")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description="LLM tokens per AI-user cycle")
    parser.add_argument("--db")
    parser.add_argument("--cycles", type=int, default=30)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    os.environ["STGY_AI_USER_STAGE_CONCURRENCY"] = "1"
    django_setup(args.db, REDIS_URL=INPROCESS_REDIS_URL, STGY_AI_PROVIDER="offline", STGY_AI_USER_STAGE_CONCURRENCY="1")
    if args.db:
        redis_flush(INPROCESS_REDIS_URL)
    result = run(cycles=args.cycles, seed=args.seed)
    if args.db:
        redis_flush(INPROCESS_REDIS_URL)
    print_report(result)
    write_json(args.json, result)
    return result


if __name__ == "__main__":
    main()
