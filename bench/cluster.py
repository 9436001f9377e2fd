"""A small AI-user cluster for the benchmarks: the LLM stand-in server, real Celery
workers on the benchmarks' Redis database, and a feeder that keeps a fixed number of
cycles in flight (a concurrency-bounded dispatcher).

The feeder enqueues `agents.cycle_start` exactly as the dispatcher does; each cycle then
runs as its chain of stage tasks on the workers. It starts a new cycle whenever one
finishes, cycling through the AI users (never two cycles of one user at once).
"""

from __future__ import annotations

import os
import subprocess
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .common import PYTHON, ROOT, django_env, free_port, started, wait_http

CELERY = str(Path(PYTHON).parent / "celery")


@dataclass
class Pool:
    """One way to run the workers: `processes` worker processes of `pool` × `concurrency`."""

    pool: str = "threads"
    concurrency: int = 16
    processes: int = 1

    @property
    def slots(self) -> int:
        return self.concurrency * self.processes

    def label(self) -> str:
        return f"{self.processes} × celery -P {self.pool} -c {self.concurrency}"

    @classmethod
    def parse(cls, text: str) -> "Pool":
        """`threads:2x16` = 2 worker processes with 16 threads each; `prefork:8`."""
        pool, _, rest = text.partition(":")
        processes, _, concurrency = rest.rpartition("x")
        return cls(pool=pool, concurrency=int(concurrency), processes=int(processes or 1))


@dataclass
class Cluster:
    standin: subprocess.Popen
    workers: list[subprocess.Popen]
    url: str
    env: dict[str, str] = field(default_factory=dict)

    def worker_pids(self) -> list[int]:
        from .common import tree

        return [pid for w in self.workers for pid in tree(w.pid)]


@contextmanager
def cluster(db: str, *, latency: float, pool: Pool, port: int | None = None, log_dir: Path | None = None,
            extra_env: dict[str, str] | None = None):
    port = port or free_port()
    log_dir = log_dir or ROOT / "bench" / "results" / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    url = f"http://127.0.0.1:{port}/v1"
    base_env = django_env(db)
    # No budget: the stand-in answers as the priced default models, and the default site
    # budget (agents/budget.py) would pause a long run's cycles part way.
    env = django_env(
        db, STGY_AI_PROVIDER="openai", OPENAI_BASE_URL=url, OPENAI_API_KEY="bench-standin",
        STGY_AI_MAX_RETRIES="1", CONN_MAX_AGE="600", STGY_AI_SITE_DAILY_BUDGET="0", **(extra_env or {}),
    )
    with ExitStack() as stack:
        standin = stack.enter_context(started(
            [PYTHON, "-m", "bench.llm_standin_server", "--port", str(port), "--latency", str(latency)],
            base_env, log=log_dir / "standin.log",
        ))
        wait_http(f"http://127.0.0.1:{port}/stats", timeout=60)
        workers = []
        for i in range(pool.processes):
            cmd = [CELERY, "-A", "stgy", "worker", "-P", pool.pool, "-c", str(pool.concurrency),
                   "-n", f"bench{i}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat",
                   "-l", "WARNING"]
            workers.append(stack.enter_context(started(cmd, env, log=log_dir / f"worker{i}.log")))
        time.sleep(4)  # let the workers connect to the broker
        yield Cluster(standin=standin, workers=workers, url=url, env=env)


class Feeder:
    """Keeps `inflight` cycles running; call `tick()` often."""

    def __init__(self, inflight: int, user_ids: list[int]) -> None:
        self.inflight = inflight
        self.user_ids = user_ids
        self.next_index = 0
        self.running: dict[int, float] = {}  # user id -> when enqueued
        self.enqueued = 0
        self.finished_runs: list[int] = []
        self.since = None

    def start(self) -> None:
        from django.utils import timezone

        release_leases()
        self.since = timezone.now()
        self.tick()

    def tick(self) -> int:
        """Enqueue cycles up to `inflight`; returns the number finished so far."""
        from agents.cycle.tasks import cycle_start
        from agents.models import CycleRun

        if self.running:
            done = CycleRun.objects.filter(
                kind=CycleRun.Kind.CYCLE, user_id__in=list(self.running), started_at__gte=self.since,
                finished_at__isnull=False,
            ).exclude(pk__in=self.finished_runs).values_list("pk", "user_id")
            for pk, user_id in done:
                self.finished_runs.append(pk)
                self.running.pop(user_id, None)
            # A cycle_start refused (lease held) never makes a run: retire it after a while.
            stale = [u for u, t in self.running.items() if time.monotonic() - t > 600]
            for user_id in stale:
                self.running.pop(user_id)
        tries = 0
        while len(self.running) < self.inflight and tries < len(self.user_ids):
            user_id = self.user_ids[self.next_index % len(self.user_ids)]
            self.next_index += 1
            tries += 1
            if user_id in self.running:
                continue
            cycle_start.delay(user_id)
            self.running[user_id] = time.monotonic()
            self.enqueued += 1
        return len(self.finished_runs)


def release_leases() -> None:
    """Workers stopped at the end of an earlier measurement leave cycles half done and
    their users leased; free them (and close those runs) before measuring again."""
    from django.utils import timezone

    from agents.models import AgentState, CycleRun

    AgentState.objects.filter(lease_until__isnull=False).update(lease_until=None, lease_run=None)
    CycleRun.objects.filter(status=CycleRun.Status.RUNNING).update(
        status=CycleRun.Status.FAILED, finished_at=timezone.now()
    )


def ai_user_ids(seed: int = 11) -> list[int]:
    import random

    from sns.models import User

    ids = list(User.objects.filter(ai_model__isnull=False, is_frozen=False).order_by("id").values_list("id", flat=True))
    random.Random(seed).shuffle(ids)
    return ids


def setup_feeder_process(db: str) -> None:
    """This process talks to the same database and broker as the workers."""
    from .common import django_setup

    os.environ.update(django_env(db))
    django_setup(db)
