"""bench/post_tail: where the post page's slow views come from. Each post of bench/web's
sample is requested twice through the WSGI application (as bench/page_cpu does), the
first view of a post in this process and the second; per view the process's CPU time,
the wall time, the SQL statements and the page's size, and, with --calls, the Python
calls (cProfile). Prints the percentiles of both views and the slowest posts, so a
tail can be put down to the posts that make it (their statements, their size) rather
than to the machine.

    python -m bench.post_tail --db stgy_bench_medium_run --requests 400 --calls
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from .common import in_process_arguments, in_process_login, loadavg, pct, wsgi_call, write_json


def main(argv: list[str] | None = None) -> dict:
    extra = argparse.ArgumentParser(add_help=False)
    extra.add_argument("--calls", action="store_true", help="also count Python calls per view (slower)")
    known, rest = extra.parse_known_args(argv)
    args = in_process_arguments("the post page's views one post at a time", rest, requests=300)
    bench = in_process_login(args)

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def view(post: str) -> dict:
        profile = cProfile.Profile() if known.calls else None
        with CaptureQueriesContext(connection) as queries:
            wall, cpu = time.perf_counter(), time.process_time()
            if profile:
                profile.enable()
            status, _headers, body = wsgi_call(bench.application, "GET", f"/posts/{post}", bench.cookie)
            if profile:
                profile.disable()
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        assert status.startswith("200"), status
        return {"cpu_ms": cpu * 1000, "wall_ms": wall * 1000, "statements": len(queries.captured_queries),
                "bytes": len(body), "calls": pstats.Stats(profile).total_calls if profile else None}

    load = loadavg()
    posts = bench.inputs["posts"][: args.requests]
    views = [(post, view(post), view(post)) for post in posts]
    result: dict = {"bench": "post_tail", "database": args.db, "posts": len(posts), "loadavg_before": load}
    for index, name in ((1, "first"), (2, "second")):
        part = {}
        for measure in ("cpu_ms", "wall_ms", "statements", "bytes", "calls"):
            values = [v[index][measure] for v in views if v[index][measure] is not None]
            if values:
                part[measure] = {f"p{round(q * 100)}": pct(values, q) for q in (0.5, 0.9, 0.99)} | {"max": max(values)}
        result[name] = part
        print(f"{name} views: " + "  ".join(
            f"{m} p50 {p['p50']:.1f} p90 {p['p90']:.1f} p99 {p['p99']:.1f} max {p['max']:.1f}" for m, p in part.items()))
    slowest = sorted(views, key=lambda v: -v[2]["cpu_ms"])[:10]
    result["slowest"] = [{"post": post, "second": second} for post, _first, second in slowest]
    print("slowest second views (CPU ms, statements, bytes):")
    for post, _first, second in slowest:
        print(f"  /posts/{post}  {second['cpu_ms']:.1f}  {second['statements']}  {second['bytes']}")
    write_json(args.json, result)
    return result


if __name__ == "__main__":
    main()
