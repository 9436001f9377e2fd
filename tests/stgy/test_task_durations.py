"""The durations stgy/settings/tasks.py says must agree do, for the defaults: the broker's
visibility timeout outlasts every task's hard time limit and the longest countdown (or a
live task would be delivered twice), and is minutes, not an hour (a killed worker's
task comes back that soon); a cycle's lease outlasts a killed stage's way back (or the
stale-lease sweep would end a cycle its redelivered stage was about to resume)."""

from __future__ import annotations

from django.conf import settings

from agents.tasks import SUMMARY_MAX_RETRIES, SUMMARY_RETRY_BASE_SECONDS, SUMMARY_RETRY_MAX_SECONDS
from stgy.celery import app


def hard_time_limits() -> list[int]:
    """The default and every per-task limit: on a task, or in the task annotations."""
    limits = [settings.CELERY_TASK_TIME_LIMIT]
    limits += [task.time_limit for name, task in app.tasks.items() if task.time_limit and not name.startswith("celery.")]
    annotations = getattr(settings, "CELERY_TASK_ANNOTATIONS", None) or {}
    if isinstance(annotations, dict):
        limits += [a["time_limit"] for a in annotations.values() if isinstance(a, dict) and a.get("time_limit")]
    return limits


def test_the_visibility_timeout_outlasts_every_task_and_is_minutes():
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    longest_countdown = min(SUMMARY_RETRY_MAX_SECONDS, SUMMARY_RETRY_BASE_SECONDS * 2 ** (SUMMARY_MAX_RETRIES - 1))
    assert visibility > max(hard_time_limits())
    assert visibility > longest_countdown
    assert visibility <= 15 * 60


def test_a_cycle_lease_outlasts_a_killed_stage_s_redelivery():
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert settings.STGY_AI_USER_LOCK_SECONDS > visibility + max(hard_time_limits())


def test_a_model_call_ends_before_the_task_that_made_it_is_cut():
    """A hanging model ends one call at STGY_AI_CALL_DEADLINE_MS, well inside the soft
    time limit, so the failure is recorded by our code rather than by a killed task, and
    the respond lease outlasts it."""
    deadline = settings.STGY_AI_CALL_DEADLINE_MS / 1000
    assert 0 < deadline < settings.CELERY_TASK_SOFT_TIME_LIMIT / 2
    assert settings.STGY_RESPOND_LEASE_SECONDS > deadline
