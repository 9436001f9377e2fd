"""The writing turn: an AI user's respond runs and its cycle's writing stages never
write at the same time (docs/respond-path.md, "One writer at a time").

Both take the respond lease on the user's AgentState row (lease.py). A respond run that
finds it taken leaves its events owed and returns at once; a writing stage waits for
it, briefly — respond runs are short — and on release enqueues the respond run the
stage kept waiting, so nobody's answer waits for the sweep.

A cycle's writing stage gives the turn back with its record (record.py
`turn_give_with_record`): on PostgreSQL the record, the cycle lease's renewal, the
release and the question "are events owed?" are one statement, so the turn costs the
stage one query (the claim) instead of three (docs/agent-cycle.md, "What a cycle
costs").
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings

from .lease import respond_lease_claim, respond_lease_release
from .owed import events_owed, respond_enqueue

POLL_SECONDS = 0.2


class WritingTurnBusy(Exception):
    """A respond run of the user kept the turn longer than the stage may wait."""


def turn_take(user_id: int, run_id: int) -> None:
    """Wait for the turn (briefly); WritingTurnBusy if a respond run keeps it."""
    wait = settings.STGY_CYCLE_WRITING_WAIT_SECONDS
    deadline = time.monotonic() + wait
    while not respond_lease_claim(user_id, run_id):
        if time.monotonic() >= deadline:
            raise WritingTurnBusy(f"a respond run of this AI user kept the writing turn over {wait:g} s")
        time.sleep(POLL_SECONDS)


def turn_give(user_id: int, run_id: int) -> None:
    respond_lease_release(user_id, run_id)
    if events_owed(user_id):
        respond_enqueue(user_id)


@contextmanager
def writing_turn(user_id: int, run_id: int) -> Iterator[None]:
    turn_take(user_id, run_id)
    try:
        yield
    finally:
        turn_give(user_id, run_id)
