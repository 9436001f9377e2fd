"""Budgets in money (agents/budget.py): the gateway refuses at the ceiling, the
dispatcher pauses the fleet there and resumes the next day, recorded; with a real
provider and no budget set, the default site budget applies and the operator is told."""

from __future__ import annotations

import logging
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from agents.budget import budget_status, site_budget
from agents.cycle.tasks import dispatch_cycles
from agents.llm import gateway
from agents.llm.errors import BudgetExceeded
from agents.models import AgentState, CycleRun, FleetPause, LlmUsage
from tests.factories import make_ai_user, make_user

from .helpers import make_site, push_answers

pytestmark = pytest.mark.django_db

HELLO = [{"role": "user", "content": "hello"}]


def spend(user, cost: str) -> None:
    LlmUsage.objects.create(
        created_at=timezone.now(),
        user=user,
        provider="openai",
        model="gpt-5.6-luna",
        outcome="ok",
        prompt_tokens=1000,
        completion_tokens=10,
        cost=Decimal(cost),
    )


def a_day_passes() -> None:
    """The clock moves on to the next UTC day: what was spent today becomes yesterday's.
    (Moving the rows back a day is the same thing seen from the budget, which counts the
    rows of the current UTC day.)"""
    for row in LlmUsage.objects.all():
        LlmUsage.objects.filter(pk=row.pk).update(created_at=row.created_at - timedelta(days=1))


def _due(*users):
    for user in users:
        AgentState.objects.update_or_create(
            user=user, defaults={"next_run_at": timezone.now() - timedelta(minutes=5)}
        )


def _messages(caplog, text: str) -> int:
    return sum(text in record.getMessage() for record in caplog.records)


def test_the_gateway_refuses_at_the_site_and_user_money_ceilings(
    llm_server, settings, ai_user, human
):
    settings.STGY_AI_SITE_DAILY_BUDGET = "1.00"
    settings.STGY_AI_USER_DAILY_BUDGET = "0.25"
    spend(ai_user, "0.25")
    with pytest.raises(BudgetExceeded, match=r"user daily budget exceeded \(0.25 spent\)"):
        gateway.chat(messages=HELLO, tier="basic", user_id=ai_user.id)
    gateway.chat(messages=HELLO, tier="basic", user_id=human.id)  # someone else may still call
    spend(human, "0.75")
    with pytest.raises(BudgetExceeded, match=r"site daily budget exceeded \(1.00 spent\)"):
        gateway.chat(messages=HELLO, tier="basic", user_id=human.id)
    assert len(llm_server.chat_requests()) == 1
    assert LlmUsage.objects.filter(outcome="refused").count() == 2


def test_the_fleet_pauses_at_the_ceiling_and_resumes_the_next_day(model_server, settings, caplog):
    caplog.set_level(logging.INFO, logger="agents")
    settings.STGY_AI_SITE_DAILY_BUDGET = "2"
    ai, _ = make_site(cosines=(100,))
    spender = make_user("Spender")
    spend(spender, "2.00")
    _due(ai)
    due_at = AgentState.objects.get(user=ai).next_run_at

    for _ in range(3):
        assert dispatch_cycles.apply().get() == 0
    assert not CycleRun.objects.exists() and not model_server.chat_requests()
    assert AgentState.objects.get(user=ai).next_run_at == due_at  # still due, not claimed
    (pause,) = FleetPause.objects.all()
    assert pause.day == timezone.now().date() and pause.ended_at is None
    assert pause.reason == "site daily budget exceeded (2.00 spent)"
    assert _messages(caplog, "AI cycles paused until the next UTC day") == 1

    admin = make_user("Root", is_admin=True)
    client = Client()
    client.force_login(admin)
    page = client.get("/agents/activity").content.decode()
    assert 'data-testid="fleet-pause"' in page and "until the next UTC day" in page

    a_day_passes()
    push_answers(model_server)
    assert dispatch_cycles.apply().get() == 1
    assert CycleRun.objects.get(user=ai).status == "done"
    pause.refresh_from_db()
    assert pause.ended_at is not None
    assert _messages(caplog, "AI cycles resumed") == 1
    assert _messages(caplog, "AI cycles paused") == 1


def test_the_dispatcher_skips_ai_users_over_their_money_budget(settings):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_USER_DAILY_BUDGET = "0.10"
    from agents.cycle.schedule import due_user_ids

    spender, thrifty = make_ai_user("Spender"), make_ai_user("Thrifty")
    spend(spender, "0.10")
    spend(thrifty, "0.09")
    _due(spender, thrifty)
    assert due_user_ids() == [thrifty.id]


def test_with_a_real_provider_and_no_budget_the_default_applies(llm_server, settings, capsys):
    settings.STGY_AI_DEFAULT_SITE_DAILY_BUDGET = "5"
    budget = site_budget()
    assert (budget.money, budget.default) == (Decimal(5), True)
    status = budget_status()
    assert status["site_budget_is_default"] is True
    (warning,) = status["warnings"]
    assert "no AI budget is set: the default site budget of 5 a day applies" in warning

    call_command("llmcheck")
    out, err = capsys.readouterr()
    assert '"site_budget_is_default": true' in out
    assert "warning: no AI budget is set" in err

    admin = make_user("Root", is_admin=True)
    client = Client()
    client.force_login(admin)
    page = client.get("/agents/activity").content.decode()
    assert (
        'data-testid="budget-warning"' in page
        and "the default site budget of 5 a day applies" in page
    )
    assert "of 5 site budget (the default)" in page

    spender = make_user("Spender")
    spend(spender, "5.00")
    with pytest.raises(BudgetExceeded, match="site daily budget exceeded"):
        gateway.chat(messages=HELLO, tier="basic")


@pytest.mark.parametrize(
    ("setting", "value", "money", "warned"),
    [
        ("STGY_AI_SITE_DAILY_BUDGET", "3", Decimal(3), False),  # an operator's figure
        (
            "STGY_AI_SITE_DAILY_TOKEN_BUDGET",
            1_000_000,
            Decimal(0),
            False,
        ),  # a token budget is a budget
        (
            "STGY_AI_SITE_DAILY_BUDGET",
            "0",
            Decimal(0),
            True,
        ),  # an explicit "no ceiling", still said
    ],
)
def test_a_budget_that_was_set_replaces_the_default(
    llm_server, settings, setting, value, money, warned
):
    setattr(settings, setting, value)
    budget = site_budget()
    assert (budget.money, budget.default) == (money, False)
    warnings = budget_status()["warnings"]
    assert any("spending is unbounded" in w for w in warnings) is warned
    assert not any("default site budget" in w for w in warnings)


def test_no_default_budget_offline_and_a_warning_for_unpriced_models(settings, llm_server):
    settings.STGY_AI_PROVIDER = "offline"
    assert site_budget().money == 0 and budget_status()["warnings"] == []
    settings.STGY_AI_PROVIDER = "openai"
    settings.STGY_AI_MODEL_ADVANCED = "llama-local"
    (default, unpriced) = budget_status()["warnings"]
    assert "no price for llama-local" in unpriced and "STGY_AI_PRICES" in unpriced
    settings.STGY_AI_PRICES = "llama-local=0:0:0"
    assert len(budget_status()["warnings"]) == 1
