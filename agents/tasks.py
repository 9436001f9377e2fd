"""Celery tasks of the agents app: thin, named, ids only."""

from celery import shared_task


@shared_task(name="agents.summarize_post", acks_late=True)
def summarize_post(post_id: int) -> str:
    from .summaries.service import summary_generate

    return summary_generate(post_id)
