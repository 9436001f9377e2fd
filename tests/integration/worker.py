"""A real Celery worker for integration tests, on the test database.

The worker is the `stgy` app's own worker, started by a three-line launcher that
points the app's default queue (and, through STGY_CYCLE_STAGE_QUEUE and
STGY_RESPOND_QUEUE, the stage tasks' and the respond task's queues) at queues of this
test session: the worker itself sends follow-on tasks (stage
chains, summaries), so this keeps other runs sharing the Redis server from stealing or
feeding them. The broker lives on the neighbouring
Redis database of REDIS_URL, because every test's `cache.clear()` flushes REDIS_URL's.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings as django_settings

from agents.runner import drain_publishes
from stgy.celery import app as celery_app
from tests.conftest import requires_postgres, requires_redis

ROOT = Path(__file__).resolve().parents[2]
QUEUE = f"stgy-test-{uuid.uuid4().hex[:8]}"
STAGE_QUEUE = f"{QUEUE}-stages"  # the stage tasks' own queue (settings.STGY_CYCLE_STAGE_QUEUE)
RESPOND_QUEUE = f"{QUEUE}-respond"  # the respond task's own queue (settings.STGY_RESPOND_QUEUE)
READY_TIMEOUT = 30
# A test module whose workers write: real PostgreSQL and Redis, rows committed for
# the worker processes to see.
WORKER_TEST_MARKS = [
    requires_postgres,
    requires_redis,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]


def model_server_env(llm_server, **more: str) -> dict[str, str]:
    """A worker's environment that sends its model calls to the local OpenAI-compatible
    test server (tests/conftest.py `llm_server`), with the test's own settings."""
    return {
        "STGY_AI_PROVIDER": "openai",
        "OPENAI_BASE_URL": llm_server.url + "/v1",
        "OPENAI_API_KEY": "test",
        **more,
    }
LAUNCHER = (
    "import os, sys\n"
    "from stgy.celery import app\n"
    "app.conf.task_default_queue = os.environ['STGY_TEST_QUEUE']\n"
    "app.worker_main(['worker', *sys.argv[1:]])\n"
)


def broker_url() -> str:
    parts = urlsplit(os.environ["REDIS_URL"])
    db = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(db - 1) % 16}"))


def database_url() -> str:
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + django_settings.DATABASES["default"]["NAME"]))


def wait_for(predicate, timeout: float, what):
    """Poll `predicate` until it returns something truthy; `what` (text or a callable
    giving text) explains a timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout}s waiting for {what() if callable(what) else what}")


def stop(proc: subprocess.Popen, sig=signal.SIGTERM) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)


@contextlib.contextmanager
def celery_worker(log_path: Path, *worker_args: str, queues: str = "respond,stages,default", **env_extra: str):
    """A worker process (its own process group) on the test database; stopped on exit.
    `queues` names the test queues it consumes, as compose.yaml's -Q does the real ones."""
    names = {"respond": RESPOND_QUEUE, "stages": STAGE_QUEUE, "default": QUEUE}
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": broker_url(),
        "DJANGO_SETTINGS_MODULE": "stgy.settings",
        "PYTHONPATH": str(ROOT),
        "STGY_TEST_QUEUE": QUEUE,
        "STGY_CYCLE_STAGE_QUEUE": STAGE_QUEUE,
        "STGY_RESPOND_QUEUE": RESPOND_QUEUE,
        "STGY_EMBEDDING_PROVIDER": "hash",
        "NO_PROXY": "127.0.0.1,localhost",
        **env_extra,
    }
    command = [
        sys.executable, "-c", LAUNCHER, *(worker_args or ("--pool=threads", "--concurrency=4")),
        "-Q", ",".join(names[q] for q in queues.split(",")), "-n", f"{QUEUE}-{log_path.stem}@%h",
        "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info",
    ]
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        wait_for(
            lambda: proc.poll() is not None or "ready." in log_path.read_text(),
            READY_TIMEOUT,
            "the Celery worker to start",
        )
        assert proc.poll() is None, log_path.read_text()[-3000:]
        yield proc
    finally:
        stop(proc)


@contextlib.contextmanager
def sending_to(url: str | None = None):
    """Tasks sent from this process go to `url` (default: the workers' broker) and the
    test queues (the respond task to its own), not inline; restored afterwards."""
    conf, amqp = celery_app.conf, celery_app.amqp
    saved = (conf.broker_url, conf.task_always_eager, conf.task_routes)

    def reset():
        celery_app._pool = None
        amqp._producer_pool = None
        amqp.flush_routes()
        amqp.__dict__.pop("router", None)  # a cached property built from the routes

    conf.broker_url, conf.task_always_eager = url or broker_url(), False
    conf.task_routes = {"agents.respond": {"queue": RESPOND_QUEUE}, "agents.*": {"queue": QUEUE},
                        "sns.*": {"queue": QUEUE}}
    reset()
    try:
        yield
    finally:
        # Publishes are made by the process's publisher thread: let it finish with this
        # broker before the test configuration comes back.
        drain_publishes()
        conf.broker_url, conf.task_always_eager, conf.task_routes = saved
        reset()
