"""A call trace's replay and the traces' pruning through a real Redis broker and a real
Celery worker process (tests/integration/worker.py; docs/prompts.md §5)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from agents.cycle.run import run_cycle_sync
from agents.models import CycleRun, Interest, LlmCallTrace, LlmUsage, PeerImpression, PostImpression
from agents.tasks import prune_call_traces
from sns.models import Post
from tests.conftest import requires_postgres, requires_redis
from tests.factories import make_post
from tests.integration.worker import celery_worker, sending_to, wait_for

pytestmark = [requires_postgres, requires_redis, pytest.mark.celery_worker]

RESULT_TIMEOUT = 60


@pytest.fixture(scope="module")
def worker(django_db_setup, tmp_path_factory):
    """A solo-pool worker on the test database for the module; yields its log path."""
    log_path = tmp_path_factory.mktemp("celery") / "worker.log"
    with celery_worker(log_path, "--pool=solo", STGY_AI_PROVIDER="offline"):
        yield log_path


def _counts() -> dict[str, int]:
    return {
        "posts": Post.objects.count(),
        "interests": Interest.objects.count(),
        "peer impressions": PeerImpression.objects.count(),
        "post impressions": PostImpression.objects.count(),
        "runs": CycleRun.objects.count(),
        "traces": LlmCallTrace.objects.count(),
    }


@pytest.mark.django_db(transaction=True)
def test_a_replay_is_answered_by_the_worker_and_old_traces_are_pruned(worker, human, ai_user, admin, settings):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_USER_STAGE_CONCURRENCY = 1
    make_post(human, "Fermentation of miso and koji: a long weekend project.", tags=["food"])
    run = run_cycle_sync(ai_user.id)
    trace = LlmCallTrace.objects.filter(run=run, task="interest").get()
    before, usage = _counts(), LlmUsage.objects.count()
    client = Client()
    client.force_login(admin)
    with sending_to():
        assert client.post(f"/agents/calls/{trace.pk}/replay").status_code == 302

    def replayed():
        state = client.get(f"/agents/calls/{trace.pk}").json()["replay"]
        return state if state["status"] != "pending" else None

    state = wait_for(replayed, RESULT_TIMEOUT, f"the replay\n{worker.read_text()[-3000:]}")
    assert state["status"] == "done" and state["answer"], state
    assert "agents.replay_call" in worker.read_text()  # the worker did it, not this request
    assert _counts() == before and LlmUsage.objects.count() == usage + 1

    LlmCallTrace.objects.filter(pk=trace.pk).update(created_at=timezone.now() - timedelta(days=8))
    with sending_to():
        prune_call_traces.delay()
    wait_for(
        lambda: not LlmCallTrace.objects.filter(pk=trace.pk).exists(),
        RESULT_TIMEOUT,
        f"the prune\n{worker.read_text()[-3000:]}",
    )
    assert LlmCallTrace.objects.filter(run=run).exists()  # the fresh ones stay
