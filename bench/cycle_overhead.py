"""bench/cycle_overhead: the non-LLM CPU time and the SQL queries of one AI-user cycle,
per stage, with an instant LLM stand-in (the `offline` provider).

Cycles run in this process, stage by stage, exactly as the Celery stage tasks run them
(`cycle_begin`, `stage_execute` per stage, `cycle_end`). CPU time is this process's
(all threads, so the stage's LLM job threads count) minus the CPU the stand-in itself
spends writing answers; queries are counted on every database connection of the
process, so the usage rows the job threads write count too, except the stand-in's own
reads (its recent AI texts), which are counted apart as its CPU is: a real model makes
none. The AI users get their schedule rows first, as the dispatcher gives them in a
running site (`ensure_states`), so `lease_claim` does not create them mid-cycle.

    python -m bench.cycle_overhead --db stgy_bench_small --cycles 30
"""

from __future__ import annotations

import argparse
import random
import threading
import time
from collections import defaultdict

from .common import INPROCESS_REDIS_URL, django_setup, redis_flush, summary, write_json

BEGIN, END = "cycle_begin", "cycle_end"
METRICS = ("cpu_ms", "queries", "db_ms", "wall_ms", "llm_calls", "standin_queries")


class Meter:
    """Counts SQL queries and stand-in CPU per stage, across all threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.stage = "setup"
        self.queries: dict[str, int] = defaultdict(int)
        self.db_seconds: dict[str, float] = defaultdict(float)
        self.llm_cpu: dict[str, float] = defaultdict(float)
        self.llm_calls: dict[str, int] = defaultdict(int)
        self.llm_queries: dict[str, int] = defaultdict(int)
        self.in_standin = threading.local()

    def install(self) -> None:
        from django.db.backends import utils

        from agents.llm.offline import OfflineProvider

        meter = self
        self._originals = []
        # CursorDebugWrapper's methods call these through super(): one count per query.
        for cls in (utils.CursorWrapper,):
            for name in ("execute", "executemany"):
                original = cls.__dict__.get(name, getattr(cls, name))
                self._originals.append((cls, name, cls.__dict__.get(name)))

                def wrapped(self, *args, __original=original, **kwargs):
                    started = time.perf_counter()
                    try:
                        return __original(self, *args, **kwargs)
                    finally:
                        elapsed = time.perf_counter() - started
                        with meter.lock:
                            if getattr(meter.in_standin, "on", False):
                                meter.llm_queries[meter.stage] += 1
                            else:
                                meter.queries[meter.stage] += 1
                                meter.db_seconds[meter.stage] += elapsed

                setattr(cls, name, wrapped)
        original_complete = OfflineProvider.complete
        self._originals.append((OfflineProvider, "complete", original_complete))

        def complete(self, request):
            started = time.thread_time()
            meter.in_standin.on = True
            try:
                return original_complete(self, request)
            finally:
                meter.in_standin.on = False
                spent = time.thread_time() - started
                with meter.lock:
                    meter.llm_cpu[meter.stage] += spent
                    meter.llm_calls[meter.stage] += 1

        OfflineProvider.complete = complete

    def uninstall(self) -> None:
        """Put the patched methods back (the smoke test shares its process with others)."""
        for cls, name, original in reversed(getattr(self, "_originals", [])):
            if original is None:
                delattr(cls, name)
            else:
                setattr(cls, name, original)
        self._originals = []

    def snapshot(self) -> tuple[int, float, float, int, int]:
        s = self.stage
        return self.queries[s], self.db_seconds[s], self.llm_cpu[s], self.llm_calls[s], self.llm_queries[s]


def ai_users(sample: int, seed: int) -> list[int]:
    from sns.models import User

    ids = list(User.objects.filter(ai_model__isnull=False, is_frozen=False).order_by("id").values_list("id", flat=True))
    random.Random(seed).shuffle(ids)
    return ids[:sample]


def measure_cycle(meter: Meter, user_id: int) -> dict:
    from agents.cycle import STAGES
    from agents.cycle.run import cycle_begin, cycle_end, stage_execute

    stages: dict[str, dict] = {}

    def step(name: str, fn):
        meter.stage = name
        q0, d0, l0, c0, s0 = meter.snapshot()
        cpu0, wall0 = time.process_time(), time.perf_counter()
        result = fn()
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        q1, d1, l1, c1, s1 = meter.snapshot()
        stages[name] = {
            "cpu_ms": (cpu - (l1 - l0)) * 1000,
            "queries": q1 - q0,
            "db_ms": (d1 - d0) * 1000,
            "wall_ms": wall * 1000,
            "llm_calls": c1 - c0,
            "standin_queries": s1 - s0,
        }
        return result

    run = step(BEGIN, lambda: cycle_begin(user_id))
    if run is None:
        return {}
    outcomes = {}
    for stage in STAGES:
        record = step(stage, lambda s=stage: stage_execute(run.pk, s))
        outcomes[stage] = record["outcome"]
    final = step(END, lambda: cycle_end(run.pk))
    meter.stage = "idle"
    return {"stages": stages, "outcomes": outcomes, "status": final.status,
            "read": len(final.details.get("reads") or []), "run_id": run.pk}


def trace_storage(run_ids: list[int]) -> dict:
    """The call traces' storage per cycle (agents/llm/trace.py): the compressed messages
    and answers plus the layers' JSON, in bytes, and the messages' own bytes."""
    import json

    from agents.models import LlmCallTrace

    stored: dict[int, int] = dict.fromkeys(run_ids, 0)
    sent: dict[int, int] = dict.fromkeys(run_ids, 0)
    for run_id, payload, layers, prompt_bytes in LlmCallTrace.objects.filter(run_id__in=run_ids).values_list(
        "run_id", "payload", "layers", "prompt_bytes"
    ):
        stored[run_id] += len(bytes(payload)) + len(json.dumps(layers, separators=(",", ":")))
        sent[run_id] += prompt_bytes
    return {"stored_bytes": summary(list(stored.values())), "prompt_bytes": summary(list(sent.values()))}


def run(*, cycles: int, warmup: int, seed: int) -> dict:
    from django.db import connection

    from agents.cycle import STAGES
    from agents.cycle.schedule import ensure_states
    from sns.models import Post, User

    ensure_states()
    meter = Meter()
    meter.install()
    try:
        users = ai_users(cycles + warmup, seed)
        if len(users) < cycles + warmup:
            raise SystemExit(f"need {cycles + warmup} AI users, the community has {len(users)}")
        for user_id in users[:warmup]:
            measure_cycle(meter, user_id)
        records = []
        for user_id in users[warmup:]:
            record = measure_cycle(meter, user_id)
            if record:
                records.append(record)
    finally:
        meter.uninstall()
    names = [BEGIN, *STAGES, END]
    per_stage = {}
    for name in names:
        per_stage[name] = {
            metric: summary([r["stages"][name][metric] for r in records])
            for metric in METRICS
        }
    totals = {
        metric: summary([sum(r["stages"][n][metric] for n in names) for r in records])
        for metric in METRICS
    }
    outcomes: dict[str, dict[str, int]] = {}
    for r in records:
        for stage, outcome in r["outcomes"].items():
            outcomes.setdefault(stage, {}).setdefault(outcome, 0)
            outcomes[stage][outcome] += 1
    return {
        "bench": "cycle_overhead",
        "database": connection.settings_dict["NAME"],
        "users": User.objects.count(),
        "posts": Post.objects.count(),
        "cycles": len(records),
        "warmup": warmup,
        "reads": summary([r["read"] for r in records]),
        "per_cycle": totals,
        "per_stage": per_stage,
        "outcomes": outcomes,
        "traces": trace_storage([r["run_id"] for r in records]),
    }


def print_report(result: dict) -> None:
    print(f"cycle_overhead on {result['database']}: {result['users']:,} users, {result['posts']:,} posts, "
          f"{result['cycles']} cycles (after {result['warmup']} warm-up), reads/cycle p50 {result['reads']['p50']:.0f}")
    print(f"{'stage':<18} {'CPU ms p50':>10} {'p90':>7} {'queries p50':>11} {'max':>5} {'DB ms p50':>9} {'wall ms p50':>11}")
    rows = list(result["per_stage"].items()) + [("TOTAL per cycle", result["per_cycle"])]
    for name, m in rows:
        print(f"{name:<18} {m['cpu_ms']['p50']:>10.1f} {m['cpu_ms']['p90']:>7.1f} {m['queries']['p50']:>11.0f} "
              f"{m['queries']['max']:>5.0f} {m['db_ms']['p50']:>9.1f} {m['wall_ms']['p50']:>11.1f}")
    print(f"stand-in's own queries per cycle (not counted above), p50 {result['per_cycle']['standin_queries']['p50']:.0f}")
    traces = result.get("traces")
    if traces:
        print(f"call traces per cycle: {traces['stored_bytes']['p50']:,.0f} bytes stored p50 "
              f"(p90 {traces['stored_bytes']['p90']:,.0f}) for {traces['prompt_bytes']['p50']:,.0f} bytes of messages sent")


def cycles_main(argv: list[str] | None, description: str, run_cycles, report) -> dict:
    """The command line of this bench and of those that run its cycles (bench/cycle_calls.py):
    `run_cycles(cycles=, warmup=, seed=)` on the database given, then `report(result)`."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--db", help="benchmark database (default: DATABASE_URL as set)")
    parser.add_argument("--cycles", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args(argv)
    django_setup(args.db, REDIS_URL=INPROCESS_REDIS_URL, STGY_AI_PROVIDER="offline")
    if args.db:
        redis_flush(INPROCESS_REDIS_URL)
    result = run_cycles(cycles=args.cycles, warmup=args.warmup, seed=args.seed)
    if args.db:
        redis_flush(INPROCESS_REDIS_URL)  # the summary tasks the cycles enqueued: nobody consumes them here
    report(result)
    write_json(args.json, result)
    return result


def main(argv: list[str] | None = None) -> dict:
    return cycles_main(argv, "CPU time and SQL queries per AI-user cycle", run, print_report)


if __name__ == "__main__":
    main()
