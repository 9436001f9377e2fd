"""Run every benchmark at one size and write the Markdown results table.

    python -m bench.run_all --size small
    python -m bench.run_all --size medium
    python -m bench.run_all --size large --only cycle_overhead,web

The community of a size is generated once into a template database
(`stgy_bench_<size>_s<seed>_tpl`, reused while it exists and is marked complete);
every benchmark then runs on a fresh copy of it (`stgy_bench_<size>_run`), so one
bench's writes never leak into the next. `--db-prefix stgy_bench_xy` (or
STGY_BENCH_DB_PREFIX) names them `stgy_bench_xy_<size>_...` instead, so that two people
measuring on one PostgreSQL server do not drop each other's copies. Figures go to bench/results/<size>/<bench>.json and
.txt; the combined table of every size measured so far is written to
bench/results/RESULTS.md and into bench/README.md between the result markers.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from .common import (
    PYTHON,
    RESULTS,
    ROOT,
    clone_db,
    db_comment,
    db_exists,
    drop_db,
    loadavg,
    pg_url,
    psql,
)

SIZES = ("tiny", "small", "web20k", "medium", "large")
GEN_SIZE = {  # gen_community arguments per size
    "tiny": ["--size", "tiny"],
    "small": ["--size", "small"],
    "web20k": ["--size", "custom", "--users", "1000", "--posts", "20000"],
    "medium": ["--size", "medium"],
    "large": ["--size", "large"],
}
BENCHES = ("cycle_overhead", "token_economy", "web", "throughput", "memory", "respond_latency")
ARGS = {  # benchmark arguments per size (besides --db and --json)
    "cycle_overhead": lambda size: ["--cycles", "3", "--warmup", "1"] if size == "tiny" else ["--cycles", "30"],
    "token_economy": lambda size: ["--cycles", "5" if size == "tiny" else "30"],
    "web": lambda size: ["--runs", "1", "--seconds", "3"] if size == "tiny" else ["--runs", "3", "--seconds", "10"],
    "throughput": lambda size: (["--pools", "threads:1x8", "--warmup", "5", "--window", "20"] if size == "tiny" else
                                ["--pools", "prefork:1x8,prefork:1x20,threads:2x16", "--ai-concurrency", "200",
                                 "--warmup", "25", "--window", "90"]),
    "respond_latency": lambda size: (
        ["--minutes", "0.3", "--conversations", "10", "--think", "3", "--drain", "30",
         "--pool", "threads:1x8", "--cycles-inflight", "1"] if size == "tiny" else
        ["--minutes", "3", "--conversations", "100", "--pool", "threads:2x16", "--cycles-inflight", "4"]),
    "memory": lambda size: (["--concurrency", "1,10", "--seconds", "10", "--growth-cycles", "30"] if size == "tiny" else
                            ["--concurrency", "1,10,50", "--seconds", "45",
                             "--growth-cycles", "1000" if size in ("medium", "large") else "300"]),
}
# --compare-original: our API beside the original backend on the same community
# (bench/original/; its database is the community converted into the original's schema).
ARGS["original.compare"] = lambda size: [
    "--original-db", f"{DB_PREFIX}_{size}_node", *(["--rounds", "1", "--seconds", "3"] if size == "tiny" else
                                                   ["--rounds", "3", "--seconds", "10"])]
MARK_BEGIN = "<!-- results:begin -->"
MARK_END = "<!-- results:end -->"
TARGETS_BEGIN = "<!-- targets:begin -->"
TARGETS_END = "<!-- targets:end -->"


DB_PREFIX = os.environ.get("STGY_BENCH_DB_PREFIX", "stgy_bench")


def template_name(size: str, seed: int) -> str:
    return f"{DB_PREFIX}_{size}_s{seed}_tpl"


def manage(db: str, *args: str, log=None) -> None:
    env = {
        "SECRET_KEY": "bench-not-secret", **os.environ, "DATABASE_URL": pg_url(db),
        "DJANGO_SETTINGS_MODULE": "stgy.settings",
    }
    for name in [k for k in env if k.startswith("STGY_") or k == "REDIS_URL"]:
        env.pop(name)
    subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True, stdout=log, stderr=log)


def ensure_community(size: str, seed: int, regen: bool) -> dict:
    template = template_name(size, seed)
    comment = db_comment(template) if db_exists(template) else ""
    if comment.startswith("stgy-bench complete") and not regen:
        info = json.loads(comment.split(" ", 2)[2])
        print(f"[run_all] reusing {template}: {info}", flush=True)
        manage(template, "migrate", "-v0")
        return info
    drop_db(template)
    psql(f'CREATE DATABASE "{template}"')
    manage(template, "migrate", "-v0")
    command = ["gen_community", *GEN_SIZE[size], "--seed", str(seed)]
    print(f"[run_all] generating: manage.py {' '.join(command)}", flush=True)
    started = time.monotonic()
    manage(template, *command)
    seconds = time.monotonic() - started
    info = {
        "size": size, "seed": seed, "generate_seconds": round(seconds, 1),
        "users": int(psql("SELECT count(*) FROM sns_user", template)),
        "posts": int(psql("SELECT count(*) FROM sns_post", template)),
        "likes": int(psql("SELECT count(*) FROM sns_like", template)),
        "follows": int(psql("SELECT count(*) FROM sns_follow", template)),
        "db_size": psql(f"SELECT pg_size_pretty(pg_database_size('{template}'))"),
        "command": f".venv/bin/python manage.py {' '.join(command)}",
    }
    psql(f"COMMENT ON DATABASE \"{template}\" IS 'stgy-bench complete {json.dumps(info)}'")
    return info


def run_bench(name: str, size: str, seed: int, out_dir: Path) -> dict:
    run_db = f"{DB_PREFIX}_{size}_run"
    clone_seconds = clone_db(template_name(size, seed), run_db)
    args = ["-m", f"bench.{name}", "--db", run_db, *ARGS[name](size)]
    json_path = out_dir / f"{name}.json"
    args += ["--json", str(json_path.relative_to(ROOT))]
    command = ".venv/bin/python " + " ".join(shlex.quote(a) for a in args)
    print(f"[run_all] {command}  (copy of the community made in {clone_seconds:.0f} s)", flush=True)
    load_before = loadavg()
    started = time.monotonic()
    with open(out_dir / f"{name}.txt", "w") as log:
        proc = subprocess.run([PYTHON, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        log.write(proc.stdout)
    print(proc.stdout, flush=True)
    meta = {"command": command, "seconds": round(time.monotonic() - started, 1), "exit": proc.returncode,
            "loadavg_before": load_before, "loadavg_after": loadavg()}
    if proc.returncode == 0 and json_path.exists():
        data = json.loads(json_path.read_text())
        data["_meta"] = meta
        json_path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    else:
        json_path.write_text(json.dumps({"_meta": meta, "error": proc.stdout[-2000:]}, indent=2) + "\n")
    drop_db(run_db)
    return meta


def git_describe() -> str:
    try:
        return subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    except Exception:
        return "unknown"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="run every benchmark at one size")
    parser.add_argument("--size", choices=SIZES, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", help="comma-separated benchmarks (default: all)")
    parser.add_argument("--regen", action="store_true", help="generate the community again")
    parser.add_argument("--render-only", action="store_true", help="only rewrite the table from saved results")
    parser.add_argument("--compare-original", action="store_true",
                        help="also run our API beside the original STGY backend (bench/original; "
                             "builds it from STGY_ORIGINAL_REPO the first time)")
    parser.add_argument("--db-prefix", default=DB_PREFIX,
                        help="database name prefix (must start with stgy_bench; default %(default)s)")
    args = parser.parse_args(argv)
    set_db_prefix(args.db_prefix)
    if not args.render_only:
        out_dir = RESULTS / args.size
        out_dir.mkdir(parents=True, exist_ok=True)
        info = ensure_community(args.size, args.seed, args.regen)
        benches = [b.strip() for b in args.only.split(",")] if args.only else list(BENCHES)
        if args.compare_original and not args.only:
            benches = []  # only the side by side (name benches with --only to run them as well)
        runs = {}
        for name in benches:
            runs[name] = run_bench(name, args.size, args.seed, out_dir)
        if args.compare_original:
            from .original.report import compare_original

            compare_original(args.size, template_name(args.size, args.seed), out_dir, run_bench, DB_PREFIX, args.seed)
            if not benches:
                return None  # its own table is written; the results table of the benches stays as it is
        manifest = {
            "size": args.size, "community": info, "benches": runs,
            "finished_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "git": git_describe(), "machine": machine(),
        }
        old = out_dir / "run.json"
        if old.exists() and args.only:
            previous = json.loads(old.read_text())
            previous["benches"].update(runs)
            manifest["benches"] = previous["benches"]
        old.write_text(json.dumps(manifest, indent=2) + "\n")
    from .report import render

    table = render(RESULTS)
    (RESULTS / "RESULTS.md").write_text(table)
    from .targets import render as render_targets

    readme = ROOT / "bench" / "README.md"
    text = readme.read_text() if readme.exists() else ""
    for begin, end, body in ((MARK_BEGIN, MARK_END, table), (TARGETS_BEGIN, TARGETS_END, render_targets())):
        if begin in text and end in text:
            head, rest = text.split(begin, 1)
            _, tail = rest.split(end, 1)
            text = f"{head}{begin}\n{body}\n{end}{tail}"
    if readme.exists():
        readme.write_text(text)
    print(f"[run_all] table written to {RESULTS / 'RESULTS.md'}", flush=True)


def set_db_prefix(prefix: str) -> None:
    global DB_PREFIX
    if not prefix.startswith("stgy_bench"):
        raise SystemExit(f"--db-prefix must start with stgy_bench (drop_db refuses others): {prefix!r}")
    DB_PREFIX = prefix


def machine() -> dict:
    with open("/proc/meminfo") as f:
        mem_kb = int(f.readline().split()[1])
    return {"cpus": os.cpu_count(), "ram_gb": round(mem_kb / 1e6), "python": platform.python_version(),
            "postgres": psql("SHOW server_version"), "kernel": platform.release()}


if __name__ == "__main__":
    sys.exit(main())
