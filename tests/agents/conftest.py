"""Fixtures shared by the agents tests."""

from __future__ import annotations

import pytest
from django.test import Client

from agents.cycle.run import run_cycle_sync
from tests.factories import make_post


@pytest.fixture
def finished_run(settings, human, ai_user):
    """One whole cycle of `ai_user` with the offline provider, over two posts of `human`."""
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_USER_STAGE_CONCURRENCY = 1
    make_post(human, "Fermentation of miso and koji: a long weekend project.", tags=["food"])
    make_post(human, "Sourdough starters love rye flour and a warm kitchen.", tags=["bread"])
    run = run_cycle_sync(ai_user.id)
    assert run is not None
    return run


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client
