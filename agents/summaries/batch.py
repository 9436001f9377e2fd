"""Post summaries in batch mode (STGY_AI_BATCH=on; agents/llm/batch.py).

Nobody waits on a summary, so in batch mode a post's commit and the sweep queue no
summary task for it (agents/summaries/pending.py, sweep.py): the beat task
agents.summary_batches runs `summary_batches_tick` every minute instead. It polls the
batches under way — each answer is parsed, embedded and stored exactly as a direct
call's would be (agents/summaries/service.py), against the content version that was
asked about — and then sends the posts still pending, up to
STGY_AI_SUMMARY_SWEEP_BATCH, as one new batch. Each post waits as a recorded state
(`PostSummary.batch`), never in a worker. A batch that cannot be sent, fails or expires,
and any answer missing from one, falls back to the direct path: the post's
summarize_post task, which calls the model at once.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from ..llm.batch import BatchCall, batch_enabled, batch_fetch, batch_submit
from ..llm.errors import LlmError
from ..models import LlmBatch, PostSummary
from ..runner import submit_task
from .service import summary_call, summary_failed, summary_from_answer, summary_store

log = logging.getLogger(__name__)
KIND = "summary"


def _custom_id(post_id: int) -> str:
    return f"post-{post_id}"


def _fall_back(post_ids: list[int]) -> None:
    """Summarise these posts with direct calls (their summarize_post tasks)."""
    from ..tasks import summarize_post

    PostSummary.objects.filter(post_id__in=post_ids).update(batch=None)
    for post_id in post_ids:
        submit_task(summarize_post, post_id)


def summaries_batch_submit(*, limit: int | None = None) -> LlmBatch | None:
    """Send the pending summaries that are in no batch yet as one batch; None when
    there were none. If the batch cannot be sent they fall back to direct calls."""
    limit = settings.STGY_AI_SUMMARY_SWEEP_BATCH if limit is None else limit
    rows = list(
        PostSummary.objects.filter(summary__isnull=True, batch__isnull=True)
        .select_related("post__owner")
        .order_by("attempts", "post_id")[:limit]
    )
    if not rows:
        return None
    calls = {
        _custom_id(row.post_id): BatchCall(_custom_id(row.post_id), summary_call(row.post))
        for row in rows
    }
    items = {
        _custom_id(row.post_id): {"post": row.post_id, "version": row.source_updated_at.isoformat()}
        for row in rows
    }
    try:
        sent = batch_submit(list(calls.values()))
    except LlmError as exc:
        log.warning(
            "summary batch of %d posts not sent, summarising them directly: %s", len(rows), exc
        )
        _fall_back([row.post_id for row in rows])
        return None
    batch = LlmBatch.objects.create(
        kind=KIND, created_at=timezone.now(), provider_batch_id=sent["id"], items=items
    )
    for row in rows:  # only the version asked about: an edit meanwhile made it pending anew
        PostSummary.objects.filter(
            post_id=row.post_id, source_updated_at=row.source_updated_at
        ).update(batch=batch)
    log.info("summary batch %s sent: %d posts", sent["id"], len(rows))
    return batch


def summaries_batch_poll(batch: LlmBatch) -> bool:
    """Read one batch; once it has ended store its answers, send the posts without one
    to the direct path and record the outcome. True when it has ended."""
    rows = {
        r.post_id: r for r in PostSummary.objects.filter(batch=batch).select_related("post__owner")
    }
    calls = {
        cid: BatchCall(cid, summary_call(rows[item["post"]].post))
        for cid, item in batch.items.items()
        if item["post"] in rows
    }
    try:
        result = batch_fetch(batch.provider_batch_id, calls)
    except LlmError as exc:
        log.warning(
            "summary batch %s not read (tried again next minute): %s", batch.provider_batch_id, exc
        )
        return False
    if result is None:
        return False
    fell_back = []
    for custom_id, item in batch.items.items():
        post_id, version = item["post"], datetime.fromisoformat(item["version"])
        row = rows.get(post_id)
        if row is None:
            continue  # edited (pending anew, in no batch) or deleted meanwhile
        answer = result.answers.get(custom_id)
        if answer is None:
            fell_back.append(post_id)
            continue
        try:
            summary_store(post_id, version, summary_from_answer(row.post, answer.content))
        except Exception as exc:  # noqa: BLE001 - one post's failure, recorded as the direct path records it
            summary_failed(post_id, version, exc)
    PostSummary.objects.filter(batch=batch).exclude(post_id__in=fell_back).update(batch=None)
    if fell_back:
        log.warning(
            "summary batch %s ended %s: %d posts summarised directly",
            batch.provider_batch_id,
            result.status,
            len(fell_back),
        )
        _fall_back(fell_back)
    batch.status = result.status
    batch.finished_at = timezone.now()
    batch.answered = len(result.answers)
    batch.fell_back = len(fell_back)
    batch.error = "; ".join(sorted(set(result.errors.values())))[:2000]
    batch.save(update_fields=["status", "finished_at", "answered", "fell_back", "error"])
    return True


def summary_batches_tick() -> dict[str, int]:
    """The beat task's work: poll the batches under way, then send the pending posts."""
    if not batch_enabled():
        return {"polled": 0, "ended": 0, "sent": 0}
    under_way = list(
        LlmBatch.objects.filter(kind=KIND, status=LlmBatch.Status.SUBMITTED).order_by("created_at")
    )
    ended = sum(summaries_batch_poll(batch) for batch in under_way)
    # A batch the provider lost track of still ends: after its window and a day's grace
    # its posts go to the direct path.
    stale = timezone.now() - timedelta(days=2)
    for batch in LlmBatch.objects.filter(
        kind=KIND, status=LlmBatch.Status.SUBMITTED, created_at__lt=stale
    ):
        posts = [item["post"] for item in batch.items.values()]
        _fall_back(
            list(
                PostSummary.objects.filter(batch=batch, post_id__in=posts).values_list(
                    "post_id", flat=True
                )
            )
        )
        LlmBatch.objects.filter(pk=batch.pk).update(
            status=LlmBatch.Status.EXPIRED,
            finished_at=timezone.now(),
            fell_back=len(posts),
            error="never ended",
        )
    sent = summaries_batch_submit()
    return {"polled": len(under_way), "ended": ended, "sent": len(sent.items) if sent else 0}
