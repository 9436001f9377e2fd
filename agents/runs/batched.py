"""A cycle's judging stage in batch mode (STGY_AI_BATCH=on; agents/llm/batch.py).

The stage's calls go out as one batch and the stage ends its task with the run waiting
(`details.batchWait`, the stage's record "waiting"): no worker waits on the batch. The
beat task that polls batches (agents/cycle/batches.py) stores the answers on the
`LlmBatch` row and sets the chain going again from this stage; the stage is run anew
and `run_jobs` (llm_calls.py) finds here the answer to each of its prompts, parsed
exactly as a direct answer. A prompt without an answer (the batch failed, expired or
left it out, or the prompt changed meanwhile) and a batch that could not be sent
(a provider error, the site's budget) are called directly.

agents/cycle/run.py `stage_execute` opens the batching for the judging stages of a
cycle run by a Celery task; elsewhere (runcycle, the embedded demo, the respond path)
there is none and every call is direct.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils import timezone

from agents.llm.batch import BatchCall, batch_submit
from agents.llm.errors import LlmError
from agents.models import CycleRun, LlmBatch
from sns.api.presenters import iso

if TYPE_CHECKING:
    from .llm_calls import LlmJob

log = logging.getLogger(__name__)

KIND = "cycle"  # LlmBatch.kind of a cycle stage's batch


class StageWaiting(Exception):
    """The stage's calls are in a batch: the stage ends, the run waits (`wait`)."""

    def __init__(self, wait: dict[str, Any]):
        super().__init__(f"waiting for batch {wait['providerBatchId']} since {wait['since']}")
        self.wait = wait


def wait_bound() -> timedelta:
    """How long a run waits on a batch before its calls are made directly."""
    return timedelta(hours=float(settings.STGY_AI_BATCH_WAIT_HOURS))


def prompt_digest(messages: list[dict[str, str]]) -> str:
    return hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()


class StageBatching:
    def __init__(self, run: CycleRun, stage: str):
        self.run = run
        self.stage = stage

    def answer(self, jobs: list[LlmJob], *, profile: dict, tier: str, user_id: int) -> list[LlmJob]:
        """Answer `jobs` from the stage's ended batch, or send them as a batch (raises
        StageWaiting); the jobs left to call directly."""
        from .llm_calls import job_answer, job_prompt

        details = self.run.details
        wait = details.get("batchWait")
        if wait is not None and wait.get("stage") == self.stage:
            batch = LlmBatch.objects.filter(pk=wait["batch"]).first()
            if batch is not None and batch.status == LlmBatch.Status.SUBMITTED:
                raise StageWaiting(wait)  # a stage task delivered again while it waits
            answers = {
                item["digest"]: item["answer"]
                for item in (batch.items.values() if batch is not None else ())
                if item.get("answer") is not None
            }
            direct = []
            for job in jobs:
                content = answers.get(prompt_digest(job_prompt(job, profile).messages))
                if content is None:
                    direct.append(job)
                else:
                    job_answer(job, content)
            del details["batchWait"]
            details.setdefault("batches", {})[self.stage] = {
                **wait,
                "status": batch.status if batch is not None else "gone",
                "answered": len(jobs) - len(direct),
                "direct": len(direct),
                "endedAt": iso(batch.finished_at) if batch is not None else None,
            }
            return direct
        if not jobs:
            return jobs
        calls, items = [], {}
        for n, job in enumerate(jobs, 1):
            messages = job_prompt(job, profile).messages
            custom_id = f"run-{self.run.pk}-{self.stage}-{n}"
            call = BatchCall(
                custom_id,
                {
                    "messages": messages,
                    "tier": tier,
                    "json_mode": True,
                    "task": job.task,
                    "stage": self.stage,
                    "user_id": user_id,
                    "run_id": self.run.pk,
                },
            )
            calls.append(call)
            items[custom_id] = {
                "run": self.run.pk,
                "stage": self.stage,
                "digest": prompt_digest(messages),
                "model": call.model,
                "task": job.task,
                "user": user_id,
            }
        try:
            sent = batch_submit(calls)
        except LlmError as exc:
            log.warning(
                "run %s %s: batch not sent, calling directly: %s", self.run.pk, self.stage, exc
            )
            details.setdefault("batches", {})[self.stage] = {
                "status": "not sent",
                "error": str(exc)[:500],
            }
            return jobs
        now = timezone.now()
        batch = LlmBatch.objects.create(
            kind=KIND, created_at=now, provider_batch_id=sent["id"], items=items
        )
        wait = {
            "stage": self.stage,
            "batch": batch.pk,
            "providerBatchId": sent["id"],
            "since": iso(now),
            "calls": len(calls),
        }
        details["batchWait"] = wait
        raise StageWaiting(wait)


_batching: ContextVar[StageBatching | None] = ContextVar("stage_batching", default=None)


@contextmanager
def batching(run: CycleRun, stage: str) -> Iterator[None]:
    """Batch mode for the calls of run `run`'s `stage` made in this thread."""
    token = _batching.set(StageBatching(run, stage))
    try:
        yield
    finally:
        _batching.reset(token)


def stage_batching(run_id: int | None, stage: str) -> StageBatching | None:
    found = _batching.get()
    if found is None or found.run.pk != run_id or found.stage != stage:
        return None
    return found
