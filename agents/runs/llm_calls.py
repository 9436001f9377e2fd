"""One LLM job of a stage: render the prompt, call the gateway, parse the answer.

Jobs of one stage run concurrently (bounded by STGY_AI_USER_STAGE_CONCURRENCY) so a
cycle's wall time grows with its stages, not with its calls. A job never touches
social rows; it returns a parsed dict or the error, and the stage writes afterwards.

While the model's circuit breaker is open a stage with jobs fails as a whole, at once,
rather than recording one refused call per item as if each item had its own problem.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connections

from agents.llm import gateway
from agents.llm.breaker import BreakerRead, breaker_is_open, breaker_read
from agents.llm.errors import LlmUnavailable
from agents.llm.parsing import ModelOutputError
from agents.llm.usage import usage_rows_save
from agents.models import LlmUsage
from agents.prompts import agent_prompt, is_cjk

from .batched import stage_batching
from .usage_held import usage_held


@dataclass
class LlmJob:
    key: Any
    task: str
    locale: str
    payload: dict[str, Any]
    max_chars: int
    tag_num: int
    parse: Callable[[str], dict[str, Any]]
    result: dict[str, Any] | None = None
    error: str | None = None
    unavailable: bool = False  # refused by the open circuit breaker
    unusable: bool = False  # the model answered, but nothing of the answer could be parsed
    prompt_chars: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def scaled(locale: str, base: float) -> int:
    """CJK locales get half the length (ceil), as the original's prompts do."""
    return math.ceil(base * 0.5) if is_cjk(locale) else int(base)


def tag_chars(locale: str) -> int:
    return scaled(locale, settings.STGY_AI_TAG_MAX_LENGTH)


def fluctuated_length(rng: random.Random, base: int, locale: str, step: int) -> int:
    """Log-uniform length in [base/R, base·R), halved for CJK, rounded half-up to `step`."""
    ratio = settings.STGY_AI_USER_POST_LENGTH_FLUCTUATION_RATIO
    value = base * math.exp((2 * rng.random() - 1) * math.log(ratio))
    if is_cjk(locale):
        value *= 0.5
    return int(math.floor(value / step + 0.5) * step)


def _run_job(
    job: LlmJob, *, profile: dict, tier: str, user_id: int, run_id: int, stage: str, usage: list | None = None,
    breaker: BreakerRead | None = None,
) -> None:
    try:
        prompt = job_prompt(job, profile)
        response = gateway.chat(
            messages=prompt.messages,
            spans=prompt.spans,
            tier=tier,
            task=job.task,
            locale=job.locale,
            json_mode=True,
            inputs={"profile": profile, "payload": job.payload, "max_chars": job.max_chars, "tag_num": job.tag_num},
            user_id=user_id,
            run_id=run_id,
            stage=stage,
            usage_sink=usage,
            breaker=breaker,
        )
        job.result = job.parse(response.content)
    except Exception as exc:  # noqa: BLE001 - one job's failure is that item's failure, never the stage's
        job.error = f"{type(exc).__name__}: {exc}"
        job.unavailable = isinstance(exc, LlmUnavailable)
        job.unusable = isinstance(exc, ModelOutputError)


def job_prompt(job: LlmJob, profile: dict):
    """The job's prompt (messages and their layers), as sent directly or in a batch
    (agents/runs/batched.py)."""
    prompt = agent_prompt(
        job.task,
        locale=job.locale,
        profile=profile,
        payload=job.payload,
        max_chars=job.max_chars,
        tag_chars=tag_chars(job.locale),
        tag_num=job.tag_num,
    )
    job.prompt_chars = sum(len(m["content"]) for m in prompt.messages)
    return prompt


def job_answer(job: LlmJob, content: str) -> None:
    """A batched answer taken as `_run_job` takes a direct one."""
    try:
        job.result = job.parse(content)
    except Exception as exc:  # noqa: BLE001 - that item's failure, as for a direct answer
        job.error = f"{type(exc).__name__}: {exc}"
        job.unusable = isinstance(exc, ModelOutputError)


def run_job(job: LlmJob, *, profile: dict, tier: str, user_id: int, run_id: int, stage: str) -> list[LlmUsage]:
    """One job on this thread; returns its usage rows, saved (the caller records the
    call's tokens and latency beside its outcome)."""
    held = usage_held(run_id, stage)
    usage: list = []
    try:
        _run_job(job, profile=profile, tier=tier, user_id=user_id, run_id=run_id, stage=stage, usage=usage)
    finally:
        if held is not None:
            held.extend(usage)  # saved with the stage's record (agents/cycle/usage_held.py)
        else:
            usage_rows_save(usage)
    return usage


def run_jobs(jobs: list[LlmJob], *, profile: dict, tier: str, user_id: int, run_id: int, stage: str) -> list[LlmJob]:
    """Run the jobs. Raises LlmUnavailable, failing the stage, if the breaker is open
    before they start, or if none succeeded and the breaker refused some of them. The
    breaker's state read for that check admits the jobs too while it is fresh
    (`agents.llm.breaker.READ_REUSE_SECONDS`): one cache read a stage, not one a call."""
    if not jobs:
        return jobs
    read = breaker_read()
    if breaker_is_open(read):
        raise LlmUnavailable("ai service is unavailable (circuit breaker open); stage not run")
    direct = jobs
    batching = stage_batching(run_id, stage)
    if batching is not None:  # a judging stage in batch mode: raises StageWaiting once sent
        direct = batching.answer(jobs, profile=profile, tier=tier, user_id=user_id)
    _run_all(direct, profile=profile, tier=tier, user_id=user_id, run_id=run_id, stage=stage, breaker=read)
    if any(job.unavailable for job in jobs) and all(job.result is None for job in jobs):
        raise LlmUnavailable("ai service is unavailable (circuit breaker opened during the stage)")
    return jobs


def _run_all(
    jobs: list[LlmJob], *, profile: dict, tier: str, user_id: int, run_id: int, stage: str,
    breaker: BreakerRead | None = None,
) -> list[LlmJob]:
    bound = max(1, int(settings.STGY_AI_USER_STAGE_CONCURRENCY))
    kwargs = {
        "profile": profile, "tier": tier, "user_id": user_id, "run_id": run_id, "stage": stage, "breaker": breaker,
    }
    held = usage_held(run_id, stage)
    if len(jobs) <= 1 and held is None:
        for job in jobs:
            _run_job(job, **kwargs)
        return jobs
    # The jobs leave their usage rows here and this thread writes them all in one
    # statement after the last call (a job thread would otherwise open a database
    # connection just for its row) — or, in a stage, the stage's record saves them
    # (agents/cycle/usage_held.py). The budget check before each call therefore does
    # not see the stage's own earlier calls: a soft limit, as budget.py says.
    usage: list = held if held is not None else []

    def save() -> None:
        if held is None:
            usage_rows_save(usage)

    if bound == 1 or len(jobs) <= 1:
        try:
            for job in jobs:
                _run_job(job, **kwargs, usage=usage)
        finally:
            save()
        return jobs

    def worker(job: LlmJob) -> None:
        try:
            _run_job(job, **kwargs, usage=usage)
        finally:
            # A thread that did touch the database (a budget check) gives its connection back.
            connections.close_all()

    try:
        with ThreadPoolExecutor(max_workers=min(bound, len(jobs)), thread_name_prefix=f"stgy-{stage}") as pool:
            list(pool.map(worker, jobs))
    finally:
        save()
    return jobs
