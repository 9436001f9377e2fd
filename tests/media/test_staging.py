"""Staged uploads (docs/media.md §2): bytes sent to a presigned URL and never finalized
count against their owner's monthly quota while they live, and the beat task
`sns.sweep_staged_media` deletes them once they are older than
STGY_MEDIA_STAGING_TTL_SECONDS, from the real store (the local driver's files here; S3
in tests/media/test_s3_store.py)."""

from __future__ import annotations

import os
import time

import pytest
from django.conf import settings as django_settings

from sns.media import storage
from sns.tasks import sweep_staged_media
from stgy.celery import app as celery_app
from tests.conftest import login_client
from tests.media.conftest import make_image
from tests.media.flow import full_flow, presign, upload
from tests.media.track_files import make_fit

pytestmark = pytest.mark.django_db


def stage(client, user, size: int, filename: str = "a.png", kind: str = "images") -> str:
    presigned = presign(client, user, b"x" * size, filename, kind).json()
    assert upload(presigned, b"x" * size, filename).status_code == 204
    return presigned["objectKey"]


def quota(client, user, kind: str = "images") -> dict:
    return client.get(f"/api/media/{user.hex_id}/{kind}/quota").json()


def test_staged_uploads_count_against_the_monthly_quota(human, settings):
    settings.STGY_MEDIA_IMAGE_BYTE_LIMIT_PER_MONTH = 100_000
    client = login_client(human)
    for _ in range(4):
        stage(client, human, 20_000)
    used = quota(client, human)
    assert (used["bytesStaged"], used["bytesMasters"], used["bytesTotal"]) == (80_000, 0, 80_000)
    refused = presign(client, human, b"x" * 30_000, "b.png")
    assert (refused.status_code, refused.json()) == (400, {"error": "monthly quota exceeded"})
    assert presign(client, human, b"x" * 20_000, "b.png").status_code == 200
    # A staged avatar counts against the images' quota too.
    stage(client, human, 10_000, "me.png", "avatar")
    assert quota(client, human)["bytesStaged"] == 90_000
    assert presign(client, human, b"x" * 20_000, "me.png", "avatar").json() == {
        "error": "monthly quota exceeded"}
    # Another month shows only what was finished in it.
    assert quota(client, human).get("yyyymm") and client.get(
        f"/api/media/{human.hex_id}/images/quota?yyyymm=202001").json()["bytesStaged"] == 0


def test_the_local_store_checks_the_quota_again_when_the_bytes_arrive(human, settings):
    """Presigned URLs asked for at once each saw an empty quota; the upload that would
    pass it is refused and nothing of it is written."""
    settings.STGY_MEDIA_IMAGE_BYTE_LIMIT_PER_MONTH = 100_000
    client = login_client(human)
    targets = [presign(client, human, b"x" * 40_000, "a.png").json() for _ in range(3)]
    assert [upload(t, b"x" * 40_000, "a.png").status_code for t in targets[:2]] == [204, 204]
    refused = upload(targets[2], b"x" * 40_000, "a.png")
    assert (refused.status_code, refused.json()) == (400, {"error": "monthly quota exceeded"})
    assert storage.read(storage.images_bucket(), targets[2]["objectKey"]) is None
    # A finalized image leaves staging: its bytes count as finished ones instead.
    finished = full_flow(client, human, make_image("PNG", size=(10, 10)), "c.png")
    assert finished.status_code == 200, finished.content
    after = quota(client, human)
    assert after["bytesStaged"] == 80_000 and after["bytesMasters"] == finished.json()["size"]
    settings.STGY_MEDIA_IMAGE_BYTE_LIMIT_PER_MONTH = 0  # no monthly limit: no check at all
    assert upload(presign(client, human, b"x" * 40_000, "a.png").json(), b"x" * 40_000).status_code == 204


def test_staged_tracks_count_against_the_tracks_quota(human, settings):
    settings.STGY_MEDIA_TRACK_BYTE_LIMIT_PER_MONTH = 50_000
    client = login_client(human)
    stage(client, human, 30_000, "ride.fit", "tracks")
    assert quota(client, human, "tracks")["bytesStaged"] == 30_000
    assert quota(client, human, "tracks")["bytesTotal"] == 30_000
    assert presign(client, human, b"x" * 30_000, "b.fit", "tracks").json() == {"error": "monthly quota exceeded"}
    assert quota(client, human)["bytesStaged"] == 0  # not the images'


def _age(key_path: str, seconds: float) -> None:
    when = time.time() - seconds
    os.utime(key_path, (when, when))


def test_the_beat_task_sweeps_expired_staged_uploads_and_leaves_fresh_ones(human, settings):
    settings.STGY_MEDIA_STAGING_TTL_SECONDS = 3600
    client = login_client(human)
    finished = full_flow(client, human, make_image(), "kept.jpg").json()["key"]
    staged = {
        "old image": (storage.images_bucket(), stage(client, human, 1000)),
        "old avatar": (storage.profiles_bucket(), stage(client, human, 1000, "me.png", "avatar")),
        "old track": (storage.tracks_bucket(), stage(client, human, 1000, "ride.fit", "tracks")),
        "fresh image": (storage.images_bucket(), stage(client, human, 1000)),
        "fresh track": (storage.tracks_bucket(), stage(client, human, len(make_fit()), "b.fit", "tracks")),
    }
    for name, (bucket, key) in staged.items():
        if name.startswith("old"):
            _age(storage.bucket(bucket).path(key), 3601)
    assert quota(client, human)["bytesStaged"] == 3000

    assert sweep_staged_media.apply().get() == 3
    left = {name for name, (bucket, key) in staged.items() if storage.read(bucket, key) is not None}
    assert left == {"fresh image", "fresh track"}
    assert storage.read(storage.images_bucket(), finished) is not None  # finished images stay
    assert quota(client, human)["bytesStaged"] == 1000
    assert sweep_staged_media.apply().get() == 0


def test_the_sweep_is_on_the_beat_schedule():
    entries = [e for e in django_settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "sns.sweep_staged_media"]
    assert len(entries) == 1 and entries[0]["schedule"].total_seconds() <= 15 * 60
    assert "sns.sweep_staged_media" in celery_app.tasks


def test_the_sweep_also_removes_old_track_finalizes(human, settings):
    """A TrackUpload (docs/media.md §9) only answers the finalize's poll; it goes with
    the staged uploads, whatever its state."""
    from datetime import timedelta

    from django.utils import timezone

    from sns.models.media import TrackUpload

    settings.STGY_MEDIA_STAGING_TTL_SECONDS = 3600
    rows = [TrackUpload.objects.create(staging_key=f"tracks-staging/{human.hex_id}/{n}.fit", owner=human,
                                       master_key="m", preview_key="p", state=state)
            for n, state in enumerate(("done", "processing", "refused"))]
    TrackUpload.objects.filter(pk__in=[rows[0].pk, rows[1].pk]).update(
        created_at=timezone.now() - timedelta(seconds=3601))
    sweep_staged_media.apply()
    assert list(TrackUpload.objects.values_list("state", flat=True)) == ["refused"]
