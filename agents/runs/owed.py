"""Answers an AI user owes: whether any are owed, and the respond task that gives them.

The cycle's writing stages ask both when they give the writing turn back (turn.py,
record.py), as the respond path does after its runs; the answers themselves are
agents/respond/'s. The task is named, not imported: this package sits below
agents/respond (docs/architecture.md §3), and Celery finds a task by its name.
"""

from __future__ import annotations

from agents.models import AttentionEvent
from agents.runner import submit_task

RESPOND_TASK = "agents.respond"  # agents/respond/tasks.py


def respond_enqueue(user_id: int) -> None:
    """One respond task for the AI user; never blocks or fails the caller."""
    from stgy.celery import app

    submit_task(app.tasks[RESPOND_TASK], user_id)


def events_owed(user_id: int) -> bool:
    """Has the AI user events no finished run has handled (pending, or claimed by a
    run that died)?"""
    return AttentionEvent.objects.filter(
        user_id=user_id, status__in=(AttentionEvent.Status.PENDING, AttentionEvent.Status.CLAIMED)
    ).exists()
