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
    chain(*(cycle_stage.si(run.pk, stage) for stage in STAGES), cycle_finish.si(run.pk)).apply_async()
    return run.pk


@shared_task(name="agents.cycle_stage", **_TASK_OPTIONS)
def cycle_stage(*args) -> dict:
    """(run_id, stage). A message queued before tasks carried ids only also has the
    previous stage's result in front; it is dropped, so a chain under way at a deploy
    goes on (a reading stage's record it carried is lost, as when its worker dies)."""
    from .run import stage_execute

    run_id, stage = args[-2:]
    return {"outcome": stage_execute(run_id, stage)["outcome"]}


@shared_task(name="agents.cycle_finish", **_TASK_OPTIONS)
def cycle_finish(run_id: int) -> str:
    from .run import cycle_end

    return cycle_end(run_id).status
