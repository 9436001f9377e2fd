"""The activity cycle through a real Redis broker and real Celery worker processes.

The worker is the Celery CLI of the `stgy` app (`celery worker --pool=threads
--concurrency=4`), started by a three-line launcher that points the app's default
queue at a queue of this test session: the worker itself sends the stage chain and
the summary tasks, so this is the only way to keep other suites sharing the Redis
server from stealing (or feeding) them. The broker lives on the neighbouring Redis
database of REDIS_URL, because every test's `cache.clear()` flushes REDIS_URL's own.
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
from django.db.models import Count

from agents.cycle import STAGES
from agents.cycle.tasks import cycle_start
from agents.models import CycleRun, PeerImpression, PostImpression
from sns.models import Like, Post
from stgy.celery import app as celery_app
from tests.conftest import requires_postgres, requires_redis
from tests.cycle.helpers import assert_all_stages_recorded, make_site, push_answers
from tests.factories import make_ai_user, make_post, make_user

pytestmark = [
    requires_postgres,
    requires_redis,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]

ROOT = Path(__file__).resolve().parents[2]
QUEUE = f"stgy-test-cycle-{uuid.uuid4().hex[:8]}"
VISIBILITY_TIMEOUT = 5
READY_TIMEOUT = 30
RUN_TIMEOUT = 60
LAUNCHER = (
    "import os, sys\n"
    "from stgy.celery import app\n"
    "app.conf.task_default_queue = os.environ['STGY_TEST_QUEUE']\n"
    "app.worker_main(['worker', *sys.argv[1:]])\n"
)


def _broker_url() -> str:
    parts = urlsplit(os.environ["REDIS_URL"])
    db = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(db - 1) % 16}"))


def _database_url() -> str:
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + django_settings.DATABASES["default"]["NAME"]))


def _wait_for(predicate, timeout: float, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(
        f"timed out after {timeout}s waiting for {what() if callable(what) else what}"
    )


def _stop(proc: subprocess.Popen, sig=signal.SIGTERM) -> None:
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
def celery_worker(log_path: Path, **env_extra: str):
    """A worker process (its own process group) on the test database; stopped on exit."""
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "REDIS_URL": _broker_url(),
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
        "DJANGO_SETTINGS_MODULE": "stgy.settings",
        "PYTHONPATH": str(ROOT),
        "STGY_TEST_QUEUE": QUEUE,
        "STGY_EMBEDDING_PROVIDER": "hash",
        "NO_PROXY": "127.0.0.1,localhost",
        **env_extra,
    }
    command = [
        sys.executable,
        "-c",
        LAUNCHER,
        "--pool=threads",
        "--concurrency=4",
        "-Q",
        QUEUE,
        "-n",
        f"{QUEUE}-{log_path.stem}@%h",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "-l",
        "info",
    ]
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        _wait_for(
            lambda: proc.poll() is not None or "ready." in log_path.read_text(),
            READY_TIMEOUT,
            "the Celery worker to start",
        )
        assert proc.poll() is None, log_path.read_text()[-3000:]
        yield proc
    finally:
        _stop(proc)


@contextlib.contextmanager
def real_broker():
    """Tasks sent from this process go to the worker's broker and queue, not inline."""
    conf, amqp = celery_app.conf, celery_app.amqp
    saved = (conf.broker_url, conf.task_always_eager, conf.task_routes)

    def reset():
        celery_app._pool = None
        amqp._producer_pool = None
        amqp.flush_routes()
        amqp.__dict__.pop("router", None)

    conf.broker_url, conf.task_always_eager = _broker_url(), False
    conf.task_routes = {"agents.*": {"queue": QUEUE}}
    reset()
    try:
        yield
    finally:
        conf.broker_url, conf.task_always_eager, conf.task_routes = saved
        reset()


def _finished_run(user, logs):
    def check():
        run = CycleRun.objects.filter(user=user).first()
        if (
            run is not None
            and run.status != CycleRun.Status.RUNNING
            and len(run.stages) == len(STAGES)
        ):
            return run
        return None

    return _wait_for(
        check,
        RUN_TIMEOUT,
        lambda: "the cycle to finish\n" + "\n".join(p.read_text()[-2500:] for p in logs),
    )


def test_a_cycle_runs_through_a_real_worker(settings, tmp_path):
    settings.STGY_AI_PROVIDER = "offline"
    ai = make_ai_user("Aiko", personality="A baker who loves sourdough and fermentation.")
    alice, bob = make_user("Alice"), make_user("Bob")
    make_post(alice, "My sourdough starter doubled overnight; rye flour makes it lively.")
    make_post(bob, "Fermenting miso at home: koji, soybeans and a lot of patience.")
    make_post(alice, "Bread baking tip: a long cold proof gives a better crust.")

    log = tmp_path / "worker.log"
    with celery_worker(log, STGY_AI_PROVIDER="offline"):
        with real_broker():
            cycle_start.delay(ai.id)
        run = _finished_run(ai, [log])

    assert run.status == CycleRun.Status.DONE, run.stages
    assert_all_stages_recorded(run)
    assert run.stages["post_impressions"]["outcome"] == "ok"
    assert run.stages["interest_update"]["outcome"] == "ok"
    assert PostImpression.objects.filter(user=ai).count() == 3
    assert PeerImpression.objects.filter(user=ai).count() == 2
    assert run.llm_calls >= 6  # 3 post + 2 peer impressions + interest (+ new post)
    text = log.read_text()
    assert (
        "agents.cycle_start" in text
        and "agents.cycle_stage" in text
        and "agents.cycle_finish" in text
    )


def test_a_worker_killed_mid_stage_leaves_no_duplicates_after_redelivery(
    settings, tmp_path, llm_server
):
    """The model answers after 3 s. The worker is SIGKILLed inside likes_and_replies,
    after its likes are written and while its reply calls are in flight; a fresh worker
    gets the unacknowledged stage again once the visibility timeout has passed."""
    ai, posts = make_site(cosines=(100, 90))
    push_answers(llm_server, count=80, delay=3.0)
    env = {
        "STGY_AI_PROVIDER": "openai",
        "OPENAI_BASE_URL": llm_server.url + "/v1",
        "OPENAI_API_KEY": "test",
        "STGY_AI_MAX_RETRIES": "0",
        "STGY_AI_RPC_TIMEOUT_MS": "30000",
    }
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"

    with celery_worker(first_log, **env) as first:
        with real_broker():
            cycle_start.delay(ai.id)

        def likes_written_reply_pending():
            run = CycleRun.objects.filter(user=ai).first()
            return (
                run is not None
                and Like.objects.filter(user=ai).count() == 2
                and "likes_and_replies" not in run.stages
            )

        _wait_for(
            likes_written_reply_pending, 40, lambda: "the likes\n" + first_log.read_text()[-3000:]
        )
        _stop(first, signal.SIGKILL)
        assert first.returncode is not None

    assert not Post.objects.filter(
        owner=ai, reply_to__isnull=False
    ).exists()  # killed before the replies
    time.sleep(VISIBILITY_TIMEOUT + 1)  # the new worker restores messages older than this at start
    with celery_worker(second_log, **env):
        run = _finished_run(ai, [first_log, second_log])

    assert run.status == CycleRun.Status.DONE, run.stages
    assert_all_stages_recorded(run)
    assert CycleRun.objects.filter(user=ai).count() == 1
    assert "agents.cycle_stage" in second_log.read_text()
    # The stage ran again from the start and met its own earlier likes.
    assert [r["result"] for r in run.details["likes"]] == ["already liked", "already liked"]

    assert Like.objects.filter(user=ai).count() == 2
    replies = Post.objects.filter(owner=ai, reply_to__isnull=False)
    assert sorted(replies.values_list("reply_to", flat=True)) == sorted(p.id for p in posts)
    assert not replies.values("reply_to").annotate(n=Count("id")).filter(n__gt=1).exists()
    assert Post.objects.filter(owner=ai, reply_to__isnull=True).count() == 1
    assert PostImpression.objects.filter(user=ai).count() == 2
    assert PeerImpression.objects.filter(user=ai).count() == 2
    keys = list(Post.objects.filter(owner=ai).values_list("idempotency_key", flat=True))
    assert len(keys) == len(set(keys)) == 3 and all(k.startswith(f"run:{run.pk}:") for k in keys)
