"""Beat entries name real tasks, and the notification purge they run works."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from sns.models import Notification
from sns.tasks import purge_notifications
from stgy.celery import app as celery_app


def test_every_beat_entry_names_a_registered_task():
    celery_app.loader.import_default_modules()
    registered = set(celery_app.tasks)
    entries = {name: entry["task"] for name, entry in settings.CELERY_BEAT_SCHEDULE.items()}
    assert entries, "no beat schedule"
    missing = {name: task for name, task in entries.items() if task not in registered}
    assert not missing, missing


@pytest.mark.django_db
def test_the_purge_task_deletes_only_notifications_past_retention(settings, human):
    settings.STGY_NOTIFICATION_RETENTION_DAYS = 31
    now = timezone.now()
    kept = Notification.objects.create(
        user=human, slot="like:new", term="2026-11-30", payload={},
        created_at=now - timedelta(days=30), updated_at=now,
    )
    old = Notification.objects.create(
        user=human, slot="like:old", term="2020-01-01", payload={},
        created_at=now - timedelta(days=32), updated_at=now,
    )
    result = purge_notifications.apply().get()
    assert result == 1
    assert not Notification.objects.filter(pk=old.pk).exists()
    assert Notification.objects.filter(pk=kept.pk).exists()
