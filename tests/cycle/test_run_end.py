"""The end of a run: its usage totals, status, missing stages, elapsed time and the
lease's release, the same whether it is one statement (PostgreSQL,
agents/cycle/run_end.py) or a read and a save (elsewhere)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.utils import timezone

from agents.cycle import STAGES
from agents.cycle.run import cycle_begin, cycle_end
from agents.models import AgentState, CycleRun, LlmUsage

pytestmark = pytest.mark.django_db


def use(run, prompt, completion, cached, cost):
    LlmUsage.objects.create(
        created_at=timezone.now(), user_id=run.user_id, run=run, provider="offline", model="m", outcome="ok",
        prompt_tokens=prompt, completion_tokens=completion, cached_tokens=cached, cost=Decimal(cost),
    )


def test_a_run_with_stages_missing_ends_failed_and_names_them_in_order(ai_user):
    run = cycle_begin(ai_user.id)
    done = {STAGES[0]: {"outcome": "ok", "ms": 1}, STAGES[3]: {"outcome": "failed", "error": "x", "ms": 2}}
    CycleRun.objects.filter(pk=run.pk).update(stages=done, details={**run.details, "zebra": 1, "a": [1, 2]})
    use(run, 10, 2, 1, "0.001500")
    use(run, 5, 3, 0, "0.000250")
    LlmUsage.objects.create(created_at=timezone.now(), user_id=run.user_id, provider="offline", model="m",
                            outcome="ok", prompt_tokens=1000)  # another run's: not counted

    ended = cycle_end(run.pk)

    missing = [stage for stage in STAGES if stage not in done]
    assert ended.status == CycleRun.Status.FAILED
    # The stored details, then the missing stages last, as the record prints them.
    assert list(ended.details)[-1] == "missingStages"
    assert ended.details["missingStages"] == missing
    assert ended.details["zebra"] == 1 and ended.details["a"] == [1, 2]
    assert ended.stages == done
    assert (ended.llm_calls, ended.prompt_tokens, ended.completion_tokens, ended.cached_tokens) == (2, 15, 5, 1)
    assert ended.cost == Decimal("0.001750")
    assert ended.elapsed_ms == int((ended.finished_at - ended.started_at).total_seconds() * 1000)
    assert ended.user.nickname == ai_user.nickname and ended.user.ai_model == ai_user.ai_model
    stored = CycleRun.objects.get(pk=run.pk)
    for name in ("status", "stages", "details", "llm_calls", "prompt_tokens", "completion_tokens",
                 "cached_tokens", "cost", "finished_at", "elapsed_ms", "started_at"):
        assert getattr(stored, name) == getattr(ended, name), name
    assert AgentState.objects.get(user=ai_user).lease_run is None


def test_a_run_with_every_stage_ends_done_with_zero_totals_when_nothing_was_called(ai_user):
    run = cycle_begin(ai_user.id)
    stages = {stage: {"outcome": "skipped", "skipped": "why", "ms": 0} for stage in STAGES}
    CycleRun.objects.filter(pk=run.pk).update(stages=stages)

    ended = cycle_end(run.pk)

    assert ended.status == CycleRun.Status.DONE
    assert "missingStages" not in ended.details
    assert ended.details == run.details
    assert (ended.llm_calls, ended.prompt_tokens, ended.completion_tokens, ended.cached_tokens) == (0, 0, 0, 0)
    assert ended.cost == 0
    stored = CycleRun.objects.get(pk=run.pk)
    assert (stored.status, stored.details, stored.llm_calls, stored.cost) == (ended.status, ended.details, 0, 0)
    state = AgentState.objects.get(user=ai_user)
    assert state.lease_run is None and state.lease_until is None


def test_ending_a_missing_run_raises_does_not_exist(ai_user):
    with pytest.raises(CycleRun.DoesNotExist):
        cycle_end(987654321)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the one-statement end is PostgreSQL's")
@pytest.mark.parametrize("micros", [0, 1, 999, 1_001_000, 1_003_000, 1_234_567, 86_400_123_456])
def test_elapsed_ms_is_truncated_as_python_truncates_float_seconds(ai_user, micros):
    # 1.001 s is 1000 ms in Python (1.001 * 1000 < 1001 in floats); exact arithmetic would say 1001.
    from agents.cycle.run_end import run_end_postgresql

    started = timezone.now().replace(microsecond=0)
    run = CycleRun.objects.create(user=ai_user, started_at=started)
    finished = started + timedelta(microseconds=micros)
    ended = run_end_postgresql(run.pk, finished)
    assert ended.elapsed_ms == int((finished - started).total_seconds() * 1000)
    assert CycleRun.objects.get(pk=run.pk).elapsed_ms == ended.elapsed_ms
