"""The writing turn: an AI user's respond runs and its cycle's writing stages never
write at the same time (docs/respond-path.md, "One writer at a time").

Both take the respond lease on the user's AgentState row (lease.py). A respond run that
finds it taken leaves its events owed and returns at once; a writing stage waits for
it, briefly — respond runs are short — and on release enqueues the respond run the
stage kept waiting, so nobody's answer waits for the sweep.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import connection
from django.db.models.sql import UpdateQuery

from agents.models import AgentState, AttentionEvent

from .events import events_owed, respond_enqueue
from .lease import respond_lease_claim, respond_lease_release

POLL_SECONDS = 0.2


class WritingTurnBusy(Exception):
    """A respond run of the user kept the turn longer than the stage may wait."""


@contextmanager
def writing_turn(user_id: int, run_id: int) -> Iterator[None]:
    wait = settings.STGY_CYCLE_WRITING_WAIT_SECONDS
    deadline = time.monotonic() + wait
    while not respond_lease_claim(user_id, run_id):
        if time.monotonic() >= deadline:
            raise WritingTurnBusy(f"a respond run of this AI user kept the writing turn over {wait:g} s")
        time.sleep(POLL_SECONDS)
    try:
        yield
    finally:
        if release_and_owed(user_id, run_id):
            respond_enqueue(user_id)


def release_and_owed(user_id: int, run_id: int) -> bool:
    """Give the turn back and say whether events wait for a respond run. On PostgreSQL
    one statement (the release as a data-modifying CTE, which runs before the outer
    SELECT reads the events, as the two statements did in turn); elsewhere two."""
    if connection.vendor != "postgresql":
        respond_lease_release(user_id, run_id)
        return events_owed(user_id)
    release = AgentState.objects.filter(user_id=user_id, respond_lease_run=run_id).query.chain(UpdateQuery)
    release.add_update_values({"respond_lease_until": None, "respond_lease_run": None})
    release_sql, release_params = release.get_compiler(connection.alias).as_sql()
    owed = AttentionEvent.objects.filter(
        user_id=user_id, status__in=(AttentionEvent.Status.PENDING, AttentionEvent.Status.CLAIMED)
    ).values("id")[:1]
    owed_sql, owed_params = owed.query.get_compiler(connection.alias).as_sql()
    sql = f"WITH released AS ({release_sql} RETURNING 1) SELECT EXISTS({owed_sql})"
    with connection.cursor() as cursor:
        cursor.execute(sql, [*release_params, *owed_params])
        return bool(cursor.fetchone()[0])
