"""Marking a post's summary pending and enqueueing its summarisation."""

from __future__ import annotations

import logging

from django.conf import settings

from ..models import AiPostTag, PostSummary
from ..runner import submit_task

log = logging.getLogger(__name__)


def summary_mark_pending(post, *, created: bool) -> None:
    """Called inside the post's transaction. On edit the summary and AI tags go, the old
    vector and hashes stay until the new summary replaces them (docs/data-model.md §7)."""
    if created:
        PostSummary.objects.create(post=post, source_updated_at=post.created_at)
        return
    updated = PostSummary.objects.filter(post=post).update(
        summary=None, source_updated_at=post.updated_at, attempts=0, last_error=""
    )
    if not updated:
        PostSummary.objects.create(post=post, source_updated_at=post.updated_at)
    AiPostTag.objects.filter(post=post).delete()


def summary_enqueue(post_id: int) -> None:
    """After commit. AI off -> nothing to do; a dead broker must not fail the request
    that wrote the post: the periodic sweep picks the post up later."""
    if settings.STGY_AI_PROVIDER == "none":
        return
    from ..tasks import summarize_post

    submit_task(summarize_post, post_id)
