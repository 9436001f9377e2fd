"""bench/web: requests per second and p50/p99 latency of the main reads under 32
concurrent clients: the home timeline page, a post page, GET /api/posts?limit=20,
GET /api/posts/by-followees and GET /api/posts/{id}.

gunicorn serves the site on the benchmark database (DEBUG off, Redis for cache and
sessions); wrk (Debian's package) drives it from the same machine, logged in as a
human user with a typical number of followees. Post ids and by-followees users are
drawn at random per request from a sample, so one hot row cannot flatter the result.
Each endpoint: a warm-up, then N runs; the median run is reported.

    python -m bench.web --db stgy_bench_small --runs 3 --seconds 10
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from .common import (
    exit_on_sigterm,
    PYTHON,
    ROOT,
    cpu_grown,
    cpu_seconds,
    django_env,
    free_port,
    loadavg,
    machine_cpu,
    postgres_cpu_each,
    psql,
    redis_flush,
    started,
    tree,
    wait_http,
    write_json,
)

BENCH_PASSWORD = "bench-password"


def pick_inputs(db: str, seed: int) -> dict:
    """A logged-in human with a typical (90th percentile) followee count, and samples of
    post ids and by-followees users."""
    human = psql(
        "SELECT email, lpad(to_hex(id), 16, '0') FROM sns_user WHERE ai_model IS NULL AND NOT is_admin "
        "AND followee_count >= (SELECT percentile_disc(0.9) WITHIN GROUP (ORDER BY followee_count) "
        "FROM sns_user WHERE ai_model IS NULL) ORDER BY followee_count, id LIMIT 1",
        db,
    ).split("|")
    posts = psql("SELECT lpad(to_hex(id), 16, '0') FROM sns_post TABLESAMPLE SYSTEM (5) LIMIT 3000", db).split()
    if len(posts) < 100:
        posts = psql("SELECT lpad(to_hex(id), 16, '0') FROM sns_post ORDER BY random() LIMIT 3000", db).split()
    users = psql(
        "SELECT lpad(to_hex(id), 16, '0') FROM sns_user WHERE followee_count > 0 ORDER BY random() LIMIT 1000", db
    ).split()
    rng = random.Random(seed)
    rng.shuffle(posts)
    return {"email": human[0], "user_hex": human[1], "posts": posts, "users": users}


def rank_recommendations(env: dict[str, str], user_hex: str) -> int:
    """Make the bench user's "For you" ranking as a deployment's task worker would
    (agents/tasks.py `warm_recommendations`, which the first home view asks for): bench/web
    runs no worker, so without this every home view would find no cached ranking and pay
    the lookups a deployment pays only until its worker has made one. Returns the ranking's
    length."""
    code = (
        "import django, sys; django.setup()\n"
        "from agents.tasks import warm_recommendations\n"
        "print(warm_recommendations(int(sys.argv[1], 16)))\n"
    )
    out = subprocess.run([PYTHON, "-c", code, user_hex], env=env, cwd=ROOT, check=True,
                         capture_output=True, text=True)
    return int(out.stdout.split()[-1])


def _cookie(request: urllib.request.Request, pattern: str) -> str | None:
    """The first Set-Cookie of the response to `request` that `pattern` matches (its group 1)."""
    with urllib.request.urlopen(request, timeout=30) as response:
        for header in response.headers.get_all("Set-Cookie") or []:
            match = re.search(pattern, header)
            if match:
                return match.group(1)
    return None


def login(base: str, email: str) -> str:
    request = urllib.request.Request(
        f"{base}/api/auth", data=json.dumps({"email": email, "password": BENCH_PASSWORD}).encode(),
        headers={"Content-Type": "application/json"}, method="POST",
    )
    session = _cookie(request, r"^\s*session_id=([^;]+)")
    if session is None:
        raise RuntimeError("login gave no session cookie")
    return session


def csrf_cookie(base: str, session: str) -> str:
    """The CSRF cookie a browser keeps from its first page and sends back: without it
    every page view made a new CSRF secret and answered with a Set-Cookie."""
    cookie = _cookie(urllib.request.Request(f"{base}/", headers={"Cookie": f"session_id={session}"}),
                     r"(csrftoken=[^;]+)")
    if cookie is None:
        raise RuntimeError("the home page gave no CSRF cookie")
    return cookie


def lua_script(paths: list[str], cookie: str) -> str:
    quoted = ",\n".join(json.dumps(p) for p in paths)
    return f"""
wrk.headers["Cookie"] = "{cookie}"
local paths = {{
{quoted}
}}
local counter = 0
setup = function(thread) counter = counter + 1; thread:set("id", counter) end
init = function(args) math.randomseed(os.time() * 1000 + (id or 0)) end
request = function()
  return wrk.format("GET", paths[math.random(#paths)])
end
"""


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def parse_wrk(output: str) -> dict:
    def latency(label: str) -> float:
        match = re.search(rf"^\s*{label}%\s+([\d.]+)(us|ms|s)\s*$", output, re.M)
        return float(match.group(1)) * _UNITS[match.group(2)] if match else float("nan")

    rps = re.search(r"Requests/sec:\s+([\d.]+)", output)
    requests = re.search(r"(\d+) requests in", output)
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    socket_errors = re.search(r"Socket errors: (.*)", output)
    return {
        "rps": float(rps.group(1)) if rps else 0.0,
        "p50_ms": latency("50"),
        "p90_ms": latency("90"),
        "p99_ms": latency("99"),
        "requests": int(requests.group(1)) if requests else 0,
        "non_2xx": int(errors.group(1)) if errors else 0,
        "socket_errors": socket_errors.group(1).strip() if socket_errors else "",
    }


def run_wrk(base: str, script: Path, *, seconds: int, connections: int, threads: int) -> dict:
    out = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s",
         "-s", str(script), base],
        check=True, capture_output=True, text=True,
    )
    return parse_wrk(out.stdout)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description="req/s and p50/p99 of the main reads")
    parser.add_argument("--db", required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--single-seconds", type=int, default=5,
                        help="length of the one-client run per endpoint (latency without queueing; 0 = skip)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    # sync closes the connection after every response; gthread keeps it open, but at 32
    # clients it gave the pages fewer req/s at 1M posts (docs/architecture.md
    # section 8).
    parser.add_argument("--worker-class", default="sync", choices=["sync", "gthread"],
                        help="gunicorn worker class (gthread keeps connections alive; sync closes each)")
    parser.add_argument("--threads", type=int, default=2, help="threads per gthread worker")
    parser.add_argument("--conn-max-age", type=int, default=60, help="CONN_MAX_AGE of the web workers")
    parser.add_argument("--no-ranking", action="store_true",
                        help="leave the bench user without a cached recommendation ranking (each home view pays the lookups)")
    parser.add_argument("--port", type=int, default=0, help="0 = any free port")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--only", help="comma-separated endpoint names")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    exit_on_sigterm()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed: apt-get install -y wrk")

    inputs = pick_inputs(args.db, args.seed)
    me = inputs["user_hex"]
    endpoints = {
        "home timeline (page /)": ["/"],
        "post page (/posts/{id})": [f"/posts/{p}" for p in inputs["posts"]],
        "GET /api/posts?limit=20": ["/api/posts?limit=20"],
        "GET /api/posts/by-followees": [
            f"/api/posts/by-followees?userId={u}&limit=20" for u in inputs["users"]
        ],
        "GET /api/posts/{id}": [f"/api/posts/{p}" for p in inputs["posts"]],
    }
    if args.only:
        wanted = [w.strip() for w in args.only.split(",")]
        endpoints = {k: v for k, v in endpoints.items() if any(w in k for w in wanted)}
    env = django_env(args.db, CONN_MAX_AGE=str(args.conn_max_age), ALLOWED_HOSTS="127.0.0.1,localhost")
    redis_flush()
    ranked = rank_recommendations(env, inputs["user_hex"]) if not args.no_ranking else None
    port = args.port or free_port()
    base = f"http://127.0.0.1:{port}"
    gunicorn = str(Path(PYTHON).parent / "gunicorn")
    log = ROOT / "bench" / "results" / "logs" / "web-gunicorn.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    cmd = [gunicorn, "stgy.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", str(args.workers),
           "--worker-class", args.worker_class, "--timeout", "60", "--backlog", "2048"]
    if args.worker_class == "gthread":
        cmd += ["--threads", str(args.threads)]
    results: dict[str, dict] = {}
    with started(cmd, env, log=log) as proc, tempfile.TemporaryDirectory() as tmp:
        wait_http(f"{base}/login", timeout=60)
        session = login(base, inputs["email"])
        cookie = f"session_id={session}; {csrf_cookie(base, session)}"
        for name, paths in endpoints.items():
            script = Path(tmp) / f"{abs(hash(name))}.lua"
            script.write_text(lua_script(paths, cookie))
            check = urllib.request.Request(base + paths[0], headers={"Cookie": cookie})
            with urllib.request.urlopen(check, timeout=30) as response:
                status = response.status
            run_wrk(base, script, seconds=args.warmup, connections=args.connections, threads=2)
            runs = []
            for _ in range(args.runs):
                pids = tree(proc.pid)
                cpu0, pg0, (busy0, total0) = cpu_seconds(pids), postgres_cpu_each(args.db), machine_cpu()
                load = loadavg()
                result = run_wrk(base, script, seconds=args.seconds, connections=args.connections, threads=2)
                busy1, total1 = machine_cpu()
                result["gunicorn_cpu_s"] = cpu_seconds(tree(proc.pid)) - cpu0
                result["postgres_cpu_s"] = cpu_grown(pg0, postgres_cpu_each(args.db))
                result["machine_busy"] = (busy1 - busy0) / (total1 - total0) if total1 > total0 else 0.0
                result["loadavg_before"] = load
                runs.append(result)
            ordered = sorted(runs, key=lambda r: r["rps"])
            median = ordered[len(ordered) // 2]
            # At 32 clients on 2 shared cores a request mostly waits its turn (latency is
            # about 32 / throughput); one client shows what a person alone would wait.
            single = None
            if args.single_seconds:
                # wrk stops with 32 requests still queued at the workers; let them drain,
                # or the first one-client requests wait behind them.
                time.sleep(3)
                single = run_wrk(base, script, seconds=args.single_seconds, connections=1, threads=1)
            results[name] = {
                "median": median,
                "single_client": single,
                "runs": runs,
                "rps_all": [round(r["rps"], 1) for r in runs],
                "first_status": status,
                "paths": len(paths),
            }
            alone = f"  one client: p50 {single['p50_ms']:.2f} ms p99 {single['p99_ms']:.2f} ms" if single else ""
            print(f"{name:<30} {median['rps']:8.1f} req/s  p50 {median['p50_ms']:7.2f} ms  "
                  f"p99 {median['p99_ms']:7.2f} ms  non-2xx {median['non_2xx']}  runs {results[name]['rps_all']}{alone}",
                  flush=True)
            time.sleep(1)
    posts = psql("SELECT count(*) FROM sns_post", args.db)
    users = psql("SELECT count(*) FROM sns_user", args.db)
    output = {
        "bench": "web",
        "database": args.db,
        "users": int(users),
        "posts": int(posts),
        "connections": args.connections,
        "gunicorn": {"workers": args.workers, "worker_class": args.worker_class,
                     "threads": args.threads if args.worker_class == "gthread" else 1,
                     "conn_max_age": args.conn_max_age},
        "recommendation_ranking": ranked,
        "runs": args.runs,
        "seconds": args.seconds,
        "logged_in_user": me,
        "endpoints": results,
        "median_rps_overall": statistics.median([r["median"]["rps"] for r in results.values()]) if results else 0,
    }
    write_json(args.json, output)
    return output


if __name__ == "__main__":
    main()
