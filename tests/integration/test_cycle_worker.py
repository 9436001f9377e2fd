"""The activity cycle through a real Redis broker and real Celery worker processes
(tests/integration/worker.py), including a worker killed in the middle of a stage:
redelivered, or, when no worker comes back in time, its run ended by the stale-lease
sweep."""

from __future__ import annotations

import signal
import time
from datetime import timedelta

from django.db.models import Count
from django.utils import timezone

from agents.cycle import STAGES
from agents.cycle.tasks import cycle_start, dispatch_cycles
from agents.models import AgentState, CycleRun, PeerImpression, PostImpression
from agents.runs.stale import CLAIM_GRACE
from agents.tasks import sweep_stale_runs
from sns.models import Like, Post
from tests.cycle.helpers import assert_all_stages_recorded, make_site, push_answers
from tests.factories import make_ai_user, make_post, make_user
from tests.integration.worker import (
    WORKER_TEST_MARKS,
    celery_worker,
    model_server_env,
    sending_to,
    stop,
    wait_for,
)

pytestmark = WORKER_TEST_MARKS

VISIBILITY_TIMEOUT = 5
RUN_TIMEOUT = 120  # a loaded two-core machine has needed more than 60 s


def _finished_run(user, logs):
    def check():
        run = CycleRun.objects.filter(user=user).first()
        if (
            run is not None
            and run.status != CycleRun.Status.RUNNING
            and len(run.stages) == len(STAGES)
        ):
            return run
        return None

    return wait_for(
        check,
        RUN_TIMEOUT,
        lambda: "the cycle to finish\n" + "\n".join(p.read_text()[-2500:] for p in logs),
    )


def test_a_cycle_runs_through_a_real_worker(settings, tmp_path):
    settings.STGY_AI_PROVIDER = "offline"
    ai = make_ai_user("Aiko", personality="A baker who loves sourdough and fermentation.")
    alice, bob = make_user("Alice"), make_user("Bob")
    make_post(alice, "My sourdough starter doubled overnight; rye flour makes it lively.")
    make_post(bob, "Fermenting miso at home: koji, soybeans and a lot of patience.")
    make_post(alice, "Bread baking tip: a long cold proof gives a better crust.")

    log = tmp_path / "worker.log"
    with celery_worker(log, CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT), STGY_AI_PROVIDER="offline"):
        with sending_to():
            cycle_start.delay(ai.id)
        run = _finished_run(ai, [log])

    assert run.status == CycleRun.Status.DONE, run.stages
    assert_all_stages_recorded(run)
    assert run.stages["post_impressions"]["outcome"] == "ok"
    assert run.stages["interest_update"]["outcome"] == "ok"
    assert PostImpression.objects.filter(user=ai).count() == 3
    assert PeerImpression.objects.filter(user=ai).count() == 2
    # The three posts are judged in one call and their two authors in another, then the
    # interest update (+ a new post): the batched stages of docs/agent-cycle.md.
    assert run.llm_calls >= 3
    text = log.read_text()
    assert (
        "agents.cycle_start" in text
        and "agents.cycle_stage" in text
        and "agents.cycle_finish" in text
    )


def test_a_worker_killed_mid_stage_leaves_no_duplicates_after_redelivery(
    settings, tmp_path, llm_server
):
    """The model answers after 3 s. The worker is SIGKILLed inside likes_and_replies,
    after its likes are written and while its reply calls are in flight; a fresh worker
    gets the unacknowledged stage again once the visibility timeout has passed."""
    ai, posts = make_site(cosines=(100, 90))
    push_answers(llm_server, count=80, delay=3.0)
    env = model_server_env(
        llm_server,
        STGY_AI_MAX_RETRIES="0",
        STGY_AI_RPC_TIMEOUT_MS="30000",
    )
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"

    with celery_worker(first_log, CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT), **env) as first:
        with sending_to():
            cycle_start.delay(ai.id)

        def likes_written_reply_pending():
            run = CycleRun.objects.filter(user=ai).first()
            return (
                run is not None
                and Like.objects.filter(user=ai).count() == 2
                and "likes_and_replies" not in run.stages
            )

        wait_for(
            likes_written_reply_pending, 40, lambda: "the likes\n" + first_log.read_text()[-3000:]
        )
        stop(first, signal.SIGKILL)
        assert first.returncode is not None

    assert not Post.objects.filter(
        owner=ai, reply_to__isnull=False
    ).exists()  # killed before the replies
    time.sleep(VISIBILITY_TIMEOUT + 1)  # the new worker restores messages older than this at start
    with celery_worker(second_log, CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT), **env):
        run = _finished_run(ai, [first_log, second_log])

    assert run.status == CycleRun.Status.DONE, run.stages
    assert_all_stages_recorded(run)
    assert CycleRun.objects.filter(user=ai).count() == 1
    assert "agents.cycle_stage" in second_log.read_text()
    # The stage ran again from the start and met its own earlier likes.
    assert [r["result"] for r in run.details["likes"]] == ["already liked", "already liked"]

    assert Like.objects.filter(user=ai).count() == 2
    replies = Post.objects.filter(owner=ai, reply_to__isnull=False)
    assert sorted(replies.values_list("reply_to", flat=True)) == sorted(p.id for p in posts)
    assert not replies.values("reply_to").annotate(n=Count("id")).filter(n__gt=1).exists()
    assert Post.objects.filter(owner=ai, reply_to__isnull=True).count() == 1
    assert PostImpression.objects.filter(user=ai).count() == 2
    assert PeerImpression.objects.filter(user=ai).count() == 2
    keys = list(Post.objects.filter(owner=ai).values_list("idempotency_key", flat=True))
    assert len(keys) == len(set(keys)) == 3 and all(k.startswith(f"run:{run.pk}:") for k in keys)


def test_a_run_whose_worker_died_is_ended_by_the_sweep_and_the_next_cycle_runs(settings, tmp_path, llm_server):
    """The whole worker is SIGKILLed inside likes_and_replies and none comes back
    before the run's lease lapses. The stale-lease sweep ends the run and says why, the
    dispatcher starts the user's next cycle, and the killed stage, delivered again to
    the next worker, finds its run ended and does nothing."""
    settings.STGY_AI_PROVIDER = "offline"  # this process only dispatches
    ai, _ = make_site(cosines=(100, 90))
    push_answers(llm_server, count=80, delay=3.0)
    env = model_server_env(
        llm_server,
        STGY_AI_MAX_RETRIES="0",
        STGY_AI_RPC_TIMEOUT_MS="30000",
        STGY_AI_USER_LOCK_SECONDS="5",  # the lease lapses 5 s after the last stage's save
        CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
        CELERY_TRACE_LOG_LEVEL="INFO",  # each task's result in the log
    )
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"

    with celery_worker(first_log, **env) as first:
        with sending_to():
            cycle_start.delay(ai.id)

        def likes_written_reply_pending():
            run = CycleRun.objects.filter(user=ai).first()
            return run is not None and Like.objects.filter(user=ai).count() == 2 and "likes_and_replies" not in run.stages

        wait_for(likes_written_reply_pending, 40, lambda: "the likes\n" + first_log.read_text()[-3000:])
        stop(first, signal.SIGKILL)
    dead = CycleRun.objects.get(user=ai)

    def lapsed():
        state = AgentState.objects.get(user=ai)
        return state.lease_until < timezone.now() and dead.started_at < timezone.now() - CLAIM_GRACE

    wait_for(lapsed, 30, "the lease to lapse")
    assert sweep_stale_runs.apply().get() == 1
    dead.refresh_from_db()
    assert dead.status == CycleRun.Status.FAILED
    assert "its lease lapsed" in dead.details["staleLease"]["reason"]
    AgentState.objects.filter(user=ai).update(next_run_at=timezone.now() - timedelta(seconds=1))
    with sending_to():
        assert dispatch_cycles.apply().get() == 1  # the next cycle, on its way to the worker
    time.sleep(VISIBILITY_TIMEOUT + 1)  # the new worker restores messages older than this at start

    with celery_worker(second_log, **env):
        def both_chains_finished():
            # cycle_finish answers the run's status: the dead run's chain, which only
            # the killed stage's redelivery can have set going again, ends 'failed'.
            text = second_log.read_text()
            return ": 'failed'" in text and ": 'done'" in text

        wait_for(both_chains_finished, RUN_TIMEOUT, lambda: "both chains\n" + second_log.read_text()[-4000:])

    after = CycleRun.objects.get(pk=dead.pk)
    assert (after.status, after.stages, after.details) == (dead.status, dead.stages, dead.details)
    following = CycleRun.objects.exclude(pk=dead.pk).get(user=ai)
    assert following.status == CycleRun.Status.DONE
    assert_all_stages_recorded(following)
    assert Like.objects.filter(user=ai).count() == 2
    assert not Post.objects.filter(owner=ai, reply_to__isnull=False).exists()
