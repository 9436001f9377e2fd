"""bench/page_cpu: the Python CPU of one page view (the home timeline and a post page),
with the kept cards, includes and widgets (STGY_PAGE_FRAGMENTS on, sns/web/fragments.py
and sns/web/kept.py) and without them (every card drawn whole by sns/web/cards.py, every
include through the template engine), alternating in one process so both sides see the
same machine load.

Like bench/hot_reads, each page is requested N times through the WSGI application
gunicorn serves (every middleware, the view, the templates), logged in as bench/web's
human; the process's own CPU time per request is printed, waiting for PostgreSQL or
Redis is not counted. Also the SQL statements one view runs, and the CPU of the
PostgreSQL backend serving the process (PostgreSQL on this machine), which planning
and running them cost.

    python -m bench.page_cpu --db stgy_bench_web20k_run --requests 300 --rounds 3
"""

from __future__ import annotations

import statistics
import time

from .common import cpu_seconds, in_process_arguments, in_process_login, loadavg, write_json
from .common import wsgi_call as _call


def main(argv: list[str] | None = None) -> dict:
    args = in_process_arguments("Python CPU per page view, fragments on and off", argv, requests=300)
    bench = in_process_login(args)
    application, cookie = bench.application, bench.cookie

    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    posts = bench.inputs["posts"][:200]
    counter = {"i": 0}

    def post_path() -> str:
        counter["i"] += 1
        return f"/posts/{posts[counter['i'] % len(posts)]}"

    pages = {"home timeline (page /)": lambda: "/", "post page (/posts/{id})": post_path}

    def backend_cpu() -> float:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            return cpu_seconds([cursor.fetchone()[0]])

    def cpu_ms(path) -> tuple[float, float]:
        backend, started = backend_cpu(), time.process_time()
        for _ in range(args.requests):
            status = _call(application, "GET", path(), cookie)[0]
            assert status.startswith("200"), status
        ours = time.process_time() - started
        return ours * 1000 / args.requests, (backend_cpu() - backend) * 1000 / args.requests

    results: dict[str, dict] = {}
    load_before = loadavg()
    for name, path in pages.items():
        rounds: dict[str, list[float]] = {"reference": [], "fragments": []}
        postgres: dict[str, list[float]] = {"reference": [], "fragments": []}
        queries = {}
        for side, on in (("reference", False), ("fragments", True)):
            settings.STGY_PAGE_FRAGMENTS = on
            for _ in range(len(posts)):  # warm: every sampled post seen once, as a running worker has
                _call(application, "GET", path(), cookie)
            with CaptureQueriesContext(connection) as ctx:
                _call(application, "GET", path(), cookie)
            queries[side] = len(ctx.captured_queries)
        for _ in range(args.rounds):
            for side, on in (("reference", False), ("fragments", True)):
                settings.STGY_PAGE_FRAGMENTS = on
                ours, backend = cpu_ms(path)
                rounds[side].append(ours)
                postgres[side].append(backend)
        median = {side: statistics.median(values) for side, values in rounds.items()}
        median_pg = {side: statistics.median(values) for side, values in postgres.items()}
        results[name] = {"median_ms": median, "rounds": rounds, "queries": queries,
                         "postgres_median_ms": median_pg, "postgres_rounds": postgres}
        print(f"{name:<26} CPU ms per view: reference {median['reference']:.2f} → fragments "
              f"{median['fragments']:.2f}  (queries {queries['reference']} → {queries['fragments']}; "
              f"median of {args.rounds} alternating rounds of {args.requests}); PostgreSQL backend "
              f"{median_pg['reference']:.2f} → {median_pg['fragments']:.2f}", flush=True)
    load_after = loadavg()
    print(f"load average before {load_before}, after {load_after}")
    output = {"bench": "page_cpu", "database": args.db, "requests": args.requests, "pages": results,
              "loadavg_before": load_before, "loadavg_after": load_after}
    write_json(args.json, output)
    return output


if __name__ == "__main__":
    main()
