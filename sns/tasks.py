"""Periodic housekeeping of the social network (Celery beat, stgy/settings.py)."""

from __future__ import annotations

from celery import shared_task

from . import services
from .services import media_usage


@shared_task(name="sns.purge_notifications")
def purge_notifications() -> int:
    """Notifications older than STGY_NOTIFICATION_RETENTION_DAYS; returns rows deleted."""
    return services.notifications_purge()


@shared_task(name="sns.sweep_staged_media")
def sweep_staged_media() -> int:
    """Staged uploads older than STGY_MEDIA_STAGING_TTL_SECONDS; returns objects deleted."""
    return media_usage.staged_sweep()
