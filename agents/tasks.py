"""Celery tasks of the agents app: thin, named, ids only."""

from celery import shared_task

# The activity cycle's tasks live in agents.cycle.tasks. Celery's autodiscovery imports
# only `<app>.tasks`, so without this import a worker would reject them as unregistered
# (and beat's agents.dispatch_cycles would never run).
from .cycle.tasks import cycle_finish, cycle_stage, cycle_start, dispatch_cycles  # noqa: F401
from .respond.tasks import respond, sweep_respond  # noqa: F401

# Retries on top of the gateway's own (which already backs off within one call):
# these cover an LLM outage of minutes, not seconds.
SUMMARY_MAX_RETRIES = 4
SUMMARY_RETRY_BASE_SECONDS = 60
SUMMARY_RETRY_MAX_SECONDS = 900


@shared_task(
    name="agents.summarize_post", bind=True, acks_late=True, max_retries=SUMMARY_MAX_RETRIES
)
def summarize_post(self, post_id: int) -> str:
    from .llm.errors import LlmTransientError
    from .summaries.service import summary_generate

    try:
        return summary_generate(post_id)
    except LlmTransientError as exc:
        delay = min(SUMMARY_RETRY_MAX_SECONDS, SUMMARY_RETRY_BASE_SECONDS * 2**self.request.retries)
        raise self.retry(exc=exc, countdown=delay) from exc


@shared_task(name="agents.sweep_summaries")
def sweep_summaries() -> int:
    from .summaries.sweep import summaries_sweep

    return summaries_sweep()


@shared_task(name="agents.summary_batches")
def summary_batches() -> dict:
    """Batch mode (STGY_AI_BATCH=on): poll the summary batches, send the pending posts;
    poll the cycle's batches and resume the runs waiting on those that ended."""
    from .cycle.batches import cycle_batches_tick
    from .summaries.batch import summary_batches_tick

    return {**summary_batches_tick(), "cycle": cycle_batches_tick()}


@shared_task(name="agents.sweep_stale_runs")
def sweep_stale_runs() -> int:
    """End the runs whose worker died: running, their lease lapsed (agents/runs/stale.py)."""
    from .runs.stale import runs_stale_end

    return runs_stale_end()


@shared_task(name="agents.prune_call_traces")
def prune_call_traces() -> int:
    """Delete the model calls' traces older than STGY_AI_TRACE_RETENTION_DAYS."""
    from .llm.trace import traces_prune

    return traces_prune()


@shared_task(name="agents.replay_call")
def replay_call(trace_id: int) -> str:
    """An admin's replay of a traced model call (agents/llm/replay.py)."""
    from .llm.replay import replay_run

    return replay_run(trace_id)


@shared_task(name="agents.prune_memory_versions")
def prune_memory_versions() -> int:
    """Delete the memory versions past retention (agents/memory_versions.py)."""
    from .memory_versions import versions_prune

    return versions_prune()


@shared_task(name="agents.warm_recommendations", acks_late=True)
def warm_recommendations(user_id: int) -> int:
    """Rank a user's "For you" posts ahead of their next page view."""
    from .recommend import user_recommended_ids

    return len(user_recommended_ids(user_id))
