"""A track finalize's parsing as a Celery task, in the services' layer that enqueues it
(sns/services/tracks.py); `sns/tasks.py` imports it for Celery's discovery."""

from __future__ import annotations

from celery import shared_task

from . import track_processing


@shared_task(name="sns.process_track")
def process_track(upload_id: int) -> str:
    """A track finalize's parsing and writes (sns/services/track_processing.py)."""
    return track_processing.track_process(upload_id)
