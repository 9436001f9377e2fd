"""Batch mode's cycle through a real Redis broker and a real Celery worker
(tests/integration/worker.py): a judging stage's task sends its batch and returns, the
chain stops there with no worker held, and the batches' poll sets it going again until
the cycle ends. The answers come from the local OpenAI-compatible server's batch
endpoints (tests/llm_server.py)."""

from __future__ import annotations

from agents.cycle import STAGES
from agents.cycle.batches import cycle_batches_tick
from agents.cycle.tasks import cycle_start
from agents.models import CycleRun, LlmBatch, PeerImpression, PostImpression
from tests.cycle.helpers import answer, assert_all_stages_recorded, make_site
from tests.integration.worker import (
    WORKER_TEST_MARKS,
    celery_worker,
    model_server_env,
    sending_to,
    wait_for,
)

pytestmark = WORKER_TEST_MARKS

RUN_TIMEOUT = 120  # a loaded two-core machine has needed more than 60 s
JUDGING_STAGES = ("post_impressions", "peer_impressions", "interest_update")


def test_a_judging_stage_waits_on_its_batch_with_no_worker_held_and_the_poll_ends_the_cycle(
    settings, tmp_path, llm_server
):
    settings.STGY_AI_BATCH = "on"  # this process polls the batches
    ai, _ = make_site(cosines=(100, 90))
    for _ in range(40):
        llm_server.push_chat(answer())
    env = model_server_env(
        llm_server,
        STGY_AI_MAX_RETRIES="0",
        STGY_AI_BATCH="on",
        # The crafted vectors of tests.cycle.helpers are unrelated to the embedder's, so
        # the interest's jump guard would refuse the update (as tests/cycle/conftest.py says).
        STGY_AI_INTEREST_MIN_SIMILARITY="-1",
        CELERY_TRACE_LOG_LEVEL="INFO",  # each task's result in the log
    )
    log = tmp_path / "worker.log"

    def waiting_on(stage):
        def check():
            run = CycleRun.objects.filter(user=ai).first()
            record = (run.stages.get(stage) or {}) if run is not None else {}
            return run if record.get("outcome") == "waiting" else None

        return check

    with celery_worker(log, **env):
        with sending_to():
            cycle_start.delay(ai.id)
        for n, stage in enumerate(JUDGING_STAGES):
            run = wait_for(waiting_on(stage), RUN_TIMEOUT, lambda: log.read_text()[-3000:])
            assert run.status == CycleRun.Status.RUNNING
            assert run.details["batchWait"]["stage"] == stage
            # The stage's task returned (its result logged) and no later stage was sent.
            wait_for(
                lambda n=n: log.read_text().count("'outcome': 'waiting'") == n + 1,
                30,
                lambda: log.read_text()[-3000:],
            )
            later = STAGES[STAGES.index(stage) + 1 :]
            assert not set(later) & set(run.stages)
            llm_server.finish_batches("completed")
            with sending_to():
                assert cycle_batches_tick() == {"polled": 1, "ended": 1}

        def ended():
            run = CycleRun.objects.get(user=ai)
            return run if run.status != CycleRun.Status.RUNNING else None

        run = wait_for(ended, RUN_TIMEOUT, lambda: log.read_text()[-3000:])

    assert run.status == CycleRun.Status.DONE, run.stages
    assert_all_stages_recorded(run)
    assert PostImpression.objects.filter(user=ai).count() == 2
    assert PeerImpression.objects.filter(user=ai).count() == 2
    assert run.details["interestAfter"]["interest"]
    batches = LlmBatch.objects.filter(kind="cycle")
    assert [(b.status, b.answered, b.fell_back) for b in batches] == [("completed", 1, 0)] * 3
    assert "agents.cycle_resume" in log.read_text()
