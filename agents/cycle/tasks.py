"""Celery tasks of the activity cycle: thin, named, ids only (docs/architecture.md §6).

acks_late with reject-on-worker-lost: a stage whose worker dies is delivered again,
which is safe because every stage is idempotent (unique constraints, per-run keys
on generated posts, and stage outcomes recorded on the run).
"""

from __future__ import annotations

from celery import chain, shared_task

from . import STAGES

_TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True}


@shared_task(name="agents.dispatch_cycles", **_TASK_OPTIONS)
def dispatch_cycles() -> int:
    from .schedule import due_user_ids

    user_ids = due_user_ids()
    for user_id in user_ids:
        cycle_start.delay(user_id)
    return len(user_ids)


@shared_task(name="agents.cycle_start", **_TASK_OPTIONS)
def cycle_start(user_id: int) -> int | None:
    from .run import cycle_begin

    run = cycle_begin(user_id)
    if run is None:
        return None
    stages_send(run.pk, STAGES[0])
    return run.pk


def stages_send(run_id: int, first: str) -> None:
    """The run's chain from stage `first` to its end. Tasks run in this process (the
    embedded mode, tests) run the stages one after another here, stopping where one
    waits on a batch: an eager chain would run on past it."""
    stages = STAGES[STAGES.index(first):]
    if not cycle_stage.app.conf.task_always_eager:
        chain(*(cycle_stage.si(run_id, stage) for stage in stages), cycle_finish.si(run_id)).apply_async()
        return
    for stage in stages:
        result = cycle_stage.apply(args=(run_id, stage)).result  # not .get(): this may be a task
        if isinstance(result, dict) and result.get("outcome") == "waiting":
            return
    cycle_finish.apply(args=(run_id,))


@shared_task(name="agents.cycle_resume", **_TASK_OPTIONS)
def cycle_resume(run_id: int, stage: str) -> None:
    """The chain of a run that waited on a batch, again from the stage that waited
    (agents/cycle/batches.py)."""
    stages_send(run_id, stage)


@shared_task(name="agents.cycle_stage", bind=True, **_TASK_OPTIONS)
def cycle_stage(self, *args) -> dict:
    """(run_id, stage). A message queued before tasks carried ids only also has the
    previous stage's result in front; it is dropped, so a chain under way at a deploy
    goes on (a reading stage's record it carried is lost, as when its worker dies).
    A stage waiting on a batch ends the chain here; the batch's poll starts it again."""
    from agents.llm.batch import batch_enabled

    from .run import stage_execute

    run_id, stage = args[-2:]
    outcome = stage_execute(run_id, stage, batch=batch_enabled())["outcome"]
    if outcome == "waiting":
        self.request.chain = None  # the rest of the chain is not sent
    return {"outcome": outcome}


@shared_task(name="agents.cycle_finish", **_TASK_OPTIONS)
def cycle_finish(run_id: int) -> str:
    from .run import cycle_end

    return cycle_end(run_id).status
