"""Celery tasks of the activity cycle: thin, named, ids only — and the record a
reading stage leaves for the next stage's read to save, passed on as the chain
passes a task's result to the next task (agents/cycle/run.py `stage_execute_chained`).

acks_late with reject-on-worker-lost: a stage whose worker dies is delivered again,
which is safe because every stage is idempotent (unique constraints, per-run keys
on generated posts, and stage outcomes recorded on the run).
"""

from __future__ import annotations

from celery import chain, shared_task

from . import STAGES

_TASK_OPTIONS = dict(acks_late=True, reject_on_worker_lost=True)


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
    first, *others = STAGES
    steps = [cycle_stage.si(run.pk, first), *(cycle_stage.s(run.pk, stage) for stage in others),
             cycle_finish.si(run.pk)]
    chain(*steps).apply_async()
    return run.pk


@shared_task(name="agents.cycle_stage", **_TASK_OPTIONS)
def cycle_stage(*args) -> dict:
    """(run_id, stage) for the first stage; (the previous stage's result, run_id, stage)
    for the others, as the chain passes it on. The result: the outcome, and the record
    the next stage saves (None when saved)."""
    from .run import stage_execute_chained

    previous, (run_id, stage) = (args[0], args[1:]) if len(args) == 3 else (None, args)
    # A result of the tasks before this one (an outcome string) carries no record.
    carried = previous.get("unsaved") if isinstance(previous, dict) else None
    record, unsaved = stage_execute_chained(run_id, stage, carried)
    return {"outcome": record["outcome"], "unsaved": unsaved}


@shared_task(name="agents.cycle_finish", **_TASK_OPTIONS)
def cycle_finish(run_id: int) -> str:
    from .run import cycle_end

    return cycle_end(run_id).status
