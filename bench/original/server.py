"""Run the original backend built by bench/original/setup.py on a loopback port.

It gets a Redis of its own (a throw-away `redis-server` without persistence on a free
port): the original always uses Redis database 0, which on the shared server belongs
to others. Its PostgreSQL is ours (same server, its own database), its object storage
and mail are never touched by the reads measured here.
"""

from __future__ import annotations

import os
import shutil
from contextlib import ExitStack, contextmanager
from pathlib import Path

from ..common import PG, free_port, started, wait_http
from .setup import GEO_FILE, SRC, WORKDIR

NODE = os.environ.get("STGY_ORIGINAL_NODE", shutil.which("node") or "/usr/bin/node")
REDIS_PASSWORD = "bench-original"  # the original always sends one; its own Redis expects it


def node_env(db: str, port: int, redis_port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("STGY_")}
    env.update(
        NODE_ENV="production",
        STGY_BACKEND_PORT=str(port),
        STGY_DATABASE_HOST=PG["host"],
        STGY_DATABASE_PORT=PG["port"],
        STGY_DATABASE_USER=PG["user"],
        STGY_DATABASE_NAME=db,
        STGY_REDIS_HOST="127.0.0.1",
        STGY_REDIS_PORT=str(redis_port),
        STGY_REDIS_PASSWORD=REDIS_PASSWORD,
        STGY_STORAGE_DRIVER="s3",
        STGY_GEO_STATIC_JSON_FILE=str(GEO_FILE),
        STGY_TRUST_PROXY_HOPS="0",
        STGY_LOG_FORMAT="json",
        # Its per-user budget of database time per day (120 s) runs out within a minute
        # of 32 clients logged in as one user, and every read then answers 403; the
        # bookkeeping (a Redis write per request) still runs, as in production.
        STGY_DAILY_DB_TIMER_LIMIT_MS=str(10**12),
    )
    return env


@contextmanager
def original_server(db: str, *, port: int = 0):
    """Yields (base URL, the node process) of the original backend serving `db`."""
    port = port or free_port()
    redis_port = free_port()
    logs = WORKDIR / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        redis = [shutil.which("redis-server") or "redis-server", "--port", str(redis_port), "--bind", "127.0.0.1",
                 "--save", "", "--appendonly", "no", "--requirepass", REDIS_PASSWORD, "--dir", str(logs)]
        stack.enter_context(started(redis, dict(os.environ), log=logs / "redis.log"))
        node = [NODE, str(SRC / "backend" / "dist" / "index.js")]
        proc = stack.enter_context(started(node, node_env(db, port, redis_port), log=logs / "backend.log"))
        base = f"http://127.0.0.1:{port}"
        wait_http(f"{base}/posts?limit=1", timeout=60)
        yield base, proc


def backend_log() -> Path:
    return WORKDIR / "logs" / "backend.log"
