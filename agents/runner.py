"""Submitting Celery tasks without ever making a human request wait or fail.

With a broker, the publish happens on a publisher thread of the process, so a request
that enqueues a summary never waits on the broker, even one that hangs. A failed
publish is logged, and the broker is then left alone for `STGY_BROKER_RETRY_SECONDS`;
what was skipped is redone by the periodic sweeps (docs/operations.md). In the embedded
mode (eager Celery, no broker) tasks run on a small background thread pool so a page
view never waits for the LLM; tests may run them inline.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)
# Publishes waiting for the publisher thread; past this, new ones are dropped (the
# broker is then unreachable or far behind, and the sweeps catch up).
PUBLISH_BACKLOG = 1000
_pool: ThreadPoolExecutor | None = None
_lock = threading.Lock()
_publishes: queue.Queue | None = None
_broker_down_until = 0.0


def _background_pool() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="stgy-task")
    return _pool


def _run_in_thread(task, args):
    try:
        task.apply(args=args)
    except Exception:
        log.exception("background task %s failed", task.name)
    finally:
        close_old_connections()


def broker_available() -> bool:
    """False while this process is leaving a broker that just failed alone."""
    return time.monotonic() >= _broker_down_until


def _publish(task, args) -> None:
    global _broker_down_until
    if not broker_available():
        log.info("broker resting after a failure: %s%r left to the sweep", task.name, args)
        return
    try:
        task.delay(*args)
    except Exception as exc:
        retry = float(settings.STGY_BROKER_RETRY_SECONDS)
        first = _broker_down_until == 0.0 or broker_available()  # a new outage, or a new window
        _broker_down_until = time.monotonic() + retry
        if first:
            log.warning("could not enqueue %s%r (%s); leaving the broker alone for %ss, the "
                        "periodic sweep will redo the work", task.name, args, exc, retry)
        return
    _broker_down_until = 0.0


def _publisher_loop(publishes: queue.Queue) -> None:
    while True:
        task, args, done = publishes.get()
        try:
            if task is not _NOTHING:
                _publish(task, args)
        except Exception:  # the publisher outlives any one task
            log.exception("publishing %s failed", task.name)
        finally:
            done.set()


def _publisher() -> queue.Queue:
    global _publishes
    with _lock:
        if _publishes is None:
            _publishes = queue.Queue(maxsize=PUBLISH_BACKLOG)
            threading.Thread(
                target=_publisher_loop, args=(_publishes,), name="stgy-publish", daemon=True
            ).start()
        return _publishes


def submit_task(task, *args) -> threading.Event | None:
    """Hand `task(*args)` to Celery. Returns, for a broker, an event set once the publish
    has been tried (tests and management commands may wait on it); never raises."""
    try:
        if task.app.conf.task_always_eager:
            if getattr(settings, "STGY_EAGER_TASKS_INLINE", False):
                task.apply(args=args)
            else:
                _background_pool().submit(_run_in_thread, task, args)
            return None
        done = threading.Event()
        _publisher().put_nowait((task, args, done))
        return done
    except queue.Full:
        log.warning("publish backlog full: %s%r left to the sweep", task.name, args)
    except Exception:
        log.exception("could not submit %s%r", task.name, args)
    return None


def drain_publishes(timeout: float = 10.0) -> bool:
    """Wait until every publish handed over so far has been tried; False on timeout.
    For management commands and tests that must know the broker was asked."""
    with _lock:
        publishes = _publishes
    if publishes is None:
        return True
    done = threading.Event()
    try:
        publishes.put((_NOTHING, (), done), timeout=timeout)
    except queue.Full:
        return False
    return done.wait(timeout)


class _Nothing:
    name = "nothing"

    @staticmethod
    def delay(*args) -> None:
        return None


_NOTHING = _Nothing()
