"""A track finalize's work, out of the request (docs/media.md §9, "Finalize"): the task
`sns.process_track` (sns/tasks.py) parses the staged file of a TrackUpload within its
budgets, makes the preview, checks the monthly quota and writes the track; the request
and the caller polling read the TrackUpload's state (sns/services/tracks.py).

Parsing is the costly part: Garmin's FIT decoder is pure Python, and a 10 MB file of
records without positions took a minute of a web worker. Here it runs on a
Celery worker, stopped by the budgets of sns/media/fit.py: positioned records, messages
of any kind, and STGY_MEDIA_TRACK_PARSE_SECONDS.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone as dj_timezone

from ..core.ids import id_to_hex
from ..media import fit, storage, trackjson
from ..models.media import MediaTrack, TrackUpload
from . import media_usage

KINDS = {"fit": (".fit", "application/octet-stream"), "trjgz": (".trjgz", "application/gzip")}
PREVIEW_TYPE = "application/gzip"
LINE_POINTS = 500  # positions a page gets to draw a track (sns/media/maps.py)
log = logging.getLogger(__name__)


def kind_of(name: str) -> str | None:
    lower = (name or "").lower()
    return next((kind for kind, (ext, _mime) in KINDS.items() if lower.endswith(ext)), None)


def _json_limits() -> dict:
    return {"maxFeatures": settings.STGY_MEDIA_TRACK_JSON_FEATURE_LIMIT,
            "maxPoints": settings.STGY_MEDIA_TRACK_JSON_POINT_LIMIT,
            "maxPropertyValues": settings.STGY_MEDIA_TRACK_JSON_PROPERTY_VALUE_LIMIT,
            "maxDepth": settings.STGY_MEDIA_TRACK_JSON_DEPTH_LIMIT}


def _preview(kind: str, data: bytes) -> tuple[dict, bytes]:
    """The whole document and the preview's gzip bytes; TrackError for anything unreadable
    or over a budget."""
    if kind == "fit":
        if not fit.sniff(data[:64]):
            raise trackjson.TrackError("not a FIT file")
        document = fit.to_trackjson(
            data, max_points=settings.STGY_MEDIA_TRACK_JSON_POINT_LIMIT,
            max_messages=settings.STGY_MEDIA_TRACK_FIT_MESSAGE_LIMIT,
            deadline=time.monotonic() + settings.STGY_MEDIA_TRACK_PARSE_SECONDS)
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


def _object(bucket: str, key: str, size: int | None, mime: str, metadata: dict, preview_key: str) -> dict:
    return {"bucket": bucket, "key": key, "size": size, "contentType": mime,
            "lastModified": dj_timezone.now().isoformat(), "metadata": metadata,
            "publicUrl": storage.public_url(bucket, key), "previewKey": preview_key,
            "previewUrl": storage.public_url(bucket, preview_key)}


def upload_answer(upload: TrackUpload) -> dict:
    """What finalize (and its poll) answers for an upload: the original's `{master,
    preview}` once done; the same objects (sizes still unknown for the preview) with
    `status: "processing"` before. A refused upload is the caller's 400 (`upload.error`)."""
    kind = kind_of(upload.master_key) or "fit"
    bucket, mime = storage.tracks_bucket(), KINDS[kind][1]
    done = upload.state == TrackUpload.DONE
    answer = {
        "master": _object(bucket, upload.master_key, upload.size, mime,
                          {"track-format": kind, "preview-key": upload.preview_key}, upload.preview_key),
        "preview": _object(bucket, upload.preview_key, upload.preview_size if done else None,
                           PREVIEW_TYPE, {}, upload.preview_key),
    }
    return answer if done else {"status": upload.state, **answer}


def _refuse(upload: TrackUpload, error: str) -> None:
    storage.delete(storage.tracks_bucket(), upload.staging_key)
    TrackUpload.objects.filter(pk=upload.pk).update(
        state=TrackUpload.REFUSED, error=error, finished_at=dj_timezone.now())


def track_process(upload_id: int) -> str:
    """Parse, check and write the track of one TrackUpload; returns its new state. Safe to
    run twice (a redelivered task): an upload no longer processing is left alone, and the
    MediaTrack row's unique staging key stops a second track."""
    upload = TrackUpload.objects.select_related("owner").filter(pk=upload_id).first()
    if upload is None or upload.state != TrackUpload.PROCESSING:
        return upload.state if upload else "gone"
    bucket, kind = storage.tracks_bucket(), kind_of(upload.staging_key)
    data = storage.read(bucket, upload.staging_key)
    if not data or kind is None:
        _refuse(upload, "not found")
        return TrackUpload.REFUSED
    try:
        document, preview = _preview(kind, data)
    except trackjson.TrackError as exc:
        log.info("track %s refused: %s", upload.staging_key, exc)
        _refuse(upload, "invalid track data")
        return TrackUpload.REFUSED
    owner = upload.owner
    monthly = None if owner.is_admin else (settings.STGY_MEDIA_TRACK_BYTE_LIMIT_PER_MONTH or None)
    # The staged file counts in the use already (docs/media.md §2); it becomes the master.
    if monthly and media_usage.used_bytes(media_usage.TRACKS, id_to_hex(owner.id)) + len(preview) > monthly:
        _refuse(upload, "monthly quota exceeded")
        return TrackUpload.REFUSED
    try:
        _write(upload, kind, data, document, preview)
    except Exception:  # a store's fault: the caller is told rather than left polling
        log.exception("could not store the track of %s", upload.staging_key)
        _refuse(upload, "could not store the track")
        return TrackUpload.REFUSED
    return TrackUpload.DONE


def _write(upload: TrackUpload, kind: str, data: bytes, document: dict, preview: bytes) -> None:
    bucket = storage.tracks_bucket()
    summary = trackjson.summary(document, LINE_POINTS)
    try:
        with transaction.atomic():
            # The row first: a second run for the same upload stops at its unique staging
            # key (waiting for the first to commit) before writing anything.
            MediaTrack.objects.create(
                preview_key=upload.preview_key, master_key=upload.master_key, staging_key=upload.staging_key,
                owner=upload.owner, title=_title(document), min_lon=summary["bbox"][0],
                min_lat=summary["bbox"][1], max_lon=summary["bbox"][2], max_lat=summary["bbox"][3],
                distance_m=summary["distance_m"], point_count=summary["point_count"], lines=summary["lines"])
            storage.write(bucket, upload.master_key, data, KINDS[kind][1])
            storage.write(bucket, upload.preview_key, preview, PREVIEW_TYPE)
            TrackUpload.objects.filter(pk=upload.pk).update(
                state=TrackUpload.DONE, size=len(data), preview_size=len(preview), finished_at=dj_timezone.now())
    except IntegrityError:
        return  # the other run made the track
    except Exception:
        for written in (upload.master_key, upload.preview_key):
            storage.delete(bucket, written)
        raise
    storage.delete(bucket, upload.staging_key)
