"""The social network's Celery tasks: periodic housekeeping (beat, stgy/settings/tasks.py) and work
that leaves the request (a link preview's fetch, a track's parsing). The last two are
defined beside the code that enqueues them (sns/linksnippets/tasks.py,
sns/services/track_tasks.py), so no lower layer imports this module; importing them here
is what Celery's discovery of `sns.tasks` finds."""

from __future__ import annotations

from celery import shared_task

from . import services
from .linksnippets.tasks import fetch_link_snippet
from .services import media_usage
from .services.track_tasks import process_track

__all__ = ["fetch_link_snippet", "process_track", "purge_notifications", "sweep_staged_media"]


@shared_task(name="sns.purge_notifications")
def purge_notifications() -> int:
    """Notifications older than STGY_NOTIFICATION_RETENTION_DAYS; returns rows deleted."""
    return services.notifications_purge()


@shared_task(name="sns.sweep_staged_media")
def sweep_staged_media() -> int:
    """Staged uploads older than STGY_MEDIA_STAGING_TTL_SECONDS; returns objects deleted."""
    return media_usage.staged_sweep()
