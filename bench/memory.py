"""bench/memory: resident memory (RSS) of a web worker, and of a Celery worker while it
runs N concurrent cycles (N = 1, 10, 50), and its growth over many consecutive cycles.

* web: one gunicorn sync worker; RSS after start, after a warm-up, and after a mixed
  read load (post pages and API reads under wrk).
* concurrent cycles: one worker `-P threads -c N` with the LLM stand-in at 2 s, N cycles
  kept in flight; RSS of the worker process sampled twice a second (peak and median).
* growth: one worker `-P threads -c 10` with an instant stand-in runs consecutive
  cycles; RSS after every 100.

    python -m bench.memory --db stgy_bench_medium --concurrency 1,10,50 --growth-cycles 1000
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from .cluster import Feeder, Pool, ai_user_ids, cluster, setup_feeder_process
from .common import (
    exit_on_sigterm,
    PYTHON,
    ROOT,
    django_env,
    free_port,
    redis_flush,
    rss_mb,
    started,
    tree,
    wait_http,
    write_json,
)


def web_memory(db: str, seconds: int) -> dict:
    from . import web

    port = free_port()
    inputs = web.pick_inputs(db, 5)
    env = django_env(db, CONN_MAX_AGE="60", ALLOWED_HOSTS="127.0.0.1,localhost")
    gunicorn = str(Path(PYTHON).parent / "gunicorn")
    base = f"http://127.0.0.1:{port}"
    cmd = [gunicorn, "stgy.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", "1", "--timeout", "60"]
    with started(cmd, env, log=ROOT / "bench" / "results" / "logs" / "memory-gunicorn.log") as proc, \
            tempfile.TemporaryDirectory() as tmp:
        wait_http(f"{base}/login", timeout=60)
        worker = [p for p in tree(proc.pid) if p != proc.pid]
        after_start = rss_mb(worker)
        cookie = f"session_id={web.login(base, inputs['email'])}"  # lua_script takes the whole header
        paths = (["/", "/api/posts?limit=20"] + [f"/posts/{p}" for p in inputs["posts"][:500]]
                 + [f"/api/posts/{p}" for p in inputs["posts"][500:1500]]
                 + [f"/api/posts/by-followees?userId={u}&limit=20" for u in inputs["users"][:300]])
        script = Path(tmp) / "mixed.lua"
        script.write_text(web.lua_script(paths, cookie))
        web.run_wrk(base, script, seconds=3, connections=4, threads=1)
        after_warmup = rss_mb(worker)
        result = web.run_wrk(base, script, seconds=seconds, connections=8, threads=1)
        after_load = rss_mb(worker)
    return {
        "rss_mb_after_start": round(after_start, 1),
        "rss_mb_after_warmup": round(after_warmup, 1),
        "rss_mb_after_load": round(after_load, 1),
        "requests": result["requests"],
    }


def concurrent_cycles(db: str, n: int, *, latency: float, seconds: float) -> dict:
    redis_flush()
    samples = []
    # LLM calls in flight per process sized for n threads of up to 10 parallel stage jobs,
    # as a threads worker should be run (README, "Operating the AI users"); with the
    # default 16 the cycles mostly wait for a slot.
    extra = {"STGY_AI_CONCURRENCY": str(max(16, n * 10))}
    with cluster(db, latency=latency, pool=Pool("threads", n, 1), extra_env=extra) as c:
        feeder = Feeder(n, ai_user_ids(seed=n))
        feeder.start()
        idle = rss_mb(c.worker_pids())
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            feeder.tick()
            samples.append(rss_mb(c.worker_pids()))
            time.sleep(0.5)
        finished = feeder.tick()
    redis_flush()
    return {
        "n": n,
        "rss_mb_idle": round(idle, 1),
        "rss_mb_peak": round(max(samples), 1),
        "rss_mb_median": round(statistics.median(samples), 1),
        "cycles_finished": finished,
        "ai_concurrency": int(extra["STGY_AI_CONCURRENCY"]),
    }


def growth(db: str, cycles: int, *, concurrency: int = 10, every: int = 100, timeout: float = 1800) -> dict:
    redis_flush()
    points = []
    started_at = time.monotonic()
    with cluster(db, latency=0.0, pool=Pool("threads", concurrency, 1)) as c:
        feeder = Feeder(concurrency, ai_user_ids(seed=3))
        feeder.start()
        points.append({"cycles": 0, "rss_mb": round(rss_mb(c.worker_pids()), 1)})
        next_mark, done = every, 0
        while time.monotonic() - started_at < timeout:
            done = feeder.tick()
            if done >= next_mark:
                points.append({"cycles": done, "rss_mb": round(rss_mb(c.worker_pids()), 1)})
                next_mark += every
            if done >= cycles:
                break
            feeder.inflight = min(concurrency, cycles - done) or 1
            time.sleep(0.2)
        if points[-1]["cycles"] != done:
            points.append({"cycles": done, "rss_mb": round(rss_mb(c.worker_pids()), 1)})
    redis_flush()
    first_hundred = next((p["rss_mb"] for p in points if p["cycles"] >= every), points[0]["rss_mb"])
    return {
        "cycles": points[-1]["cycles"],
        "concurrency": concurrency,
        "points": points,
        "growth_mb_total": round(points[-1]["rss_mb"] - points[0]["rss_mb"], 1),
        "growth_mb_after_first_100": round(points[-1]["rss_mb"] - first_hundred, 1),
        "seconds": round(time.monotonic() - started_at, 1),
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description="RSS of web and Celery workers")
    parser.add_argument("--db", required=True)
    parser.add_argument("--concurrency", default="1,10,50")
    parser.add_argument("--latency", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=45, help="per concurrency level")
    parser.add_argument("--growth-cycles", type=int, default=1000)
    parser.add_argument("--web-seconds", type=int, default=15)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    exit_on_sigterm()
    import faulthandler

    faulthandler.dump_traceback_later(1800, repeat=True)  # a hang shows where it is
    setup_feeder_process(args.db)
    out = {"bench": "memory", "database": args.db}
    out["web"] = web_memory(args.db, args.web_seconds)
    print(f"web worker RSS: start {out['web']['rss_mb_after_start']} MB, warm {out['web']['rss_mb_after_warmup']} MB, "
          f"after {out['web']['requests']} requests {out['web']['rss_mb_after_load']} MB", flush=True)
    out["celery"] = []
    for n in [int(x) for x in args.concurrency.split(",") if x.strip()]:
        row = concurrent_cycles(args.db, n, latency=args.latency, seconds=args.seconds)
        out["celery"].append(row)
        print(f"celery worker, {n:>2} concurrent cycles: idle {row['rss_mb_idle']} MB, median {row['rss_mb_median']} MB, "
              f"peak {row['rss_mb_peak']} MB ({row['cycles_finished']} cycles finished)", flush=True)
    if args.growth_cycles:
        out["growth"] = growth(args.db, args.growth_cycles)
        g = out["growth"]
        print(f"growth over {g['cycles']} consecutive cycles: {g['growth_mb_total']} MB in all, "
              f"{g['growth_mb_after_first_100']} MB after the first 100 ({g['seconds']} s)", flush=True)
    write_json(args.json, out)
    return out


if __name__ == "__main__":
    main()
