"""Our API and the original STGY backend side by side on the same community.

    python -m bench.original.compare --db stgy_bench_orig_web20k_run --original-db stgy_bench_orig_web20k_node

Both servers run at once on loopback: ours as bench/web.py starts it (gunicorn, 4 sync
workers, DEBUG off, Redis cache and sessions), the original as one Node process
(bench/original/server.py). Each is logged in as the same human (bench/web.py's choice:
a 90th-percentile followee count) and wrk requests the same paths with the same script,
2 threads and 32 connections: GET /posts?limit=20, GET /posts/by-followees for users
drawn from one sample, GET /posts/{id} for ids drawn from one sample (ours under /api,
the original at its root). Per endpoint: a warm-up of each, then `--rounds` runs of
each, the servers alternating (and which one goes first alternating by round), so
a burst of load from others on this shared machine falls on both; medians reported,
and one run with a single connection for the latency of a request alone. The process
CPU of each server per request is measured over the same runs.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import tempfile
import time
import urllib.request
from contextlib import ExitStack
from datetime import datetime, timezone
from pathlib import Path

from ..common import (
    PYTHON,
    ROOT,
    cpu_seconds,
    django_env,
    exit_on_sigterm,
    free_port,
    loadavg,
    psql,
    redis_flush,
    started,
    tree,
    wait_http,
    write_json,
)
from ..web import BENCH_PASSWORD, login, lua_script, pick_inputs, run_wrk
from .server import original_server

ENDPOINTS = ("GET /posts?limit=20", "GET /posts/by-followees", "GET /posts/{id}")


def endpoint_paths(inputs: dict) -> dict[str, list[str]]:
    """Paths of the original (at its root); ours are the same under /api."""
    return {
        "GET /posts?limit=20": ["/posts?limit=20"],
        "GET /posts/by-followees": [f"/posts/by-followees?userId={u}&limit=20" for u in inputs["users"]],
        "GET /posts/{id}": [f"/posts/{p.upper()}" for p in inputs["posts"]],
    }


def start_ours(stack: ExitStack, db: str, workers: int):
    """Our server exactly as bench/web.py runs it."""
    env = django_env(db, CONN_MAX_AGE="60", ALLOWED_HOSTS="127.0.0.1,localhost")
    redis_flush()
    port = free_port()
    gunicorn = str(Path(PYTHON).parent / "gunicorn")
    log = ROOT / "bench" / "results" / "logs" / "compare-gunicorn.log"
    cmd = [gunicorn, "stgy.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
           "--worker-class", "sync", "--timeout", "60", "--backlog", "2048"]
    proc = stack.enter_context(started(cmd, env, log=log))
    base = f"http://127.0.0.1:{port}"
    wait_http(f"{base}/login", timeout=60)
    return base, proc


def status_of(url: str, cookie: str) -> int:
    request = urllib.request.Request(url, headers={"Cookie": cookie})
    with urllib.request.urlopen(request, timeout=30) as response:
        response.read()
        return response.status


def measured(server: dict, script: Path, *, seconds: int, connections: int) -> dict:
    pids = tree(server["proc"].pid)
    cpu0 = cpu_seconds(pids)
    load = loadavg()
    result = run_wrk(server["base"], script, seconds=seconds, connections=connections,
                     threads=2 if connections > 1 else 1)
    cpu = cpu_seconds(tree(server["proc"].pid)) - cpu0
    result["server_cpu_ms_per_request"] = round(1000 * cpu / result["requests"], 3) if result["requests"] else None
    result["loadavg_before"] = load
    return result


def median_of(runs: list[dict], key: str) -> float:
    values = [r[key] for r in runs if r.get(key) is not None]
    return statistics.median(values) if values else float("nan")


def compare(args) -> dict:
    inputs = pick_inputs(args.db, args.seed)
    paths = endpoint_paths(inputs)
    if args.only:
        wanted = [w.strip() for w in args.only.split(",")]
        paths = {k: v for k, v in paths.items() if any(w in k for w in wanted)}
    results: dict[str, dict] = {}
    with ExitStack() as stack, tempfile.TemporaryDirectory() as tmp:
        ours_base, ours_proc = start_ours(stack, args.db, args.workers)
        orig_base, orig_proc = stack.enter_context(original_server(args.original_db))
        servers = {
            "ours": {"base": ours_base, "proc": ours_proc, "prefix": "/api"},
            "original": {"base": orig_base, "proc": orig_proc, "prefix": ""},
        }
        # Whole Cookie headers, as lua_script sends them.
        servers["ours"]["cookie"] = f"session_id={login(ours_base, inputs['email'])}"  # POST /api/auth
        servers["original"]["cookie"] = f"session_id={post_auth(orig_base + '/auth', inputs['email'])}"
        for name, original_paths in paths.items():
            scripts = {}
            for key, server in servers.items():
                script = Path(tmp) / f"{key}-{abs(hash(name))}.lua"
                script.write_text(lua_script([server["prefix"] + p for p in original_paths], server["cookie"]))
                scripts[key] = script
                status = status_of(server["base"] + server["prefix"] + original_paths[0], server["cookie"])
                if status != 200:
                    raise SystemExit(f"{key} answered {status} to {original_paths[0]}")
                warm = run_wrk(server["base"], script, seconds=args.warmup, connections=args.connections, threads=2)
                if warm["non_2xx"]:  # a refused cookie measures the error path, not the read
                    raise SystemExit(f"{key} answered {warm['non_2xx']} non-2xx in the warm-up of {name}")
            runs: dict[str, list[dict]] = {key: [] for key in servers}
            for round_no in range(args.rounds):
                order = list(servers) if round_no % 2 == 0 else list(reversed(servers))
                for key in order:
                    runs[key].append(measured(servers[key], scripts[key], seconds=args.seconds,
                                              connections=args.connections))
                    time.sleep(2)  # let the queued requests of the run drain
            single = {}
            if args.single_seconds:
                for key in servers:
                    time.sleep(2)
                    single[key] = measured(servers[key], scripts[key], seconds=args.single_seconds, connections=1)
            entry = {"paths": len(original_paths)}
            for key in servers:
                entry[key] = {
                    "rps": median_of(runs[key], "rps"),
                    "p50_ms": median_of(runs[key], "p50_ms"),
                    "p99_ms": median_of(runs[key], "p99_ms"),
                    "cpu_ms_per_request": median_of(runs[key], "server_cpu_ms_per_request"),
                    "non_2xx": sum(r["non_2xx"] for r in runs[key]),
                    "rps_all": [round(r["rps"], 1) for r in runs[key]],
                    "single_client": single.get(key),
                    "runs": runs[key],
                }
            entry["ratio"] = entry["ours"]["rps"] / entry["original"]["rps"] if entry["original"]["rps"] else None
            results[name] = entry
            print(f"{name:<26} ours {entry['ours']['rps']:7.1f} req/s {entry['ours']['rps_all']}  "
                  f"original {entry['original']['rps']:7.1f} req/s {entry['original']['rps_all']}  "
                  f"ratio {entry['ratio']:.2f}", flush=True)
    return results


def post_auth(url: str, email: str) -> str:
    """The original's login (POST /auth; ours is /api/auth): same body, same cookie."""
    request = urllib.request.Request(url, data=json.dumps({"email": email, "password": BENCH_PASSWORD}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        for header in response.headers.get_all("Set-Cookie") or []:
            match = re.match(r"session_id=([^;]+)", header)
            if match:
                return match.group(1)
    raise RuntimeError(f"{url} gave no session cookie")


def render(data: dict, command: str) -> str:
    """The side-by-side table of one run (bench/README.md, between the original markers)."""
    def ms(value) -> str:
        return "—" if value is None or value != value else f"{value:.1f}"

    meta = data.get("_meta", {})
    lines = [
        f"{data.get('users', '?'):,} users, {data.get('posts', '?'):,} posts; wrk {data['connections']} connections, "
        f"2 threads, {data['rounds']} rounds of {data['seconds']} s per server alternating, medians"
        + (f"; load average {meta['loadavg_before']:.1f} before, {meta['loadavg_after']:.1f} after" if meta else "")
        + f"; {data.get('finished_at', '')}.",
        "",
        f"Command: `{command}`",
        "",
        "| endpoint | ours req/s | original req/s | ratio | p99 ms at 32, ours · original "
        "| one connection p50 ms, ours · original | server CPU ms per request, ours · original "
        "| req/s of each round, ours / original |",
        "|---|---:|---:|---:|---|---|---|---|",
    ]
    for name, entry in data["endpoints"].items():
        ours, orig = entry["ours"], entry["original"]
        single = [(e.get("single_client") or {}).get("p50_ms") for e in (ours, orig)]
        errors = "" if not (ours["non_2xx"] or orig["non_2xx"]) else \
            f" (non-2xx: {ours['non_2xx']} · {orig['non_2xx']})"
        lines.append(
            f"| {name}{errors} | {ours['rps']:,.0f} | {orig['rps']:,.0f} | {entry['ratio']:.2f} "
            f"| {ms(ours['p99_ms'])} · {ms(orig['p99_ms'])} | {ms(single[0])} · {ms(single[1])} "
            f"| {ours['cpu_ms_per_request']:.2f} · {orig['cpu_ms_per_request']:.2f} "
            f"| {', '.join(f'{r:.0f}' for r in ours['rps_all'])} / {', '.join(f'{r:.0f}' for r in orig['rps_all'])} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description="our API and the original backend side by side")
    parser.add_argument("--db", required=True, help="our benchmark database (a copy of a generated community)")
    parser.add_argument("--original-db", required=True, help="the same community in the original's schema")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--single-seconds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=4, help="our gunicorn sync workers")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--only", help="comma-separated endpoint names")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    exit_on_sigterm()
    output = {"bench": "compare_original", "database": args.db, "original_database": args.original_db,
              "users": int(psql("SELECT count(*) FROM sns_user", args.db)),
              "posts": int(psql("SELECT count(*) FROM sns_post", args.db)),
              "original_posts": int(psql("SELECT count(*) FROM posts", args.original_db)),
              "rounds": args.rounds, "seconds": args.seconds, "connections": args.connections,
              "endpoints": compare(args),
              "finished_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    write_json(args.json, output)
    return output


if __name__ == "__main__":
    main()
