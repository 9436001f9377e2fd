"""Tracks (docs/media.md §9): presigned upload, finalize, list, quota, read and delete of
FIT and TrackJSON (.trjgz) files, with the original's limits, key layout and error
texts. As for images, every refusal is a 400 `{error}` except "forbidden" and the
throttle (403), and a refused upload leaves nothing behind.

Finalize checks what is cheap in the request and hands the parsing to the task
`sns.process_track` (sns/services/track_processing.py); it waits for the result at most
STGY_MEDIA_TRACK_FINALIZE_WAIT_MS, then answers `status: "processing"` (202) with the
keys the track will have, and `GET .../tracks/finalize?key=` tells how it ended."""

from __future__ import annotations

import re
import time
import uuid
from datetime import UTC, datetime

from django.conf import settings
from django.db import IntegrityError

from ..core import throttle
from ..core.errors import InvalidInput
from ..core.ids import id_to_hex
from ..extensions import submit_task
from ..media import keys, signing, storage
from ..models import User
from ..models.media import MediaTrack, TrackUpload
from . import media_usage
from .media import (
    _target,
    _valid_size,
    deletable_master_key,
    masters_page,
    read_user_object,
    staged_upload_key,
)
from .track_processing import KINDS, kind_of, upload_answer
from .track_tasks import process_track

TRACK_POSTS = throttle.Limit("track-posts", "STGY_HOURLY_IMAGE_POSTS_COUNT_LIMIT", None, "too often track posts")
ACCEPTED_TYPES = {"fit": {"application/octet-stream", "application/vnd.ant.fit"},
                  "trjgz": {"application/gzip", "application/x-gzip"}}
_YYYYMM = re.compile(r"^\d{6}$")
_POLL_SECONDS = 0.1


def _limit_single() -> int | None:
    return settings.STGY_MEDIA_TRACK_BYTE_LIMIT or None


def _limit_monthly(actor: User, target: User) -> int | None:
    # The original: the path user's admin flag (the actor's, if self) lifts the monthly
    # quota only; the single-file limit binds admins too.
    return None if target.is_admin else (settings.STGY_MEDIA_TRACK_BYTE_LIMIT_PER_MONTH or None)


def track_presign(actor: User, user_id: int, filename, size_bytes, site_url: str = "") -> dict:
    target = _target(actor, user_id, write=True)
    throttle.throttle_check(actor, TRACK_POSTS, count=False)
    size = _valid_size(size_bytes)
    if _limit_single() and size > _limit_single():
        raise InvalidInput("file too large")
    kind = kind_of(filename if isinstance(filename, str) else "")
    if kind is None:
        raise InvalidInput("unsupported track file")
    monthly = _limit_monthly(actor, target)
    user_hex = id_to_hex(target.id)
    if monthly and media_usage.used_bytes(media_usage.TRACKS, user_hex) + size > monthly:
        raise InvalidInput("monthly quota exceeded")
    ext, mime = KINDS[kind]
    key = f"tracks-staging/{user_hex}/{uuid.uuid4()}{ext}"
    quota = {"kind": media_usage.TRACKS, "user": user_hex, "limit": monthly} if monthly else None
    return signing.presign(storage.tracks_bucket(), key, mime, _limit_single(), site_url, quota=quota)


def track_finalize(actor: User, user_id: int, staging_key) -> dict:
    """Start the finalize of a staged track file and answer how far it got within
    STGY_MEDIA_TRACK_FINALIZE_WAIT_MS (`upload_answer`); InvalidInput for a refusal known
    by then. Every finalize that names a well-formed key counts against the hourly limit,
    refused or not, so a refused upload cannot be repeated without limit."""
    target, user_hex, key = staged_upload_key(actor, user_id, staging_key, "tracks-staging", TRACK_POSTS)
    bucket = storage.tracks_bucket()
    kind = kind_of(key)
    if kind is None:
        storage.delete(bucket, key)
        raise InvalidInput("unsupported track file")
    if TrackUpload.objects.filter(staging_key=key).exists():
        raise InvalidInput("not found")  # finalized before (the original: it is gone)
    size = _staged_size(bucket, key)
    if not size:
        raise InvalidInput("not found")
    try:
        if _limit_single() and size > _limit_single():
            raise InvalidInput("file too large")
        staged_type = storage.content_type(bucket, key)
        if staged_type is not None and staged_type.split(";")[0].strip().lower() not in ACCEPTED_TYPES[kind]:
            raise InvalidInput("unsupported content type")
    except InvalidInput:
        storage.delete(bucket, key)
        raise
    master_key = keys.master_key(user_hex, key, KINDS[kind][0], datetime.now(UTC))
    try:
        upload = TrackUpload.objects.create(
            staging_key=key, owner=target, master_key=master_key,
            preview_key=keys.track_preview_key(master_key), size=size)
    except IntegrityError:
        raise InvalidInput("not found") from None  # a finalize of the same upload just began
    submit_task(process_track, upload.id)
    return _answer(_wait(upload, settings.STGY_MEDIA_TRACK_FINALIZE_WAIT_MS / 1000))


def _staged_size(bucket: str, key: str) -> int:
    store = storage.bucket(bucket).storage
    try:
        return store.size(key) if store.exists(key) else 0
    except (OSError, ValueError):  # a local "folder" key, or a store's refusal
        return 0


def _wait(upload: TrackUpload, seconds: float) -> TrackUpload:
    """The upload once its task has finished, or as it is after `seconds` (0: at once,
    unread)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        upload.refresh_from_db(fields=["state", "error", "size", "preview_size"])
        if upload.state != TrackUpload.PROCESSING:
            break
        time.sleep(min(_POLL_SECONDS, max(0.0, deadline - time.monotonic())))
    return upload


def _answer(upload: TrackUpload) -> dict:
    if upload.state == TrackUpload.REFUSED:
        raise InvalidInput(upload.error or "invalid track data")
    return upload_answer(upload)


def track_finalize_state(actor: User, user_id: int, staging_key) -> dict:
    """How the finalize of `staging_key` ended, or that it is still processing: the poll
    of a finalize that answered 202."""
    target = _target(actor, user_id, write=False)
    key = staging_key if isinstance(staging_key, str) else ""
    upload = TrackUpload.objects.filter(staging_key=key, owner=target).first()
    if upload is None:
        raise InvalidInput("not found")
    return _answer(upload)


def track_list(actor: User, user_id: int, offset: int, limit: int, after: str | None) -> list[dict]:
    target = _target(actor, user_id, write=False)
    rows = masters_page(target, storage.tracks_bucket(), offset, limit, after)
    for row in rows:
        row["previewKey"] = keys.track_preview_key(row["key"])
        row["previewUrl"] = storage.public_url(row["bucket"], row["previewKey"])
    return rows


def track_quota(actor: User, user_id: int, yyyymm: str | None = None) -> dict:
    target = _target(actor, user_id, write=False)
    if yyyymm:
        if not _YYYYMM.match(yyyymm) or not (int(yyyymm[:4]) >= 1970 and 1 <= int(yyyymm[4:]) <= 12):
            raise InvalidInput("invalid month")
    else:
        yyyymm = media_usage.this_month()
    user_hex = id_to_hex(target.id)
    masters, previews = media_usage.month_bytes(media_usage.TRACKS, user_hex, yyyymm)
    staged = media_usage.staged_bytes(media_usage.TRACKS, user_hex) if yyyymm == media_usage.this_month() else 0
    return {
        "userId": user_hex, "yyyymm": yyyymm, "bytesMasters": masters, "bytesPreviews": previews,
        "bytesStaged": staged, "bytesTotal": masters + previews + staged, "limitSingleBytes": _limit_single(),
        "limitMonthlyBytes": _limit_monthly(actor, target),
    }


def track_bytes(actor: User, user_id: int, rest: str) -> tuple[bytes, str]:
    target = _target(actor, user_id, write=False)
    full, data = read_user_object(target, storage.tracks_bucket(), rest, ("masters", "previews"))
    kind = kind_of(full)
    return data, KINDS[kind][1] if kind else "application/octet-stream"


def track_delete(actor: User, user_id: int, rest: str) -> None:
    target = _target(actor, user_id, write=True)
    full = deletable_master_key(target, rest)
    bucket = storage.tracks_bucket()
    storage.delete(bucket, full)
    preview_key = keys.track_preview_key(full)
    storage.delete(bucket, preview_key)
    MediaTrack.objects.filter(preview_key=preview_key).delete()
