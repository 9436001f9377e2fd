"""The social network's Celery tasks: periodic housekeeping (beat, stgy/settings/tasks.py) and work
that leaves the request (a link preview's fetch, a track's parsing)."""

from __future__ import annotations

from celery import shared_task

from . import services
from .linksnippets import fetching as link_snippets
from .services import media_usage, track_processing


@shared_task(name="sns.purge_notifications")
def purge_notifications() -> int:
    """Notifications older than STGY_NOTIFICATION_RETENTION_DAYS; returns rows deleted."""
    return services.notifications_purge()


@shared_task(name="sns.sweep_staged_media")
def sweep_staged_media() -> int:
    """Staged uploads older than STGY_MEDIA_STAGING_TTL_SECONDS; returns objects deleted."""
    return media_usage.staged_sweep()


@shared_task(name="sns.fetch_link_snippet")
def fetch_link_snippet(url: str, site_host: str, token: str, keep_old: bool) -> None:
    """A link preview's fetch (sns/linksnippets/fetching.py), out of the request."""
    link_snippets.fetch(url, site_host, token, keep_old)


@shared_task(name="sns.process_track")
def process_track(upload_id: int) -> str:
    """A track finalize's parsing and writes (sns/services/track_processing.py)."""
    return track_processing.track_process(upload_id)
