"""The periodic safety net of the summary queue (docs/differences.md item 8).

Posts are queued on commit, but a broker outage, a worker killed mid-task or a change
of embedding model leaves summaries missing or stale. Celery beat runs the sweep, which
queues a bounded batch of them, oldest first. Posts that already failed come after fresh
ones (ordered by attempts), so a post the model cannot summarise never blocks the queue.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from ..embeddings import model_name
from ..llm import gateway
from ..llm.batch import batch_enabled
from ..models import PostSummary
from ..runner import submit_task

log = logging.getLogger(__name__)


def summaries_due(*, changed_before=None) -> QuerySet[PostSummary]:
    """Rows whose summary is pending or whose vector is from another embedding model."""
    qs = PostSummary.objects.filter(Q(summary__isnull=True) | ~Q(embedding_model=model_name()))
    if changed_before is not None:
        qs = qs.filter(source_updated_at__lte=changed_before)
    return qs.order_by("attempts", "post_id")


def summaries_sweep(*, batch: int | None = None, min_age_seconds: int | None = None) -> int:
    """Queue up to `batch` due summaries; returns how many were queued.

    Posts written in the last `min_age_seconds` are left to the task their own commit
    queued, so a healthy system never summarises a post twice. While the model is down
    (its circuit breaker open) nothing is queued: every task would only fail fast.
    """
    if not gateway.ai_enabled():
        return 0
    if not gateway.model_ready():
        log.info("summary sweep skipped: the ai service is unavailable")
        return 0
    from ..tasks import summarize_post

    batch = settings.STGY_AI_SUMMARY_SWEEP_BATCH if batch is None else batch
    age = (
        settings.STGY_AI_SUMMARY_SWEEP_MIN_AGE_SECONDS
        if min_age_seconds is None
        else min_age_seconds
    )
    cutoff = timezone.now() - timedelta(seconds=max(0, age))
    due = summaries_due(changed_before=cutoff)
    if batch_enabled():
        # Pending summaries go in batches (agents/summaries/batch.py); only vectors of
        # another embedding model, which need no model call, are redone here.
        due = due.filter(summary__isnull=False)
    post_ids = list(due.values_list("post_id", flat=True)[:batch])
    for post_id in post_ids:
        submit_task(summarize_post, post_id)
    return len(post_ids)
