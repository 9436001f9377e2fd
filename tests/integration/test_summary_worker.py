"""Summaries through a real Redis broker and a real Celery worker process.

The worker runs `celery -A stgy worker -P solo` against the same test database and
consumes a queue of its own, so other suites sharing the Redis server cannot steal
(or feed) its tasks.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings as django_settings

from agents.embeddings import model_name
from agents.models import PostSummary
from agents.summaries.sweep import summaries_sweep
from stgy.celery import app as celery_app
from tests.conftest import login_client, requires_postgres, requires_redis

pytestmark = [requires_postgres, requires_redis, pytest.mark.celery_worker]

ROOT = Path(__file__).resolve().parents[2]
QUEUE = f"stgy-test-summaries-{uuid.uuid4().hex[:8]}"
READY_TIMEOUT = 60
RESULT_TIMEOUT = 60
CLOSED_BROKER = "redis://127.0.0.1:1/0"
CONTENT = (
    "Our allotment tomatoes split after the storm. Deep watering twice a week and a thick "
    "straw mulch kept the soil moist, and the next truss ripened without cracks."
)


def _database_url(name: str) -> str:
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + name))


def _wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


@pytest.fixture(scope="module")
def worker(django_db_setup, tmp_path_factory):
    """A Celery worker subprocess on the test database, stopped after the module;
    yields the path of its log."""
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(django_settings.DATABASES["default"]["NAME"]),
        "STGY_AI_PROVIDER": "offline",
        "STGY_EMBEDDING_PROVIDER": "hash",
        "DJANGO_SETTINGS_MODULE": "stgy.settings",
    }
    log_path = tmp_path_factory.mktemp("celery") / "worker.log"
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "stgy",
        "worker",
        "-P",
        "solo",
        "-Q",
        QUEUE,
        "-n",
        f"{QUEUE}@%h",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "-l",
        "info",
    ]
    with open(log_path, "w") as log:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_for(
                lambda: proc.poll() is not None or "ready." in log_path.read_text(),
                READY_TIMEOUT,
                "the Celery worker to start",
            )
            assert proc.poll() is None, log_path.read_text()[-3000:]
            yield log_path
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)


@contextlib.contextmanager
def broker(url: str, queue: str = QUEUE):
    """Send tasks for real (eager off) to `url`, routed to `queue`; restore afterwards."""
    conf, amqp = celery_app.conf, celery_app.amqp
    saved = (conf.broker_url, conf.task_always_eager, conf.task_routes)

    def reset():
        celery_app._pool = None
        amqp._producer_pool = None
        amqp.flush_routes()
        amqp.__dict__.pop("router", None)  # a cached property built from the routes

    conf.broker_url, conf.task_always_eager = url, False
    conf.task_routes = {"agents.*": {"queue": queue}}
    reset()
    try:
        yield
    finally:
        conf.broker_url, conf.task_always_eager, conf.task_routes = saved
        reset()


def _summary(post_id: int):
    return PostSummary.objects.filter(post_id=post_id, summary__isnull=False).first()


@pytest.mark.django_db(transaction=True)
def test_post_created_through_the_api_is_summarised_by_the_worker(worker, human, settings):
    settings.STGY_AI_PROVIDER = "offline"
    client = login_client(human)
    with broker(os.environ["REDIS_URL"]):
        response = client.post(
            "/api/posts", {"content": CONTENT, "tags": ["Garden"]}, format="json"
        )
    assert response.status_code == 201, response.content
    post_id = int(response.json()["id"], 16)
    row = _wait_for(
        lambda: _summary(post_id), RESULT_TIMEOUT, f"the summary\n{worker.read_text()[-3000:]}"
    )
    assert "tomato" in row.summary.lower()
    assert len(bytes(row.features)) == 512 and row.embedding_model == model_name()
    assert row.post.ai_tags.exists()
    assert "agents.summarize_post" in worker.read_text()  # the worker did it, not this process


@pytest.mark.django_db(transaction=True)
def test_post_written_while_the_broker_is_down_is_recovered_by_the_sweep(worker, human, settings):
    settings.STGY_AI_PROVIDER = "offline"
    client = login_client(human)
    with broker(CLOSED_BROKER):
        response = client.post("/api/posts", {"content": CONTENT, "tags": []}, format="json")
    assert response.status_code == 201, response.content
    post_id = int(response.json()["id"], 16)
    assert PostSummary.objects.get(post_id=post_id).summary is None

    settings.STGY_AI_SUMMARY_SWEEP_MIN_AGE_SECONDS = 0
    with broker(os.environ["REDIS_URL"]):
        assert summaries_sweep() == 1  # the broker is back: the sweep queues it
    row = _wait_for(
        lambda: _summary(post_id), RESULT_TIMEOUT, f"the summary\n{worker.read_text()[-3000:]}"
    )
    assert row.features and row.summarized_at
