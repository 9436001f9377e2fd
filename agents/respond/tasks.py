"""The respond task: thin, named, ids only.

acks_late with reject-on-worker-lost, like the stage tasks: a run whose worker dies is
delivered again, which is safe because the answer carries a key derived from the event
and is written in one transaction with the event's new status.
"""

from __future__ import annotations

from celery import shared_task


@shared_task(name="agents.respond", acks_late=True, reject_on_worker_lost=True)
def respond(user_id: int) -> int | None:
    from .run import respond_run

    run = respond_run(user_id)
    return run.pk if run is not None else None


@shared_task(name="agents.sweep_respond")
def sweep_respond() -> int:
    from .sweep import respond_sweep

    return respond_sweep()
