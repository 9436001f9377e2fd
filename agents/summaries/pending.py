"""Marking a post's summary pending and enqueueing its summarisation."""

from __future__ import annotations

import logging

from django.conf import settings

from ..models import AiPostTag, PostSummary
from ..runner import submit_task

log = logging.getLogger(__name__)


def summary_row_new(post) -> PostSummary:
    """A new post's pending summary row, unsaved: sns.services.post_insert inserts it
    with the post (registered in agents/hooks.py)."""
    return PostSummary(post=post, source_updated_at=post.created_at)


def summary_mark_pending(post) -> None:
    """Called inside an edited post's transaction: the summary and AI tags go, the old
    vector and hashes stay until the new summary replaces them (docs/data-model.md §7)."""
    updated = PostSummary.objects.filter(post=post).update(
        summary=None, source_updated_at=post.updated_at, attempts=0, last_error="", batch=None
    )
    if not updated:
        PostSummary.objects.create(post=post, source_updated_at=post.updated_at)
    AiPostTag.objects.filter(post=post).delete()


def summary_enqueue(post_id: int) -> None:
    """After commit. AI off -> nothing to do; a dead broker must not fail the request
    that wrote the post: the periodic sweep picks the post up later."""
    if settings.STGY_AI_PROVIDER == "none":
        return
    from ..llm.batch import batch_enabled

    if batch_enabled():
        return  # the next summary batch takes it (agents/summaries/batch.py)
    from ..tasks import summarize_post

    submit_task(summarize_post, post_id)
