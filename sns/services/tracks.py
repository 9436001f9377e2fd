"""Tracks (docs/media.md §9): presigned upload, finalize, list, quota, read and delete of
FIT and TrackJSON (.trjgz) files, with the original's limits, key layout and error
texts. As for images, every refusal is a 400 `{error}` except "forbidden" and the
throttle (403), and a refused upload leaves nothing behind."""

from __future__ import annotations

import logging
import re
import uuid
from datetime import UTC, datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone as dj_timezone

from .. import throttle
from ..errors import InvalidInput
from ..ids import id_to_hex
from ..media import fit, keys, signing, storage, trackjson
from ..models import User
from ..models_media import MediaTrack
from . import media_usage
from .media import _target, _valid_size, deletable_master_key, masters_page, read_user_object

TRACK_POSTS = throttle.Limit("track-posts", "STGY_HOURLY_IMAGE_POSTS_COUNT_LIMIT", None, "too often track posts")
KINDS = {"fit": (".fit", "application/octet-stream"), "trjgz": (".trjgz", "application/gzip")}
ACCEPTED_TYPES = {"fit": {"application/octet-stream", "application/vnd.ant.fit"},
                  "trjgz": {"application/gzip", "application/x-gzip"}}
PREVIEW_TYPE = "application/gzip"
LINE_POINTS = 500  # positions a page gets to draw a track (sns/media/maps.py)
_YYYYMM = re.compile(r"^\d{6}$")
log = logging.getLogger(__name__)


def kind_of(name: str) -> str | None:
    lower = (name or "").lower()
    return next((kind for kind, (ext, _mime) in KINDS.items() if lower.endswith(ext)), None)


def _limit_single() -> int | None:
    return settings.STGY_MEDIA_TRACK_BYTE_LIMIT or None


def _limit_monthly(actor: User, target: User) -> int | None:
    # The original: the path user's admin flag (the actor's, if self) lifts the monthly
    # quota only; the single-file limit binds admins too.
    return None if target.is_admin else (settings.STGY_MEDIA_TRACK_BYTE_LIMIT_PER_MONTH or None)


def _json_limits() -> dict:
    return {"maxFeatures": settings.STGY_MEDIA_TRACK_JSON_FEATURE_LIMIT,
            "maxPoints": settings.STGY_MEDIA_TRACK_JSON_POINT_LIMIT,
            "maxPropertyValues": settings.STGY_MEDIA_TRACK_JSON_PROPERTY_VALUE_LIMIT,
            "maxDepth": settings.STGY_MEDIA_TRACK_JSON_DEPTH_LIMIT}


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


def _preview(kind: str, data: bytes) -> tuple[dict, bytes]:
    """The whole document and the preview's gzip bytes; TrackError for anything unreadable."""
    if kind == "fit":
        if not fit.sniff(data[:64]):
            raise trackjson.TrackError("not a FIT file")
        document = fit.to_trackjson(data, max_points=settings.STGY_MEDIA_TRACK_JSON_POINT_LIMIT)
    else:
        if data[:3] != b"\x1f\x8b\x08":
            raise trackjson.TrackError("not a gzip file")
        text = trackjson.gunzip_limited(data, settings.STGY_MEDIA_TRACK_JSON_BYTE_LIMIT)
        document = trackjson.parse(text, _json_limits())
    preview = trackjson.compact(trackjson.downsample(document, settings.STGY_MEDIA_TRACK_PREVIEW_MAX_POINTS))
    preview = trackjson.label_points_of_interest(preview, _place_label)
    return document, trackjson.gzip_json(preview)


def _place_label(lon: float, lat: float) -> str | None:
    """The original labels a track's reference points with Japanese addresses."""
    try:
        from ..geo.service import geocoder

        places = geocoder().decode(lon, lat, "ja")
    except Exception:  # labels are decoration; a geocoder fault must not refuse a track
        log.exception("no place label for %s,%s", lon, lat)
        return None
    addresses = places[0]["addresses"] if places else []
    chosen = next((a for a in addresses if a.get("locale") == "ja"), addresses[0] if addresses else None)
    label = (chosen or {}).get("label", "").strip()
    return label or None


def _title(document: dict) -> str:
    for feature in document.get("features") or []:
        props = feature.get("properties") if isinstance(feature, dict) else None
        if isinstance(props, dict):
            for value in (props.get("title"), (props.get("metadata") or {}).get("name")
                          if isinstance(props.get("metadata"), dict) else None):
                if isinstance(value, str) and value.strip():
                    return value.strip()[:200]
    return ""


def _object(bucket: str, key: str, size: int, mime: str, metadata: dict, preview_key: str) -> dict:
    return {"bucket": bucket, "key": key, "size": size, "contentType": mime,
            "lastModified": dj_timezone.now().isoformat(), "metadata": metadata,
            "publicUrl": storage.public_url(bucket, key), "previewKey": preview_key,
            "previewUrl": storage.public_url(bucket, preview_key)}


def track_finalize(actor: User, user_id: int, staging_key) -> dict:
    target = _target(actor, user_id, write=True)
    user_hex = id_to_hex(target.id)
    key = staging_key if isinstance(staging_key, str) else ""
    if not keys.is_under(f"tracks-staging/{user_hex}", key) or key.count("/") != 2:
        raise InvalidInput("invalid key")
    throttle.throttle_check(actor, TRACK_POSTS, count=False)
    bucket = storage.tracks_bucket()
    kind = kind_of(key)
    if kind is None:
        storage.delete(bucket, key)
        raise InvalidInput("unsupported track file")
    data = storage.read(bucket, key)
    if not data:
        raise InvalidInput("not found")
    try:
        if _limit_single() and len(data) > _limit_single():
            raise InvalidInput("file too large")
        staged_type = storage.content_type(bucket, key)
        if staged_type is not None and staged_type.split(";")[0].strip().lower() not in ACCEPTED_TYPES[kind]:
            raise InvalidInput("unsupported content type")
        try:
            document, preview = _preview(kind, data)
        except trackjson.TrackError:
            raise InvalidInput("invalid track data") from None
        now = datetime.now(UTC)
        monthly = _limit_monthly(actor, target)
        # The staged file counts in the use already (docs/media.md §2); it becomes the master.
        if monthly and media_usage.used_bytes(media_usage.TRACKS, user_hex) + len(preview) > monthly:
            raise InvalidInput("monthly quota exceeded")
    except InvalidInput:
        storage.delete(bucket, key)
        raise
    ext, mime = KINDS[kind]
    master_key = keys.master_key(user_hex, key, ext, now)
    preview_key = keys.track_preview_key(master_key)
    summary = trackjson.summary(document, LINE_POINTS)
    try:
        with transaction.atomic():
            # The row first: a second finalize of the same upload stops at its unique
            # staging key (waiting for the first to commit) before writing anything.
            MediaTrack.objects.create(
                preview_key=preview_key, master_key=master_key, staging_key=key, owner=target,
                title=_title(document), min_lon=summary["bbox"][0], min_lat=summary["bbox"][1],
                max_lon=summary["bbox"][2], max_lat=summary["bbox"][3], distance_m=summary["distance_m"],
                point_count=summary["point_count"], lines=summary["lines"])
            storage.write(bucket, master_key, data, mime)
            storage.write(bucket, preview_key, preview, PREVIEW_TYPE)
    except IntegrityError:
        raise InvalidInput("not found") from None  # the other finalize made the track
    except Exception:
        for written in (master_key, preview_key):
            storage.delete(bucket, written)
        raise
    storage.delete(bucket, key)
    throttle.throttle_record(actor, TRACK_POSTS)  # counted once the track exists
    return {
        "master": _object(bucket, master_key, len(data), mime,
                          {"track-format": kind, "preview-key": preview_key}, preview_key),
        "preview": _object(bucket, preview_key, len(preview), PREVIEW_TYPE, {}, preview_key),
    }


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
