"""The cycle's batches (agents/runs/batched.py): polled by the beat task that polls the
summaries' (agents.summary_batches), every minute.

A batch that has ended — completed, failed, expired or cancelled at the provider —
has its answers stored on its `LlmBatch` row (each as a usage row at the batch price,
agents/llm/batch.py) and its run's chain set going again from the stage that waited:
the stage takes the answers there and calls directly for the rest. A batch still
running after STGY_AI_BATCH_WAIT_HOURS, or one that cannot be read until then, is
given up (expired, no answers): the stage makes all its calls directly.
"""

from __future__ import annotations

import logging

from django.utils import timezone

from agents.llm.batch import BatchCall, batch_fetch
from agents.llm.errors import LlmError
from agents.models import CycleRun, LlmBatch
from agents.runner import submit_task
from agents.runs.batched import KIND, wait_bound

log = logging.getLogger(__name__)


def _calls(batch: LlmBatch) -> dict[str, BatchCall]:
    """What the answers are recorded against (the prompts are not kept)."""
    return {
        custom_id: BatchCall(
            custom_id,
            {
                "messages": [],
                "model": item["model"],
                "task": item["task"],
                "stage": item["stage"],
                "user_id": item["user"],
                "run_id": item["run"],
            },
        )
        for custom_id, item in batch.items.items()
    }


def cycle_batch_poll(batch: LlmBatch) -> bool:
    """Read one batch; once it has ended (or waited too long) store its answers and
    resume its run. True when it has ended."""
    given_up = batch.created_at < timezone.now() - wait_bound()
    try:
        result = batch_fetch(batch.provider_batch_id, _calls(batch))
    except LlmError as exc:
        log.warning("cycle batch %s not read: %s", batch.provider_batch_id, exc)
        result = None
    if result is None and not given_up:
        return False
    if result is None:
        batch.status = LlmBatch.Status.EXPIRED
        batch.error = f"no answers within {wait_bound()}: called directly"
    else:
        batch.status = result.status
        batch.error = "; ".join(sorted(set(result.errors.values())))[:2000]
        for custom_id, answer in result.answers.items():
            batch.items[custom_id]["answer"] = answer.content
    batch.answered = len(result.answers) if result is not None else 0
    batch.fell_back = len(batch.items) - batch.answered
    batch.finished_at = timezone.now()
    batch.save(update_fields=["status", "error", "items", "answered", "fell_back", "finished_at"])
    _resume(batch)
    return True


def _resume(batch: LlmBatch) -> None:
    from .tasks import cycle_resume

    runs = {(item["run"], item["stage"]) for item in batch.items.values()}
    for run_id, stage in runs:
        waiting = CycleRun.objects.filter(
            pk=run_id, status=CycleRun.Status.RUNNING, details__batchWait__batch=batch.pk
        ).exists()
        if waiting:
            submit_task(cycle_resume, run_id, stage)
        else:
            log.info(
                "cycle batch %s ended; its run %s no longer waits on it",
                batch.provider_batch_id,
                run_id,
            )


def cycle_batches_tick() -> dict[str, int]:
    """Poll the cycle's batches under way (whether or not batch mode is still on: the
    runs waiting on them go on either way)."""
    under_way = list(
        LlmBatch.objects.filter(kind=KIND, status=LlmBatch.Status.SUBMITTED).order_by("created_at")
    )
    ended = sum(cycle_batch_poll(batch) for batch in under_way)
    return {"polled": len(under_way), "ended": ended}
