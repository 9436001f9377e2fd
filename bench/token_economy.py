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

Provider-cacheable tokens follow OpenAI's rule (a prefix from 1,024 tokens on, in
128-token steps) over the longest prefix a call shares with an earlier prompt the
provider has seen recently: the same user's previous call, or one of the last
RECENT_WINDOW calls of the site (the common instructions are the same bytes for every
AI user of a language, so another user's call warms them; on a live site with many AI
users they are always warm, a window of about three cycles is the conservative case).
Billed-equivalent input tokens count those at the cached price: the ratio of cached to
fresh input price of the call's model in the price sheet (agents/llm/usage.py's default,
or `--prices` over it), or `--cached-ratio` (default 0.1, the GPT-5 family's) for a
model without a price. A provider caches prompts per model, so a call shares a prefix
only with earlier calls on the same model.

Money, with the price sheet and the completions of the asked length, for the same
captured cycles three ways: `direct` (every cycle task on the AI user's own tier, the
summary on `basic`: the tree before the cascade), `cascade` (the calls as made: judging
on STGY_AI_JUDGING_TIER, writing on the own tier, agents/llm/task_tiers.py) and
`cascade_batch` (the cascade with the judging tasks at BATCH_DISCOUNT off, the
providers' batch price). Batch mode (STGY_AI_BATCH=on) now sends the cycle's judging
stages through batches too (agents/runs/batched.py) and prices each batched answer's
usage row at that discount (agents/llm/batch.py BATCH_PRICE_FACTOR), so `cascade_batch`
is what a cycle costs in batch mode; it is still computed here from the captured direct
calls (a projection by the same arithmetic), not measured through batch endpoints: the
stand-in model has none. Per AI user per day is per cycle times the cycles a day
(86,400,000 / STGY_AI_USER_LOOP_SLEEP_MS); the respond path and summaries are not in it.

    python -m bench.token_economy --db stgy_bench_medium --cycles 30
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
from collections import deque

from agents.llm.prefix_cache import common_prefix, provider_cacheable  # noqa: F401 (used by tests too)

from .common import INPROCESS_REDIS_URL, django_setup, redis_flush, summary, write_json
from .tokens import count_tokens, tokenizer_name

ORIGINAL_ESTIMATE = {"prompt_tokens": 115_000, "completion_tokens": 24_000}
JSON_OVERHEAD_TOKENS = 40  # keys, tags and booleans around the text
RECENT_WINDOW = 64  # the site's latest calls whose prefixes count as warm in the provider's cache
DEFAULT_CACHED_RATIO = 0.1  # cached / fresh input price when the model has none in STGY_AI_PRICES
BATCH_DISCOUNT = 0.5  # what OpenAI-compatible batch endpoints take off their price
MODES = ("direct", "cascade", "cascade_batch")


class Capture:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls: list[dict] = []

    def install(self) -> None:
        from agents.llm.offline import OfflineProvider
        from agents.prompts import messages_text

        capture = self
        original = OfflineProvider.complete

        def complete(self, request):
            response = original(self, request)
            prompt = messages_text(request.messages)
            with capture.lock:
                capture.calls.append({
                    "task": request.task, "locale": request.locale, "prompt": prompt, "model": request.model,
                    "completion": response.content,
                    "max_chars": int((request.inputs or {}).get("max_chars") or 0),
                    "items": items_of((request.inputs or {}).get("payload")),
                })
            return response

        OfflineProvider.complete = complete


def items_of(payload) -> int:
    """How many items one call judges: the length of its list of numbered items (posts
    or users judged together, agents/cycle/impressions.py), else 1."""
    if isinstance(payload, dict):
        for key in ("posts", "users"):
            value = payload.get(key)
            if isinstance(value, list) and value and all(isinstance(v, dict) and "n" in v for v in value):
                return len(value)
    return 1


def expected_completion_tokens(call: dict) -> int:
    """Tokens of a model answer of the asked length: {{MAX_CHARS}} characters of text
    in the call's language (counted on the stand-in's own text, scaled), plus JSON, for
    each item the call judges."""
    text = call["completion"]
    items = call.get("items", 1)
    sample_tokens = max(1, count_tokens(text))
    per_char = sample_tokens / max(1, len(text))
    if not call["max_chars"]:
        return sample_tokens
    return items * (int(call["max_chars"] * per_char) + JSON_OVERHEAD_TOKENS)


def cached_ratio(model: str, default: float) -> float:
    """Cached / fresh input price of `model` in STGY_AI_PRICES, else `default`."""
    from agents.llm.usage import price_table

    price = price_table().get(model)
    if price is None or not price.input:
        return default
    return float(price.cached_input / price.input)


def call_cost(model: str, *, prompt_tokens: int, cached_tokens: int, completion_tokens: int) -> float:
    """Dollars of one call at the price sheet (0 for a model without a price)."""
    from agents.llm.usage import price_table

    price = price_table().get(model)
    if price is None:
        return 0.0
    fresh = prompt_tokens - cached_tokens
    total = fresh * price.input + cached_tokens * price.cached_input + completion_tokens * price.output
    return float(total) / 1_000_000


def analyse_cycle(
    calls: list[dict], recent: deque | None = None, *, default_ratio: float = DEFAULT_CACHED_RATIO,
    batch_discount: float = 0.0,
) -> dict:
    """Figures of one cycle's calls. `recent` holds the site's latest prompts (model,
    bytes), earlier cycles' included; each call is added to it. With `batch_discount` the
    batchable (judging) tasks cost that much less."""
    from agents.llm.task_tiers import JUDGING_TASKS

    recent = recent if recent is not None else deque(maxlen=RECENT_WINDOW)
    previous: dict[str, bytes] = {}  # per model: a provider caches prompts per model
    prompt_bytes = shared_bytes = 0
    prompt_tokens = completion_tokens = expected_tokens = cacheable_tokens = unshared_tokens = 0
    billed = cost = 0.0
    by_task: dict[str, dict] = {}
    impression_tokens = []
    for call in calls:
        data = call["prompt"].encode("utf-8")
        model = call.get("model", "")
        tokens = count_tokens(call["prompt"])
        shared = common_prefix(previous[model], data) if model in previous else 0
        # What the provider's cache may hold: the same user's previous call on this
        # model, or any of the site's recent calls on it (another user's call warms the
        # common instructions).
        warm = max([shared, *(common_prefix(other, data) for m, other in recent if m == model)])
        recent.append((model, data))
        # Token counts of the shared parts, cut at a character boundary.
        prefix_tokens = count_tokens(data[:shared].decode("utf-8", "ignore")) if shared else 0
        warm_tokens = count_tokens(data[:warm].decode("utf-8", "ignore")) if warm else 0
        previous[model] = data
        prompt_bytes += len(data)
        shared_bytes += shared
        prompt_tokens += tokens
        cacheable = provider_cacheable(warm_tokens)
        cacheable_tokens += cacheable
        billed += tokens - cacheable + cacheable * cached_ratio(model, default_ratio)
        # What no prefix cache can spare, whatever its minimum: the part after the
        # prefix shared with the previous call.
        unshared_tokens += max(0, tokens - prefix_tokens)
        completion = count_tokens(call["completion"])
        expected = expected_completion_tokens(call)
        completion_tokens += completion
        expected_tokens += expected
        money = call_cost(model, prompt_tokens=tokens, cached_tokens=cacheable, completion_tokens=expected)
        cost += money * (1 - batch_discount) if call["task"] in JUDGING_TASKS else money
        task = by_task.setdefault(call["task"], {"calls": 0, "prompt_tokens": 0, "expected_completion_tokens": 0})
        task["calls"] += 1
        task["prompt_tokens"] += tokens
        task["expected_completion_tokens"] += expected
        if call["task"] in ("post-impression", "post-impressions"):
            # Per post read: the call's tokens shared out over the posts it judged.
            impression_tokens.extend([tokens / call.get("items", 1)] * call.get("items", 1))
    return {
        "calls": len(calls),
        "prompt_tokens": prompt_tokens,
        "completion_tokens_standin": completion_tokens,
        "completion_tokens_expected": expected_tokens,
        "prompt_bytes": prompt_bytes,
        "prefix_shared_bytes": shared_bytes,
        "prefix_share": shared_bytes / prompt_bytes if prompt_bytes else 0.0,
        "provider_cacheable_tokens": cacheable_tokens,
        "cacheable_share": cacheable_tokens / prompt_tokens if prompt_tokens else 0.0,
        "billed_equivalent_tokens": round(billed),
        "cost": cost,
        "unshared_prompt_tokens": unshared_tokens,
        "by_task": by_task,
        "impression_prompt_tokens": impression_tokens,
    }


def run(*, cycles: int, seed: int, default_ratio: float = DEFAULT_CACHED_RATIO) -> dict:
    from django.conf import settings
    from django.db import connection

    from agents.cycle.run import run_cycle_sync
    from sns.models import Post, User

    from .cycle_overhead import ai_users

    from agents.llm.gateway import model_for_tier

    capture = Capture()
    capture.install()
    per_cycle = []
    recent: dict[str, deque] = {mode: deque(maxlen=RECENT_WINDOW) for mode in MODES}
    costs: dict[str, list[float]] = {mode: [] for mode in MODES}
    for user_id in ai_users(cycles, seed):
        capture.calls = []
        run_ = run_cycle_sync(user_id)
        if run_ is None:
            continue
        result = analyse_cycle(capture.calls, recent["cascade"], default_ratio=default_ratio)
        result["reads"] = len(run_.details.get("reads") or [])
        result["locale"] = run_.user.locale
        per_cycle.append(result)
        costs["cascade"].append(result["cost"])
        # Today's tree before the cascade: every cycle task on the AI user's own tier.
        own, basic = model_for_tier(run_.user.ai_model), model_for_tier("basic")
        direct = [dict(c, model=basic if c["task"] == "post-summary" else own) for c in capture.calls]
        costs["direct"].append(analyse_cycle(direct, recent["direct"], default_ratio=default_ratio)["cost"])
        batched = analyse_cycle(capture.calls, recent["cascade_batch"], default_ratio=default_ratio,
                                batch_discount=BATCH_DISCOUNT)
        costs["cascade_batch"].append(batched["cost"])
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
    cycles_a_day = 86_400_000 / settings.STGY_AI_USER_LOOP_SLEEP_MS
    economy = {
        mode: {
            "per_cycle": statistics.fmean(values) if values else 0.0,
            "per_ai_user_day": (statistics.fmean(values) if values else 0.0) * cycles_a_day,
        }
        for mode, values in costs.items()
    }
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
                        "prefix_share", "provider_cacheable_tokens", "billed_equivalent_tokens",
                        "unshared_prompt_tokens", "reads")
        },
        "cacheable_share_overall": (sum(c["provider_cacheable_tokens"] for c in per_cycle)
                                    / max(1, sum(c["prompt_tokens"] for c in per_cycle))),
        "cached_price_ratio_default": default_ratio,
        "prices": settings.STGY_AI_PRICES,
        "prefix_share_overall": sum(c["prefix_shared_bytes"] for c in per_cycle) / total_bytes if total_bytes else 0,
        "per_post_read": {
            "impression_prompt_tokens": summary(impressions),
            "cycle_prompt_tokens_per_read": sum(c["prompt_tokens"] for c in per_cycle) / reads if reads else None,
        },
        "by_task": tasks,
        "economy": economy,
        "cycles_a_day": cycles_a_day,
        "batch_discount": BATCH_DISCOUNT,
        "judging_tier": settings.STGY_AI_JUDGING_TIER,
        "original_estimate": ORIGINAL_ESTIMATE,
    }


def print_report(r: dict) -> None:
    pc = r["per_cycle"]
    print(f"token_economy on {r['database']} ({r['users']:,} users, {r['posts']:,} posts), {r['cycles']} cycles, "
          f"tokenizer {r['tokenizer']}")
    print(f"per cycle: {pc['calls']['mean']:.1f} calls, prompt {pc['prompt_tokens']['mean']:,.0f} tokens "
          f"(p90 {pc['prompt_tokens']['p90']:,.0f}), completion {pc['completion_tokens_expected']['mean']:,.0f} "
          f"expected ({pc['completion_tokens_standin']['mean']:,.0f} from the stand-in); "
          f"prefix share {r['prefix_share_overall']:.0%}, provider-cacheable {pc['provider_cacheable_tokens']['mean']:,.0f} tokens "
          f"({r.get('cacheable_share_overall', 0):.0%} of prompt tokens), "
          f"outside the shared prefix {pc['unshared_prompt_tokens']['mean']:,.0f} tokens")
    print(f"billed-equivalent input per cycle: {pc['billed_equivalent_tokens']['mean']:,.0f} tokens "
          f"(p90 {pc['billed_equivalent_tokens']['p90']:,.0f}; cached tokens at the cached price of STGY_AI_PRICES, "
          f"x{r['cached_price_ratio_default']:g} for an unpriced model)")
    pr = r["per_post_read"]
    print(f"per post read: impression prompt p50 {pr['impression_prompt_tokens']['p50']:,.0f}, "
          f"p90 {pr['impression_prompt_tokens']['p90']:,.0f}, max {pr['impression_prompt_tokens']['max']:,.0f}; "
          f"cycle prompt tokens / reads {pr['cycle_prompt_tokens_per_read'] or 0:,.0f}")
    for name, t in sorted(r["by_task"].items()):
        print(f"  {name:<16} {t['calls_per_cycle']:>5} calls/cycle  {t['prompt_tokens_per_call']:>6,} prompt tokens/call")
    print(f"original design estimate: {ORIGINAL_ESTIMATE['prompt_tokens']:,} in / {ORIGINAL_ESTIMATE['completion_tokens']:,} out")
    e = r["economy"]
    print(f"money with the price sheet (US dollars; {r['cycles_a_day']:g} cycles a day; judging tier "
          f"{r['judging_tier']}; cascade_batch projects the judging tasks at {r['batch_discount']:.0%} off, "
          f"as batch mode prices them):")
    for mode in MODES:
        share = e[mode]["per_cycle"] / e["direct"]["per_cycle"] if e["direct"]["per_cycle"] else 0
        print(f"  {mode:<14} {e[mode]['per_cycle']:.5f} per cycle  {e[mode]['per_ai_user_day']:.4f} per AI user a day"
              f"  ({share:.0%} of direct)")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description="LLM tokens per AI-user cycle")
    parser.add_argument("--db")
    parser.add_argument("--cycles", type=int, default=30)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--json")
    parser.add_argument("--prices", default=os.environ.get("STGY_AI_PRICES", ""),
                        help="STGY_AI_PRICES for the billed-equivalent figure (default: the environment's)")
    parser.add_argument("--cached-ratio", type=float, default=DEFAULT_CACHED_RATIO,
                        help="cached / fresh input price for a model without a price (default %(default)s)")
    args = parser.parse_args(argv)
    os.environ["STGY_AI_USER_STAGE_CONCURRENCY"] = "1"
    django_setup(args.db, REDIS_URL=INPROCESS_REDIS_URL, STGY_AI_PROVIDER="offline", STGY_AI_USER_STAGE_CONCURRENCY="1",
                 STGY_AI_PRICES=args.prices)
    if args.db:
        redis_flush(INPROCESS_REDIS_URL)
    result = run(cycles=args.cycles, seed=args.seed, default_ratio=args.cached_ratio)
    if args.db:
        redis_flush(INPROCESS_REDIS_URL)
    print_report(result)
    write_json(args.json, result)
    return result


if __name__ == "__main__":
    main()
