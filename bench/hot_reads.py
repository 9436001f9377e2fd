"""bench/hot_reads: the Python CPU of one hot API read, whole and by part.

In one process, on the benchmark database with production settings (DEBUG off, Redis
for cache and sessions), each hot read is requested N times through the WSGI
application gunicorn serves (every middleware, DRF, the view, the renderer — all but
gunicorn's own HTTP parsing), logged in as the same kind of user bench/web uses. The process's own CPU
time per request is the figure the target (≤ 1.0 ms, bench/README.md) is about: waiting for
PostgreSQL or Redis is not counted. Then the parts are timed alone, the same N times:

* auth — the session read and the session's user (what every request pays);
* read — the selector call that fetches the rows;
* present — rows to the JSON-ready dicts;
* render — the dicts to bytes (the renderer DRF is configured with);
* rest — whole minus those: Django's WSGI handler and the middlewares (and, in a tree
  from before the API's lean path, sns/api/hot_reads.py, URL resolution and DRF's dispatch).

    python -m bench.hot_reads --db stgy_bench_speed_web20k --requests 2000
"""

from __future__ import annotations

import statistics
import time

from .common import in_process_arguments, in_process_login, write_json, wsgi_call as _call


def _cpu_ms_per_call(fn, n: int) -> float:
    fn()  # warm: first-call work (imports, prepared plans) is not the steady state
    started = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - started) * 1000 / n


def main(argv: list[str] | None = None) -> dict:
    args = in_process_arguments("Python CPU per hot read, whole and by part", argv, requests=2000)
    bench = in_process_login(args)
    application, inputs, key, cookie = bench.application, bench.inputs, bench.session_key, bench.cookie

    from django.conf import settings
    from django.contrib.sessions.backends.base import SessionBase
    from django.utils.module_loading import import_string
    from rest_framework.settings import api_settings

    from sns import selectors
    from sns.core.ids import parse_id

    try:  # the tree being measured may predate the lean reads: then time what it has
        from sns.api.post_rows import post_row_detail_json, post_row_json
        from sns.auth.session import session_user

        try:
            from sns.selectors.post_reads import tuples as post_rows
        except ImportError:  # a tree from before the statement builder
            from sns.selectors import post_rows
    except ImportError:
        post_rows = None
        from django.contrib.auth import get_user as session_user

        from sns.api.presenters import post_detail_json, post_json

    def get(path: str) -> str:
        return _call(application, "GET", path, cookie)[0]
    store_class = import_string(settings.SESSION_ENGINE + ".SessionStore")
    renderer = api_settings.DEFAULT_RENDERER_CLASSES[0]()
    post_ids = [parse_id(p) for p in inputs["posts"][:200]]
    users = [parse_id(u) for u in inputs["users"][:200]]
    page = selectors.Page(limit=20)
    counter = {"i": 0}

    def pick(items):
        counter["i"] += 1
        return items[counter["i"] % len(items)]

    class _Request:
        def __init__(self):
            self.session: SessionBase = store_class(session_key=key)

    def auth():
        user = session_user(_Request())
        assert user.is_authenticated
        user.is_admin  # noqa: B018  (what every request reads of its user)

    if post_rows is not None:
        reads = {
            "GET /api/posts?limit=20": (
                lambda: post_rows.post_rows_list(page=page), lambda rows: [post_row_json(r) for r in rows]),
            "GET /api/posts/by-followees": (
                lambda: post_rows.post_rows_by_followees(user_id=pick(users), page=page),
                lambda rows: [post_row_json(r) for r in rows]),
            "GET /api/posts/{id}": (
                lambda: post_rows.post_row_get(pick(post_ids)), lambda row: post_row_detail_json(row)),
        }
    else:
        reads = {
            "GET /api/posts?limit=20": (
                lambda: selectors.posts_list(page=page), lambda rows: [post_json(p) for p in rows]),
            "GET /api/posts/by-followees": (
                lambda: selectors.posts_by_followees(user_id=pick(users), page=page),
                lambda rows: [post_json(p) for p in rows]),
            "GET /api/posts/{id}": (
                lambda: selectors.post_get(pick(post_ids), with_neighbours=True),
                lambda post: post_detail_json(post, *selectors.post_neighbours(post))),
        }
    paths = {
        "GET /api/posts?limit=20": lambda: "/api/posts?limit=20",
        "GET /api/posts/by-followees": lambda: f"/api/posts/by-followees?userId={pick(users):016x}&limit=20",
        "GET /api/posts/{id}": lambda: f"/api/posts/{pick(post_ids):016x}",
    }
    results: dict[str, dict] = {}
    for name, (read, present) in reads.items():
        path = paths[name]
        rounds = []
        for _ in range(args.rounds):
            assert get(path()).startswith("200")
            whole = _cpu_ms_per_call(lambda: get(path()), args.requests)
            auth_ms = _cpu_ms_per_call(auth, args.requests)
            read_ms = _cpu_ms_per_call(read, args.requests)
            rows = read()
            present_ms = _cpu_ms_per_call(lambda: present(rows), args.requests)
            data = present(rows)
            render_ms = _cpu_ms_per_call(lambda: renderer.render(data), args.requests)
            rest_ms = whole - auth_ms - read_ms - present_ms - render_ms
            rounds.append({"whole": whole, "auth": auth_ms, "read": read_ms, "present": present_ms,
                           "render": render_ms, "rest": rest_ms})
        median = {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}
        results[name] = {"median_ms": median, "rounds": rounds}
        print(f"{name:<30} whole {median['whole']:.3f} ms  auth {median['auth']:.3f}  read {median['read']:.3f}  "
              f"present {median['present']:.3f}  render {median['render']:.3f}  rest {median['rest']:.3f}  "
              f"(CPU ms per request, median of {args.rounds} rounds of {args.requests})", flush=True)
    output = {"bench": "hot_reads", "database": args.db, "requests": args.requests, "endpoints": results}
    write_json(args.json, output)
    return output


if __name__ == "__main__":
    main()
