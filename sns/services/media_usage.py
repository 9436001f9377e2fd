"""What a user's media occupy in storage, and the staged uploads' expiry (docs/media.md
§2, "Staged uploads").

A month's use is what the original counts: the finished objects under the month's
prefix (`masters/<revMM>/` with `thumbs/` for images, `previews/` for tracks). Besides,
every staged upload of the user counts while it lives — the bytes a presigned URL put
in storage that no finalize has taken yet: images and avatars against the images'
monthly quota, tracks against the tracks'. They live at most
STGY_MEDIA_STAGING_TTL_SECONDS: the beat task `sns.sweep_staged_media` deletes older
ones, so an upload never finalized neither stays on disk nor holds the quota.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from django.conf import settings

from ..media import keys, storage
from ..models.media import TrackUpload

log = logging.getLogger(__name__)
IMAGES, TRACKS = "images", "tracks"


def _finished_folders(kind: str) -> tuple[str, tuple[str, str]]:
    if kind == TRACKS:
        return storage.tracks_bucket(), ("masters", "previews")
    return storage.images_bucket(), ("masters", "thumbs")


def _staging(kind: str) -> list[tuple[str, str]]:
    """(bucket, key prefix before the user's hex id) of the staging folders of a kind."""
    if kind == TRACKS:
        return [(storage.tracks_bucket(), "tracks-staging/")]
    return [(storage.images_bucket(), "staging/"), (storage.profiles_bucket(), "profiles-staging/")]


def this_month() -> str:
    return keys.yyyymm(datetime.now(UTC))


def month_bytes(kind: str, user_hex: str, yyyymm: str) -> tuple[int, int]:
    """(masters, thumbnails or previews) of a month, in bytes."""
    bucket, folders = _finished_folders(kind)
    rev = keys.rev_mm(int(yyyymm[:4]), int(yyyymm[4:]))
    sizes = [sum(o.size for o in storage.list_objects(bucket, f"{user_hex}/{folder}/{rev}/"))
             for folder in folders]
    return sizes[0], sizes[1]


def staged_bytes(kind: str, user_hex: str) -> int:
    return sum(o.size for bucket, prefix in _staging(kind)
               for o in storage.list_objects(bucket, f"{prefix}{user_hex}/"))


def used_bytes(kind: str, user_hex: str) -> int:
    """This month's finished bytes and every staged upload: what a new upload adds to."""
    return sum(month_bytes(kind, user_hex, this_month())) + staged_bytes(kind, user_hex)


def staged_sweep(now: datetime | None = None) -> int:
    """Delete the staged uploads older than STGY_MEDIA_STAGING_TTL_SECONDS in every
    staging folder, and the track finalizes (TrackUpload rows) begun before then;
    returns how many objects. A store that fails is logged and the others are still
    swept (the next run retries)."""
    cutoff = (now or datetime.now(UTC)) - timedelta(seconds=settings.STGY_MEDIA_STAGING_TTL_SECONDS)
    TrackUpload.objects.filter(created_at__lt=cutoff).delete()
    deleted = 0
    for bucket, prefix in _staging(IMAGES) + _staging(TRACKS):
        try:
            for obj in storage.list_objects(bucket, prefix):
                if obj.last_modified is not None and obj.last_modified < cutoff:
                    storage.delete(bucket, obj.key)
                    deleted += 1
        except Exception:  # any backend's storage errors
            log.exception("could not sweep the staged uploads of %s", bucket)
    return deleted
