"""The cycle's judging stages in batch mode (agents/runs/batched.py, agents/cycle/batches.py)
through the local OpenAI-compatible server's batch endpoints: the run waits as a
recorded state and the batches' poll takes the chain on to the end; a failed or
expired batch, or one that cannot be sent, falls back to direct calls; the stale-run
sweep leaves a waiting run alone unless its batch is gone. The same through a real
worker: tests/integration/test_cycle_batch_worker.py."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from agents.cycle.tasks import cycle_start
from agents.models import AgentState, CycleRun, LlmBatch, LlmUsage, PeerImpression, PostImpression
from agents.runs.stale import runs_stale_end
from agents.tasks import summary_batches
from sns.models import Post
from tests.factories import make_user

from .helpers import answer, make_site

pytestmark = pytest.mark.django_db

JUDGING = {"post-impressions", "peer-impressions", "interest"}


@pytest.fixture
def batch_mode(settings, model_server):
    settings.STGY_AI_BATCH = "on"
    for i in range(40):  # in a batch or directly, each call takes the next answer
        # Each text its own, as a model's: the near-duplicate check refuses a repeat
        # (tests/cycle/helpers.py push_answers).
        content = f"Note {i + 1}: lovely point about the starter; how warm do you keep it?"
        model_server.push_chat(answer(content=content), prompt_tokens=1000, completion_tokens=100)
    return model_server


def _cycle_lines(server) -> list[dict]:
    return [line for line in server.batch_lines() if line["custom_id"].startswith("run-")]


def _tick() -> dict:
    return summary_batches.apply().get()["cycle"]


def test_each_judging_stage_waits_on_its_batch_and_the_poll_takes_the_cycle_to_its_end(batch_mode):
    server = batch_mode
    ai, _ = make_site(cosines=(100, 90))
    run_id = cycle_start.apply(args=[ai.id]).get()

    run = CycleRun.objects.get(pk=run_id)
    assert run.status == CycleRun.Status.RUNNING
    assert run.stages["post_impressions"]["outcome"] == "waiting"
    assert "peer_impressions" not in run.stages  # the chain stopped: no task waits
    wait = run.details["batchWait"]
    assert wait["stage"] == "post_impressions" and wait["calls"] == 1
    assert not server.chat_requests()
    (line,) = _cycle_lines(server)  # both posts in one call, as a direct call would ask
    assert line["body"]["response_format"] == {"type": "json_object"}
    assert len(line["body"]["messages"]) >= 2
    # The lease outlives the wait, and the stale-run sweep leaves the run alone.
    lease_until = AgentState.objects.get(user=ai).lease_until
    assert lease_until > timezone.now() + timedelta(hours=24)
    CycleRun.objects.filter(pk=run_id).update(started_at=timezone.now() - timedelta(minutes=5))
    assert runs_stale_end() == 0
    admin = make_user("Root", is_admin=True)
    client = Client()
    client.force_login(admin)
    page = client.get(f"/agents/runs/{run_id}").content.decode()
    assert (
        'data-testid="batch-wait"' in page
        and f"Waiting for batch {wait['providerBatchId']}" in page
    )

    assert _tick() == {"polled": 1, "ended": 0}  # still running at the provider
    server.finish_batches("completed")
    assert _tick() == {"polled": 1, "ended": 1}
    run.refresh_from_db()
    assert run.stages["post_impressions"]["outcome"] == "ok"
    assert run.stages["post_impressions"]["read"] == 2
    assert PostImpression.objects.filter(user=ai).count() == 2
    assert run.details["batches"]["post_impressions"]["answered"] == 1
    assert run.stages["peer_impressions"]["outcome"] == "waiting"  # the next judging stage's batch

    for _ in range(2):  # the peers' batch, then the interest's
        server.finish_batches("completed")
        assert _tick() == {"polled": 1, "ended": 1}
    run.refresh_from_db()
    assert run.status == CycleRun.Status.DONE, run.stages
    assert {s: r["outcome"] for s, r in run.stages.items()}["interest_update"] == "ok"
    assert PeerImpression.objects.filter(user=ai).count() == 2
    assert "batchWait" not in run.details
    assert set(run.details["batches"]) == {
        "post_impressions",
        "peer_impressions",
        "interest_update",
    }
    # The judging calls went in the batches at the batch price, the writing ones directly.
    judged = LlmUsage.objects.filter(run=run, task__in=JUDGING)
    # 1000 × 0.05 + 100 × 0.4 per million for gpt-5.6-luna, at half the price in a batch
    assert [u.cost for u in judged] == [Decimal("0.000045")] * 3
    assert len(_cycle_lines(server)) == 3
    # The writing calls went directly (the near-duplicate check's embeddings aside).
    direct = LlmUsage.objects.filter(run=run).exclude(task__in=JUDGING).exclude(task="embedding")
    direct_tasks = {u.task for u in direct}
    assert direct_tasks and not direct_tasks & JUDGING
    assert len(server.chat_requests()) == direct.count()
    assert run.llm_calls == LlmUsage.objects.filter(run=run).count()
    assert Decimal(run.cost) == sum(u.cost for u in LlmUsage.objects.filter(run=run))
    assert AgentState.objects.get(user=ai).lease_run is None
    page = client.get(f"/agents/runs/{run_id}").content.decode()
    assert 'data-testid="batch-wait"' not in page
    assert (
        f"peer_impressions: batch {run.details['batches']['peer_impressions']['providerBatchId']} completed, 1 answered, 0 called directly"
        in page
    )


@pytest.mark.parametrize("how", ["failed", "expired"])
def test_a_failed_or_expired_batch_falls_back_to_direct_calls_and_the_cycle_completes(
    batch_mode, how
):
    server = batch_mode
    ai, _ = make_site(cosines=(100, 90))
    run_id = cycle_start.apply(args=[ai.id]).get()
    for _ in range(3):  # each judging stage's batch
        if how == "failed":
            server.finish_batches("failed")
        else:  # never answered within the wait bound
            LlmBatch.objects.filter(kind="cycle", status="submitted").update(
                created_at=timezone.now() - timedelta(hours=25)
            )
        assert _tick() == {"polled": 1, "ended": 1}
    run = CycleRun.objects.get(pk=run_id)
    assert run.status == CycleRun.Status.DONE, run.stages
    assert all(r["outcome"] == "ok" for r in run.stages.values()), run.stages
    assert PostImpression.objects.filter(user=ai).count() == 2
    assert PeerImpression.objects.filter(user=ai).count() == 2
    for stage, done in run.details["batches"].items():
        assert (done["status"], done["answered"], done["direct"]) == (how, 0, 1), stage
    judged_directly = LlmUsage.objects.filter(run=run, task__in=JUDGING, latency_ms__gt=0)
    assert set(judged_directly.values_list("task", flat=True)) == JUDGING
    assert set(LlmBatch.objects.filter(kind="cycle").values_list("status", flat=True)) == {how}


def test_a_batch_not_sent_falls_back_to_direct_calls_at_once(batch_mode, settings):
    server = batch_mode
    ai, _ = make_site(cosines=(100, 90))
    settings.STGY_AI_SITE_DAILY_BUDGET = "1.00"  # used up: the submission is refused
    LlmUsage.objects.create(
        created_at=timezone.now(),
        provider="openai",
        model="gpt-5.6-luna",
        outcome="ok",
        cost=Decimal("1.00"),
    )
    run = CycleRun.objects.get(pk=cycle_start.apply(args=[ai.id]).get())
    assert not _cycle_lines(server) and not LlmBatch.objects.exists()
    assert run.status != CycleRun.Status.RUNNING
    assert run.details["batches"]["post_impressions"]["status"] == "not sent"
    assert "waiting" not in {r["outcome"] for r in run.stages.values()}
    client = Client()
    client.force_login(make_user("Root", is_admin=True))
    page = client.get(f"/agents/runs/{run.pk}").content.decode()
    assert "post_impressions: batch not sent" in page and "site daily budget exceeded" in page


def test_the_stale_sweep_ends_a_run_whose_batch_is_gone(batch_mode):
    ai, _ = make_site(cosines=(100, 90))
    run_id = cycle_start.apply(args=[ai.id]).get()
    CycleRun.objects.filter(pk=run_id).update(started_at=timezone.now() - timedelta(minutes=5))
    assert runs_stale_end() == 0  # waiting, its lease held
    LlmBatch.objects.all().delete()
    assert runs_stale_end() == 1
    run = CycleRun.objects.get(pk=run_id)
    assert run.status == CycleRun.Status.FAILED
    assert "is gone" in run.details["staleLease"]["reason"]
    assert AgentState.objects.get(user=ai).lease_run is None


def test_batch_mode_leaves_the_writing_stages_and_runcycle_direct(batch_mode):
    from agents.cycle.run import run_cycle_sync

    server = batch_mode
    ai, _ = make_site(cosines=(100, 90))
    run = run_cycle_sync(ai.id)  # someone is waiting on runcycle: no batch
    assert run.status == CycleRun.Status.DONE
    assert not _cycle_lines(server)
    assert JUDGING <= set(LlmUsage.objects.filter(run=run).values_list("task", flat=True))


def test_a_stage_with_nothing_left_to_judge_after_the_wait_stops_waiting(batch_mode, settings):
    server = batch_mode
    ai, posts = make_site(cosines=(100, 90))
    run_id = cycle_start.apply(args=[ai.id]).get()
    Post.objects.filter(pk__in=[p.pk for p in posts]).delete()  # deleted while it waited
    server.finish_batches("completed")
    settings.STGY_AI_BATCH = "off"  # switched off meanwhile: the waiting run still goes on
    assert _tick() == {"polled": 1, "ended": 1}
    run = CycleRun.objects.get(pk=run_id)
    assert run.status == CycleRun.Status.DONE, run.stages
    assert run.stages["post_impressions"]["outcome"] == "ok", run.stages
    assert run.stages["post_impressions"]["read"] == 0
    assert "batchWait" not in run.details and "batches" not in run.details
    assert not PostImpression.objects.filter(user=ai).exists()


def test_the_stale_sweep_ends_a_run_whose_ended_batch_never_resumed_it(batch_mode):
    ai, _ = make_site(cosines=(100, 90))
    run_id = cycle_start.apply(args=[ai.id]).get()
    CycleRun.objects.filter(pk=run_id).update(started_at=timezone.now() - timedelta(hours=3))
    # Ended (given up) a minute ago: its resume may still be on its way.
    batch = LlmBatch.objects.get(kind="cycle")
    batch.status, batch.finished_at = "expired", timezone.now() - timedelta(minutes=1)
    batch.save()
    assert runs_stale_end() == 0
    # Ended two hours ago and the run still waits: its resume was lost.
    LlmBatch.objects.filter(pk=batch.pk).update(finished_at=timezone.now() - timedelta(hours=2))
    assert runs_stale_end() == 1
    run = CycleRun.objects.get(pk=run_id)
    assert run.status == CycleRun.Status.FAILED
    assert "ended expired and the run did not go on" in run.details["staleLease"]["reason"]
