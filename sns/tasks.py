"""Periodic housekeeping of the social network (Celery beat, stgy/settings.py)."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="sns.purge_notifications")
def purge_notifications() -> int:
    """Notifications older than STGY_NOTIFICATION_RETENTION_DAYS; returns rows deleted."""
    return services.notifications_purge()
