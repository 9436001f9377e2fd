"""The dispatcher loop in-process, for the embedded mode (no broker, no beat).

It does what beat + workers do in production: every tick, find the AI users that are
due and run their cycles on a small thread pool; sweep pending summaries, runs left
running by a stop (agents/runs/stale.py) and answers owed by the respond path (say,
from before a restart) too.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from django.db import close_old_connections, connections

log = logging.getLogger(__name__)


class LocalAgentLoop:
    def __init__(self, *, tick_seconds: float = 5.0, workers: int = 2, people_every: float = 0.0):
        self.tick_seconds = tick_seconds
        self.workers = workers
        self.people_every = people_every
        self._people_at = time.monotonic()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._running: set[int] = set()
        self._lock = threading.Lock()

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run_forever, name="stgy-agents", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def run_forever(self) -> None:
        with ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="stgy-cycle") as pool:
            while not self._stop.is_set():
                try:
                    self.tick(pool)
                except Exception:
                    log.exception("agent dispatcher tick failed")
                finally:
                    close_old_connections()
                self._stop.wait(self.tick_seconds)

    def tick(self, pool: ThreadPoolExecutor) -> int:
        from agents.cycle.schedule import due_user_ids
        from agents.respond.sweep import respond_sweep
        from agents.runs.stale import runs_stale_end
        from agents.summaries.sweep import summaries_sweep

        for sweep in (summaries_sweep, runs_stale_end, respond_sweep, self._people):
            try:
                sweep()
            except Exception:
                log.exception("%s failed", sweep.__name__)
        started = 0
        for user_id in due_user_ids(limit=self.workers * 2):
            with self._lock:
                if user_id in self._running:
                    continue
                self._running.add(user_id)
            pool.submit(self._cycle, user_id)
            started += 1
        return started

    def _people(self) -> None:
        if self.people_every <= 0 or time.monotonic() - self._people_at < self.people_every:
            return
        from agents.demo.people import people_write

        self._people_at = time.monotonic()
        post = people_write()
        if post is not None:
            log.info("%s wrote %s", post.owner.nickname, "a reply" if post.reply_to else "a post")

    def _cycle(self, user_id: int) -> None:
        from agents.cycle.run import run_cycle_sync

        try:
            run = run_cycle_sync(user_id)
            if run is not None:
                log.info("cycle of %s: %s in %s ms", run.user.nickname, run.status, run.elapsed_ms)
        except Exception:
            log.exception("cycle of user %s failed", user_id)
        finally:
            with self._lock:
                self._running.discard(user_id)
            connections.close_all()
