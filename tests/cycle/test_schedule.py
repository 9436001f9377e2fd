"""Who is due, and the lease (docs/differences.md item 2)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from agents.cycle.run import cycle_begin, cycle_end
from agents.cycle.schedule import due_user_ids
from agents.models import AgentState, CycleRun, LlmUsage
from agents.runs.lease import next_interval
from sns.models import User
from tests.factories import make_ai_user

pytestmark = pytest.mark.django_db


def make_due(*users, minutes_ago=5):
    for user in users:
        AgentState.objects.update_or_create(
            user=user, defaults={"next_run_at": timezone.now() - timedelta(minutes=minutes_ago)}
        )


def spend(user, tokens):
    LlmUsage.objects.create(
        created_at=timezone.now(),
        user=user,
        provider="offline",
        model="m",
        outcome="ok",
        prompt_tokens=tokens - 1,
        completion_tokens=1,
    )


def test_due_users_exclude_frozen_and_over_budget_ones(settings, ai_user, human):
    settings.STGY_AI_USER_DAILY_TOKEN_BUDGET = 100
    frozen = make_ai_user("Frozen")
    spender = make_ai_user("Spender")
    thrifty = make_ai_user("Thrifty")
    make_due(ai_user, frozen, spender, thrifty)
    User.objects.filter(pk=frozen.pk).update(is_frozen=True)
    spend(spender, 100)  # exactly the budget: over
    spend(thrifty, 99)  # one token left: still due

    assert sorted(due_user_ids()) == sorted([ai_user.id, thrifty.id])
    # Claimed: pushed one interval ahead, so the next tick does not send them again.
    assert due_user_ids() == []
    state = AgentState.objects.get(user=ai_user)
    assert timedelta(hours=9) < state.next_run_at - timezone.now() < timedelta(hours=15)
    # Skipped users keep their place and are due again once they are within budget.
    assert AgentState.objects.get(user=spender).next_run_at < timezone.now()


def test_yesterdays_usage_does_not_count_against_today(settings, ai_user):
    settings.STGY_AI_USER_DAILY_TOKEN_BUDGET = 100
    make_due(ai_user)
    LlmUsage.objects.create(
        created_at=timezone.now() - timedelta(days=2),
        user=ai_user,
        provider="offline",
        model="m",
        outcome="ok",
        prompt_tokens=1000,
    )
    assert due_user_ids() == [ai_user.id]


def test_nothing_is_due_when_the_ai_is_off(settings, ai_user):
    make_due(ai_user)
    settings.STGY_AI_PROVIDER = "none"
    assert due_user_ids() == []
    settings.STGY_AI_PROVIDER = "offline"
    assert due_user_ids() == [ai_user.id]


def test_humans_and_users_not_yet_due_are_not_returned(ai_user, human):
    make_due(ai_user, minutes_ago=-5)  # due in five minutes
    assert due_user_ids() == []
    assert not AgentState.objects.filter(user=human).exists()


def test_a_user_whose_lease_is_held_is_not_due(ai_user):
    make_due(ai_user)
    AgentState.objects.filter(user=ai_user).update(
        lease_until=timezone.now() + timedelta(minutes=5), lease_run=1
    )
    assert due_user_ids() == []


def test_next_interval_has_twenty_percent_jitter(settings):
    settings.STGY_AI_USER_LOOP_SLEEP_MS = 1_000_000
    rng = random.Random(7)
    samples = [next_interval(rng).total_seconds() for _ in range(2000)]
    assert all(800 <= s <= 1200 for s in samples)
    assert min(samples) < 810 and max(samples) > 1190  # the whole ±20 % is used
    assert 990 < sum(samples) / len(samples) < 1010


def test_a_held_lease_refuses_a_second_cycle(ai_user):
    first = cycle_begin(ai_user.id)
    assert first is not None
    assert cycle_begin(ai_user.id) is None
    assert CycleRun.objects.filter(user=ai_user).count() == 1  # the refused run left nothing
    state = AgentState.objects.get(user=ai_user)
    assert state.lease_run == first.pk
    cycle_end(first.pk)
    second = cycle_begin(ai_user.id)  # released at the end of the first
    assert second is not None and second.pk != first.pk


def test_an_expired_lease_can_be_taken(ai_user):
    stale = cycle_begin(ai_user.id)
    AgentState.objects.filter(user=ai_user).update(
        lease_until=timezone.now() - timedelta(seconds=1)
    )
    run = cycle_begin(ai_user.id)
    assert run is not None
    assert AgentState.objects.get(user=ai_user).lease_run == run.pk
    # The dead worker's late cycle_end must not release the new holder's lease.
    cycle_end(stale.pk)
    assert AgentState.objects.get(user=ai_user).lease_run == run.pk
    assert cycle_begin(ai_user.id) is None


def test_frozen_and_human_users_get_no_cycle(ai_user, human):
    assert cycle_begin(human.id) is None
    User.objects.filter(pk=ai_user.pk).update(is_frozen=True)
    assert cycle_begin(ai_user.id) is None
    assert not CycleRun.objects.exists()


def test_stage_tasks_have_their_own_queue_polled_first(settings):
    """Stages of running cycles never wait behind a backlog of cycle_start tasks: they
    go to a queue of their own, which a worker without -Q consumes first."""
    from stgy.celery import app

    router = app.amqp.router
    stage_queue = settings.STGY_CYCLE_STAGE_QUEUE
    assert router.route({}, "agents.cycle_stage")["queue"].name == stage_queue
    assert router.route({}, "agents.cycle_finish")["queue"].name == stage_queue
    assert router.route({}, "agents.cycle_start")["queue"].name == app.conf.task_default_queue != stage_queue
    # The respond path's queue alone comes before the stages' (tests/respond/test_queue.py).
    assert [q.name for q in app.conf.task_queues] == [
        settings.STGY_RESPOND_QUEUE, stage_queue, app.conf.task_default_queue
    ]
    # A stage message reaches exactly one queue: the queues share no exchange and key.
    bindings = [(q.exchange.name, q.routing_key) for q in app.amqp.queues.values()]
    assert len(set(bindings)) == len(bindings), bindings
    stage = router.route({}, "agents.cycle_stage")["queue"]
    assert (stage.exchange.name, stage.routing_key) == (stage_queue, stage_queue)
    assert app.conf.broker_transport_options["queue_order_strategy"] == "priority"


def test_cached_prompt_tokens_count_at_their_weight(settings, ai_user):
    """A cycle whose prompts were mostly served from the provider's cache uses its
    budget at the cached weight (docs/prompts.md §2), in the dispatcher and the gateway."""
    from agents.budget import budget_refusal, tokens_used_today

    settings.STGY_AI_USER_DAILY_TOKEN_BUDGET = 100
    settings.STGY_AI_BUDGET_CACHED_TOKEN_WEIGHT = 0.1
    cached = make_ai_user("Cached")
    make_due(ai_user, cached)
    # 50 fresh prompt tokens + 400 cached at 0.1 + 10 completion = 100: over.
    LlmUsage.objects.create(
        created_at=timezone.now(), user=ai_user, provider="offline", model="m", outcome="ok",
        prompt_tokens=450, cached_tokens=400, completion_tokens=10,
    )
    # 40 fresh + 500 cached at 0.1 + 9 = 99: one token left.
    LlmUsage.objects.create(
        created_at=timezone.now(), user=cached, provider="offline", model="m", outcome="ok",
        prompt_tokens=540, cached_tokens=500, completion_tokens=9,
    )
    assert tokens_used_today(user_id=ai_user.id) == 100
    assert tokens_used_today(user_id=cached.id) == 99
    assert budget_refusal(user_id=ai_user.id) == "user daily token budget exceeded (100 tokens)"
    assert budget_refusal(user_id=cached.id) is None
    assert due_user_ids() == [cached.id]

    # Weight 1 counts every prompt token in full, as before.
    settings.STGY_AI_BUDGET_CACHED_TOKEN_WEIGHT = 1.0
    assert tokens_used_today(user_id=cached.id) == 549
