"""bench/throughput: AI-user cycles per hour on this machine, with the LLM stand-in
answering after a fixed latency (default 2 s), real Redis and real Celery workers.

For each worker-pool setting: start the stand-in and the workers, keep a fixed number
of cycles in flight (as a concurrency-bounded dispatcher would), let it warm up, then
count the cycles that finish in the measuring window. Reported per setting: cycles per
hour, cycle wall time (and as a multiple of the LLM latency), failed stages, and the
CPU used by the workers, PostgreSQL, Redis and the stand-in.

    python -m bench.throughput --db stgy_bench_medium --latency 2 --pools threads:1x24,threads:2x16
"""

from __future__ import annotations

import argparse
import time

from .cluster import Feeder, Pool, ai_user_ids, cluster, setup_feeder_process
from .common import (
    exit_on_sigterm,
    cpu_seconds,
    loadavg,
    machine_cpu,
    pids_named,
    postgres_cpu,
    redis_flush,
    summary,
    write_json,
)


def measure(db: str, *, pool: Pool, latency: float, inflight: int, warmup: float, window: float,
            ai_concurrency: int = 0) -> dict:
    from agents.models import CycleRun

    redis_flush()
    users = ai_user_ids()
    # The gateway bounds LLM calls in flight per process (STGY_AI_CONCURRENCY, default 16):
    # a threads worker needs room for every thread's parallel stage jobs.
    extra = {"STGY_AI_CONCURRENCY": str(ai_concurrency)} if ai_concurrency else {}
    with cluster(db, latency=latency, pool=pool, extra_env=extra) as c:
        feeder = Feeder(inflight, users)
        feeder.start()
        end_warmup = time.monotonic() + warmup
        while time.monotonic() < end_warmup:
            feeder.tick()
            time.sleep(0.5)
        from django.utils import timezone

        window_start = timezone.now()
        worker_pids = c.worker_pids()
        others = {"redis": pids_named("redis-server"), "standin": [c.standin.pid]}
        cpu0 = {"workers": cpu_seconds(worker_pids), "postgres": postgres_cpu(db),
                **{k: cpu_seconds(v) for k, v in others.items()}}
        busy0, total0 = machine_cpu()
        load0 = loadavg()
        started_at = time.monotonic()
        while time.monotonic() - started_at < window:
            feeder.tick()
            time.sleep(0.5)
        elapsed = time.monotonic() - started_at
        window_end = timezone.now()
        busy1, total1 = machine_cpu()
        cpu1 = {"workers": cpu_seconds(c.worker_pids()), "postgres": postgres_cpu(db),
                **{k: cpu_seconds(v) for k, v in others.items()}}
        load1 = loadavg()
    redis_flush()
    runs = list(CycleRun.objects.filter(
        kind=CycleRun.Kind.CYCLE, finished_at__gte=window_start, finished_at__lt=window_end
    ))
    failed_stages = sum(1 for r in runs for s in r.stages.values() if s.get("outcome") == "failed")
    errors: dict[str, int] = {}
    for r in runs:
        for stage, s in r.stages.items():
            if s.get("outcome") == "failed":
                key = f"{stage}: {str(s.get('error'))[:80]}"
                errors[key] = errors.get(key, 0) + 1
    wall = [r.elapsed_ms / 1000 for r in runs]
    llm_calls = [r.llm_calls for r in runs]
    cpu = {k: (cpu1[k] - cpu0[k]) for k in cpu0}
    cycles = len(runs)
    return {
        "pool": pool.label() + (f", STGY_AI_CONCURRENCY={ai_concurrency}" if ai_concurrency else ""),
        "inflight": inflight,
        "latency_s": latency,
        "window_s": round(elapsed, 1),
        "cycles": cycles,
        "cycles_per_hour": cycles / elapsed * 3600 if elapsed else 0.0,
        "cycle_wall_s": summary(wall),
        "wall_over_latency_p50": summary(wall)["p50"] / latency if latency else None,
        "llm_calls_per_cycle": summary(llm_calls),
        "failed_stages": failed_stages,
        "errors": dict(sorted(errors.items(), key=lambda kv: -kv[1])[:5]),
        "cpu_seconds": {k: round(v, 1) for k, v in cpu.items()},
        "cpu_ms_per_cycle": {k: round(v / cycles * 1000, 1) if cycles else None for k, v in cpu.items()},
        "machine_busy": (busy1 - busy0) / (total1 - total0) if total1 > total0 else 0.0,
        "ours_share_of_2_cores": sum(cpu.values()) / elapsed / 2 if elapsed else 0.0,
        "loadavg": [load0, load1],
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description="AI-user cycles per hour with a slow LLM stand-in")
    parser.add_argument("--db", required=True)
    parser.add_argument("--latency", type=float, default=2.0)
    parser.add_argument("--pools", default="threads:1x32",
                        help="comma-separated settings, e.g. threads:1x32,threads:2x16,prefork:8")
    parser.add_argument("--inflight", type=int, help="cycles kept in flight (default: the pool's slots)")
    parser.add_argument("--warmup", type=float, default=30)
    parser.add_argument("--window", type=float, default=120)
    parser.add_argument("--ai-concurrency", type=int, default=0,
                        help="STGY_AI_CONCURRENCY of the workers (0 = the default, 16 per process)")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    exit_on_sigterm()
    setup_feeder_process(args.db)
    results = []
    for text in args.pools.split(","):
        pool = Pool.parse(text.strip())
        result = measure(args.db, pool=pool, latency=args.latency, inflight=args.inflight or pool.slots,
                         warmup=args.warmup, window=args.window, ai_concurrency=args.ai_concurrency)
        results.append(result)
        print(f"{result['pool']:<28} in flight {result['inflight']:>3}: {result['cycles_per_hour']:7.0f} cycles/h, "
              f"wall p50 {result['cycle_wall_s']['p50']:.1f} s ({result['wall_over_latency_p50']:.1f}× latency), "
              f"failed stages {result['failed_stages']}, CPU/cycle {result['cpu_ms_per_cycle']}, "
              f"machine busy {result['machine_busy']:.0%}", flush=True)
    best = max(results, key=lambda r: r["cycles_per_hour"])
    output = {"bench": "throughput", "database": args.db, "latency_s": args.latency, "settings": results, "best": best}
    write_json(args.json, output)
    return output


if __name__ == "__main__":
    main()
