"""One respond run of an AI user: take the lease, claim the owed events, and for each
one gates → one model call → the answer; every step on the run record.

The model call is made outside any transaction; the write re-checks in its own short
transaction (agents/respond/write.py). A run that finds nothing owed writes no record.
"""

from __future__ import annotations

import logging
import time
from decimal import Decimal
from typing import Any

from django.utils import timezone

from agents.models import AttentionEvent, CycleRun, Interest
from agents.rate_limits import HourlyWrites
from agents.runs import inputs, knowledge
from agents.runs.lease import respond_lease_claim, respond_lease_held, respond_lease_release
from agents.runs.llm_calls import run_job
from agents.runs.near_duplicate import RecentWrites
from agents.runs.owed import events_owed, respond_enqueue
from sns.core.errors import DomainError
from sns.core.ids import id_to_hex
from sns.models import User
from sns.selectors.boundaries import ai_memory_refused

from .events import event_close, events_claim
from .facts import EventFacts, facts_gather
from .facts_message import MessageFacts, message_facts_gather
from .gates import GATES, GateInput, gates_check
from .gates_message import MESSAGE_GATES
from .prompt_input import message_job, respond_job
from .stop import matcher_detection, stop_handle
from .write import answer_write, message_answer_write

log = logging.getLogger(__name__)
STAGE = "respond"
Status = AttentionEvent.Status


def respond_run(user_id: int) -> CycleRun | None:
    """Answer what the AI user owes; None if nothing is owed or another respond run of
    the user holds the lease (that run enqueues a follow-up for what it leaves)."""
    if not events_owed(user_id) or respond_lease_held(user_id):
        return None
    ai = User.objects.select_related("ai_interest").filter(pk=user_id).first()
    if ai is None:
        return None
    run = CycleRun.objects.create(user=ai, kind=CycleRun.Kind.RESPOND, started_at=timezone.now(), details={"events": []})
    if not respond_lease_claim(ai.id, run.pk):
        run.delete()
        return None
    started = time.monotonic()
    stage: dict[str, Any] = {"outcome": "ok"}
    try:
        events = events_claim(ai.id, run.pk)
        run.details["events"] = _handle(ai, run, events)
    except Exception as exc:  # the run is recorded whatever happens; its events are closed
        log.warning("respond run %s of %s failed: %s", run.pk, user_id, exc, exc_info=True)
        stage = {"outcome": "failed", "error": f"{type(exc).__name__}: {exc}"[:2000]}
        AttentionEvent.objects.filter(run_id=run.pk, status=Status.CLAIMED).update(
            status=Status.FAILED, handled_at=timezone.now(), outcome=f"run failed: {stage['error']}"[:500]
        )
    stage["ms"] = int((time.monotonic() - started) * 1000)
    _finish(run, stage)
    respond_lease_release(ai.id, run.pk)
    # Events recorded while this run held the lease found it taken; answer them now.
    if events_owed(ai.id):
        respond_enqueue(ai.id)
    return run


def _handle(ai: User, run: CycleRun, events: list[AttentionEvent]) -> list[dict[str, Any]]:
    if not events:
        return []
    try:
        interest = ai.ai_interest
    except Interest.DoesNotExist:
        interest = None
    profile = inputs.profile_excerpt(ai, interest)
    counts = HourlyWrites.load(ai.id)
    recent = RecentWrites(ai.id)  # read at the first answer to check (near-duplicates)
    records = []
    posts = iter(facts_gather(ai, [e for e in events if e.kind != AttentionEvent.Kind.MESSAGE]))
    # In the claimed order; message events gather their facts one by one.
    gathered = [message_facts_gather(ai, e) if e.kind == AttentionEvent.Kind.MESSAGE else next(posts) for e in events]
    for facts in gathered:
        try:
            record = _handle_one(ai, run, facts, counts, profile, recent)
        except Exception as exc:  # one event's failure is that event's
            log.warning("respond event %s failed: %s", facts.event.pk, exc, exc_info=True)
            record = _record(facts)
            _close(record, facts.event, Status.FAILED, f"{type(exc).__name__}: {exc}")
        records.append(record)
    return records


def _record(facts: EventFacts | MessageFacts) -> dict[str, Any]:
    event = facts.event
    record = {"eventId": event.pk, "kind": event.kind}
    if event.kind == AttentionEvent.Kind.MESSAGE:
        record["messageId"] = id_to_hex(event.message_id) if event.message_id is not None else None
    else:
        record["postId"] = id_to_hex(event.post_id) if event.post_id is not None else None
    record["sender"] = {"id": id_to_hex(event.sender_id), "nickname": event.sender.nickname}
    if ai_memory_refused(event.sender):
        # An answer is still written; no impression text and no relationship are kept.
        record["notRemembered"] = True
    record["gates"] = []
    return record


def _close(record: dict, event: AttentionEvent, status: str, why: str) -> None:
    event_close(event, status, why)
    record["result"], record["reason"] = status, why


def _handle_one(
    ai: User, run: CycleRun, facts: EventFacts, counts: HourlyWrites, profile: dict, recent: RecentWrites
) -> dict[str, Any]:
    record = _record(facts)
    event = facts.event
    is_message = isinstance(facts, MessageFacts)
    gates = MESSAGE_GATES if is_message else GATES
    refusal = gates_check(GateInput(ai=ai, facts=facts, counts=counts), record["gates"], gates)
    # Words asking the AI user to stop: the stop, and at most one fixed acknowledgement.
    detection = matcher_detection(facts)
    if detection is not None:
        return _counted(stop_handle(ai, run, facts, detection, record, refusal=refusal), counts, event)
    if refusal is not None:
        _close(record, event, Status.REFUSED, refusal)
        return record

    job = (message_job if is_message else respond_job)(ai, facts, run_id=run.pk)
    usage = run_job(job, profile=profile, tier=ai.ai_model, user_id=ai.id, run_id=run.pk, stage=STAGE)
    record["llm"] = _call_record(job, usage)
    if job.result is None:
        _close(record, event, Status.FAILED, f"model: {job.error}")
        return record
    if not is_message:
        knowledge.revise_drafts([job], ai, profile=profile, tier=ai.ai_model, run_id=run.pk, stage=STAGE)
        record.update(job.extra)
    if job.result.get("stop"):
        # The model read a request to stop that the matcher did not catch.
        return _counted(stop_handle(ai, run, facts, {"detectedBy": "model"}, record, refusal=None), counts, event)
    if not job.result["answer"]:
        ignored = is_message and facts.is_request
        why = "model: ignored the message request (left in Requests)" if ignored else "model: chose not to answer"
        _close(record, event, Status.REFUSED, why)
        return record
    why = recent.refusal(job.result["content"], run_id=run.pk, stage=STAGE)
    if why is not None:
        _close(record, event, Status.REFUSED, f"near_duplicate: {why}")
        return record
    if is_message:
        return _write_message(ai, run, facts, job, counts, record, recent)
    try:
        reply = answer_write(ai, event, facts.post, job.result, run)
    except DomainError as exc:
        _close(record, event, Status.REFUSED, f"write refused: {exc.message}")
        return record
    if reply is None:
        _close(record, event, Status.REFUSED, "not_answered: the AI user replied to the post meanwhile")
        return record
    counts.count("reply")
    recent.add(f"p{reply.id}", reply.content)
    record["result"], record["replyId"] = Status.ANSWERED, reply.hex_id
    return record


def _counted(record: dict, counts: HourlyWrites, event: AttentionEvent) -> dict:
    """An acknowledgement written counts against the hourly limits as any answer."""
    if record.get("answerMessageId"):
        counts.count("message", to=event.sender_id)
    elif record.get("replyId"):
        counts.count("reply")
    return record


def _write_message(
    ai: User, run: CycleRun, facts: MessageFacts, job, counts: HourlyWrites, record: dict, recent: RecentWrites
) -> dict:
    event = facts.event
    try:
        answer = message_answer_write(ai, event, facts, job.result, run)
    except DomainError as exc:
        _close(record, event, Status.REFUSED, f"write refused: {exc.message}")
        return record
    if answer is None:
        _close(record, event, Status.REFUSED, "not_answered: the AI user wrote in the conversation meanwhile")
        return record
    counts.count("message", to=event.sender_id)
    recent.add(f"m{answer.id}", answer.content)
    record["result"], record["answerMessageId"] = Status.ANSWERED, answer.hex_id
    if facts.is_request:
        record["request"] = "accepted"
    return record


def _call_record(job, usage: list) -> dict[str, Any]:
    call: dict[str, Any] = {"task": job.task, "maxChars": job.max_chars, "promptChars": job.prompt_chars}
    if usage:
        row = usage[-1]
        call.update(
            usageId=row.pk, model=row.model, outcome=row.outcome, promptTokens=row.prompt_tokens,
            completionTokens=row.completion_tokens, cachedTokens=row.cached_tokens, latencyMs=row.latency_ms,
            cost=str(row.cost),
        )
    if job.error:
        call["error"] = job.error
    return call


def _finish(run: CycleRun, stage: dict[str, Any]) -> None:
    calls = [r.get("llm") for r in run.details.get("events", []) if r.get("llm")]
    run.stages = {STAGE: stage}
    run.llm_calls = len(calls)
    run.prompt_tokens = sum(c.get("promptTokens", 0) for c in calls)
    run.completion_tokens = sum(c.get("completionTokens", 0) for c in calls)
    run.cached_tokens = sum(c.get("cachedTokens", 0) for c in calls)
    run.cost = sum((Decimal(c.get("cost", "0")) for c in calls), start=Decimal(0))
    run.finished_at = timezone.now()
    run.elapsed_ms = int((run.finished_at - run.started_at).total_seconds() * 1000)
    run.status = CycleRun.Status.FAILED if stage["outcome"] == "failed" else CycleRun.Status.DONE
    run.save(update_fields=[
        "stages", "details", "llm_calls", "prompt_tokens", "completion_tokens", "cached_tokens", "cost",
        "finished_at", "elapsed_ms", "status",
    ])
