"""A respond run costs a bounded number of queries, the same on a small or a busy
site, and a fixed number more per event, so an N+1 cannot creep in."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from agents.respond.run import respond_run
from agents.runs.knowledge import admin_sources
from sns.models import User
from tests.factories import make_ai_user, make_user

from .helpers import conversation, post_quietly

pytestmark = pytest.mark.django_db

# As CaptureQueriesContext counts them (BEGIN, COMMIT and savepoints included): the
# owed check, the run record and lease, the claim, the batch's facts (posts with their
# block facts, reply chains level by level, replies), and per event the thread query,
# the budget, the usage row and the answer's transaction. Since boundaries and back-off:
# per event the back-off's two reads, and per run one read of the messages answered
# per person (the hourly message limits); with relationships, per answer the AI user's
# relationship with the sender (read and written: two queries). The offline stand-in,
# which these runs use, reads the recent AI texts it must not repeat: one per answer.
# Whether the sender asked AI users not to remember them (sns.selectors.boundaries
# ai_memory_withheld), asked by the impression's save and the relationship's step: two
# per answer.
# On SQLite a memory write and its versions are two statements (agents/memory_versions.py)
# and the near-duplicate check reads its recent texts one kind at a time.
BOUNDS = {"postgresql": {1: 48, 3: 96}, "sqlite": {1: 51, 3: 109}}


def site(extra_posts: int, events: int):
    ai = make_ai_user("Aiko")
    others = [make_user(f"P{i}") for i in range(3)] if extra_posts else []
    for i in range(extra_posts):
        post_quietly(others[i % 3], f"Noise {i}")
    for _ in range(events):
        conversation(ai=ai, person=make_user())
    return ai


def measure(ai) -> int:
    admin_sources()  # read once and cached (agents/runs/knowledge.py): warm, as on a running site
    with CaptureQueriesContext(connection) as queries:
        run = respond_run(ai.id)
    assert [r["result"] for r in run.details["events"]] == ["answered"] * len(run.details["events"])
    return len(queries.captured_queries)


@pytest.mark.parametrize("events", [1, 3])
def test_a_respond_run_costs_the_same_queries_on_a_small_or_busy_site(events):
    small = measure(site(0, events))
    User.objects.all().delete()
    busy = measure(site(60, events))
    print(f"\nrespond run with {events} events: {small} queries (busy site: {busy})")
    assert small == busy <= BOUNDS[connection.vendor][events]


def test_each_further_event_costs_a_fixed_number_of_queries():
    one = measure(site(0, 1))
    User.objects.all().delete()
    three = measure(site(0, 3))
    User.objects.all().delete()
    five = measure(site(0, 5))
    assert five - three == three - one
