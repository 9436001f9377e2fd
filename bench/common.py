"""Shared pieces of the benchmarks: databases, environment, process statistics, results.

Each benchmark is a module with `main(argv)` that prints its figures and, with
`--json FILE`, writes them for `bench.run_all`. They run against a dedicated
PostgreSQL database (never a test database) cloned from a generated community.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
PG = {"host": "127.0.0.1", "port": "5432", "user": "postgres"}
# A Redis database of the benchmarks' own (STGY_BENCH_REDIS_URL moves it, so that two
# engineers' benchmarks on one machine do not flush each other's broker).
BENCH_REDIS_URL = os.environ.get("STGY_BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
# The in-process benches (no Celery worker) use another one, so they can run while a
# worker bench owns the broker (STGY_BENCH_INPROCESS_REDIS_URL moves it; it is flushed).
INPROCESS_REDIS_URL = os.environ.get("STGY_BENCH_INPROCESS_REDIS_URL", "redis://127.0.0.1:6379/11")
RESULTS = ROOT / "bench" / "results"


def pg_url(db: str) -> str:
    return f"postgres://{PG['user']}@{PG['host']}:{PG['port']}/{db}"


def psql(sql: str, db: str = "postgres") -> str:
    out = subprocess.run(
        ["psql", "-h", PG["host"], "-p", PG["port"], "-U", PG["user"], "-d", db, "-Atqc", sql],
        check=True, capture_output=True, text=True,
    )
    return out.stdout.strip()


def db_exists(db: str) -> bool:
    return psql(f"SELECT 1 FROM pg_database WHERE datname = '{db}'") == "1"


def db_comment(db: str) -> str:
    return psql(f"SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = '{db}'")


def drop_db(db: str) -> None:
    if not db.startswith(("stgy_bench", "stgy_demo_bench")):
        raise ValueError(f"refusing to drop {db}: benchmark databases start with stgy_bench")
    psql(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')


def clone_db(template: str, db: str) -> float:
    """A fresh copy of a generated community; returns the seconds it took."""
    started = time.monotonic()
    drop_db(db)
    psql(f'CREATE DATABASE "{db}" TEMPLATE "{template}"')
    return time.monotonic() - started


def django_env(db: str, **extra: str) -> dict[str, str]:
    """Environment of a benchmark process: production-like settings on the bench database."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STGY_", "OPENAI_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="stgy.settings",
        DATABASE_URL=pg_url(db),
        REDIS_URL=BENCH_REDIS_URL,
        DEBUG="false",
        SECRET_KEY="bench-not-secret",
        SESSION_COOKIE_SECURE="false",
        LOG_LEVEL="WARNING",
        PYTHONPATH=str(ROOT),
    )
    env.update(extra)
    return env


def django_setup(db: str | None = None, **extra: str) -> None:
    """Configure Django in this process for `db` (or the DATABASE_URL already set)."""
    if db:
        os.environ.update(django_env(db, **extra))
    else:
        os.environ.update(extra)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def redis_flush(url: str = BENCH_REDIS_URL) -> None:
    """Empty one of the benchmarks' own Redis databases (queued tasks, caches, throttles)."""
    import redis

    redis.Redis.from_url(url).flushdb()


# ------------------------------------------------------------------ process statistics

CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            data = f.read()
    except OSError:
        return None
    return data[data.rindex(")") + 2 :].split()


def children(pid: int) -> list[int]:
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return found


def tree(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children(p)
    return out


def cpu_seconds(pids: list[int], *, reaped: bool = False) -> float:
    """User + system CPU of the given processes; with `reaped`, plus that of their
    children that have exited (PostgreSQL backends of closed connections)."""
    total = 0
    for pid in pids:
        fields = _stat(pid)
        if fields:
            total += int(fields[11]) + int(fields[12])
            if reaped:
                total += int(fields[13]) + int(fields[14])
    return total / CLK_TCK


def postgres_cpu(db: str | None = None) -> float:
    """CPU of the PostgreSQL backends serving `db` now (other databases on the server,
    e.g. other people's test runs, are left out; so is the CPU of backends that have
    exited, which is why the benchmarks keep their connections open)."""
    if db is None:
        return cpu_seconds(pids_named("postgres"), reaped=True)
    return sum(postgres_cpu_each(db).values())


def postgres_cpu_each(db: str) -> dict[int, float]:
    """CPU seconds of each PostgreSQL backend serving `db` now, by pid."""
    pids = psql(f"SELECT pid FROM pg_stat_activity WHERE datname = '{db}'").split()
    return {int(p): cpu_seconds([int(p)]) for p in pids}


def cpu_grown(before: dict[int, float], after: dict[int, float]) -> float:
    """The CPU the processes of `after` used since `before` was read (a process new
    since then, all of its own). A process that ended in between is left out rather
    than subtracted: web workers close a connection past its CONN_MAX_AGE during a
    run, and a sum of the live backends' totals then came out below the first."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm") as f:
                total += int(f.read().split()[1])
        except OSError:
            pass
    return total * PAGE / 1e6


def pids_named(name: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as f:
                    if f.read().strip() == name:
                        found.append(int(entry))
            except OSError:
                pass
    return found


def machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as f:
        values = [int(x) for x in f.readline().split()[1:]]
    idle = values[3] + values[4]
    return (sum(values) - idle) / CLK_TCK, sum(values) / CLK_TCK


def loadavg() -> float:
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


# ------------------------------------------------------------------ results


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def summary(values: list[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "mean": statistics.fmean(values) if values else float("nan"),
        "p50": pct(values, 0.5),
        "p90": pct(values, 0.9),
        "max": max(values) if values else float("nan"),
    }


def write_json(path: str | None, data: dict) -> None:
    text = json.dumps(data, indent=2, ensure_ascii=False, default=str)
    if path:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(text + "\n")


def exit_on_sigterm() -> None:
    """Turn SIGTERM (a timeout, run_all stopping) into SystemExit, so the `started`
    blocks stop the servers and workers this process began."""
    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


@contextmanager
def started(args: list[str], env: dict[str, str], *, log: Path | None = None):
    """A child process for the length of the block; terminated (then killed) after."""
    if log:
        Path(log).parent.mkdir(parents=True, exist_ok=True)
    out = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115 - closed below
    proc = subprocess.Popen(args, env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if log:
            out.close()


def free_port() -> int:
    """A loopback port nobody listens on now (others may run benchmarks too)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_http(url: str, timeout: float = 30.0) -> None:
    import urllib.request

    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except Exception as exc:
            if getattr(exc, "code", None):  # an HTTP error status still means it is up
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"{url} did not come up: {exc}") from None
            time.sleep(0.2)


# ------------------------------------------------ in-process requests (hot_reads, page_cpu)


def in_process_arguments(description: str, argv: list[str] | None, *, requests: int) -> argparse.Namespace:
    """The options of a benchmark that requests pages through the WSGI application in
    its own process: the database, how many requests a round, how many rounds."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--db", required=True)
    parser.add_argument("--requests", type=int, default=requests)
    parser.add_argument("--rounds", type=int, default=3, help="the median of this many rounds is printed")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json")
    return parser.parse_args(argv)


@dataclass(frozen=True)
class InProcess:
    application: object
    inputs: dict  # bench/web's pick_inputs: its user, posts and users
    session_key: str
    cookie: str


def in_process_login(args: argparse.Namespace) -> InProcess:
    """Django set up on `args.db` with production settings, its WSGI application, and a
    session of the human bench/web logs in as."""
    from .web import BENCH_PASSWORD, pick_inputs

    inputs = pick_inputs(args.db, args.seed)
    redis_flush()
    django_setup(args.db, ALLOWED_HOSTS="127.0.0.1", CONN_MAX_AGE="60")
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler  # what gunicorn serves (stgy/wsgi.py)

    # The user's "For you" ranking, made as a deployment's task worker makes it after
    # the first home view (bench/web.py `rank_recommendations`).
    from agents.tasks import warm_recommendations

    warm_recommendations(int(inputs["user_hex"], 16))
    application = WSGIHandler()
    status, _headers, body = wsgi_call(application, "POST", "/api/auth", None,
                                       json.dumps({"email": inputs["email"], "password": BENCH_PASSWORD}).encode())
    assert status.startswith("200"), body
    key = json.loads(body)["sessionId"]
    cookie = f"{settings.SESSION_COOKIE_NAME}={key}"
    # The CSRF cookie a browser keeps from its first page (bench/web.py `csrf_cookie`).
    _status, headers, _body = wsgi_call(application, "GET", "/", cookie)
    kept = [v.strip().split(";")[0] for k, v in headers
            if k.lower() == "set-cookie" and v.strip().startswith(settings.CSRF_COOKIE_NAME + "=")]
    return InProcess(application, inputs, key, "; ".join([cookie, *kept]))


def wsgi_call(application, method: str, path: str, cookie: str | None, body: bytes = b"") -> tuple[str, list, bytes]:
    """One request through the WSGI application, with the environ a server would give."""
    target, _, query = path.partition("?")
    environ = {
        "REQUEST_METHOD": method, "PATH_INFO": target, "QUERY_STRING": query, "SCRIPT_NAME": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1", "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body), "wsgi.errors": io.StringIO(), "wsgi.multithread": False,
        "wsgi.multiprocess": True, "wsgi.run_once": False, "wsgi.version": (1, 0),
        "CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": "application/json" if body else "",
    }
    if cookie:
        environ["HTTP_COOKIE"] = cookie
    started: list = []
    chunks = application(environ, lambda status, headers, exc_info=None: started.extend([status, headers]))
    try:
        payload = b"".join(chunks)
    finally:
        if hasattr(chunks, "close"):
            chunks.close()
    return started[0], started[1], payload
