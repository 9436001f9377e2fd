"""The local driver's stand-ins for S3 (docs/media.md §3): the upload endpoint that
checks a signed policy (sns/media/signing.py) and stores one staging object, and
read-only serving of finished images, thumbnails and tracks under /storage/<bucket>/<key>."""

from __future__ import annotations

import mimetypes
import time

from django.conf import settings
from django.core.cache import cache
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from sns.api.cors import origin_allowed
from sns.services import media_usage

from ..media import keys, signing, storage

_TYPES = {"trjgz": "application/gzip", "fit": "application/octet-stream"}


def _buckets() -> tuple[str, ...]:
    return storage.images_bucket(), storage.profiles_bucket(), storage.tracks_bucket()


def _refuse(status: int, message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _allow_frontend(view):
    """A frontend on another origin (STGY_CORS_ALLOWED_ORIGINS, e.g. the original's) may
    read the answer, as MinIO's CORS setting lets it for S3 uploads."""

    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        origin = request.META.get("HTTP_ORIGIN")
        if origin_allowed(origin):
            response["Access-Control-Allow-Origin"] = origin
        return response

    return wrapped


@csrf_exempt  # no cookie is used: the signature is the credential
@_allow_frontend
@require_POST
def upload(request):
    if settings.STGY_STORAGE_DRIVER != "local":
        return _refuse(404, "not found")
    try:
        policy = signing.check(request.POST)
    except signing.BadPolicy as exc:
        return _refuse(403, str(exc))
    if policy["bucket"] not in _buckets():
        return _refuse(403, "invalid policy")
    upload_file = request.FILES.get("file")
    if upload_file is None:
        return _refuse(400, "file is required")
    if upload_file.size <= 0 or (policy["maxBytes"] and upload_file.size > policy["maxBytes"]):
        return _refuse(400, "file size out of range")
    key = policy["key"]
    if not keys.is_safe(key):
        return _refuse(400, "invalid key")
    quota = policy.get("quota")
    if quota and media_usage.used_bytes(quota["kind"], quota["user"]) + upload_file.size > quota["limit"]:
        return _refuse(400, "monthly quota exceeded")
    # Each signed policy uploads once; the mark lives as long as the policy could.
    ttl = max(1, int(policy["expires"] - time.time()) + 5)
    if not cache.add(f"media:upload-used:{policy['nonce']}", 1, ttl):
        return _refuse(403, "upload URL already used")
    storage.write(policy["bucket"], key, upload_file.read(), policy["contentType"])
    return HttpResponse(status=204)


@require_GET
def serve(request, bucket: str, key: str):
    if settings.STGY_STORAGE_DRIVER != "local":
        raise Http404
    public = ("masters", "previews") if bucket == storage.tracks_bucket() else ("masters", "thumbs")
    if bucket not in _buckets() or not keys.is_public(key, public):
        raise Http404
    local = storage.bucket(bucket)
    if not local.storage.exists(key):
        raise Http404
    content_type = _TYPES.get(key.rsplit(".", 1)[-1]) or mimetypes.guess_type(key)[0] or "application/octet-stream"
    response = FileResponse(open(local.path(key), "rb"), content_type=content_type)  # noqa: SIM115 - FileResponse closes it
    response["Cache-Control"] = "public, max-age=86400"
    response["X-Content-Type-Options"] = "nosniff"
    return response
