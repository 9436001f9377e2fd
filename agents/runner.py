"""Submitting Celery tasks without ever making a human request wait or fail.

With a broker, `.delay()`; a broker error is logged and the sweep recovers the work.
In the embedded mode (eager Celery, no broker) tasks run on a small background
thread pool so a page view never waits for the LLM; tests may run them inline.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)
_pool: ThreadPoolExecutor | None = None


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


def submit_task(task, *args) -> None:
    try:
        if task.app.conf.task_always_eager:
            if getattr(settings, "STGY_EAGER_TASKS_INLINE", False):
                task.apply(args=args)
            else:
                _background_pool().submit(_run_in_thread, task, args)
            return
        task.delay(*args)
    except Exception:
        log.exception("could not enqueue %s%r; the periodic sweep will retry", task.name, args)
