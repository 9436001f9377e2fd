"""Presigned uploads (docs/media.md §3). The client gets `{url, fields, objectKey,
maxBytes, expiresInSec}` and POSTs the fields plus a `file` part to `url`, as the
original's frontend does against S3.

With S3 the store checks the policy. With the local driver this module signs the same
kind of policy with HMAC-SHA256 (key derived from SECRET_KEY) and sns/api/storage_views.py
checks it: the key, the one content type, the byte range and the expiry cannot be
changed, and each signed policy uploads once.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time

from django.conf import settings
from django.urls import reverse

from . import storage


class BadPolicy(Exception):
    pass


def _secret() -> bytes:
    return hashlib.sha256(b"stgy-media-upload:" + settings.SECRET_KEY.encode()).digest()


def _sign(policy: str) -> str:
    return hmac.new(_secret(), policy.encode(), hashlib.sha256).hexdigest()


def presign(bucket: str, key: str, content_type: str, max_bytes: int | None, site_url: str = "",
            *, quota: dict | None = None) -> dict:
    """`site_url` ("https://host/"): the local upload URL is absolute, as S3's is, for
    clients that post to it as given (the original's scripts/upload-embedded-images.py).
    `quota` ({kind, user, limit}): the monthly quota the local upload endpoint checks again
    when the bytes arrive (sns/services/media_usage.py); S3 cannot, and the presign's own
    check and the staging expiry bound it there."""
    expires = settings.STGY_MEDIA_UPLOAD_EXPIRES_SECONDS
    if settings.STGY_STORAGE_DRIVER == "s3":
        conditions: list = [{"Content-Type": content_type}]
        if max_bytes:
            conditions.append(["content-length-range", 1, max_bytes])
        post = storage.bucket(bucket).client().generate_presigned_post(
            Bucket=bucket, Key=key, Fields={"Content-Type": content_type},
            Conditions=conditions, ExpiresIn=expires,
        )
        url = settings.STGY_STORAGE_PUBLIC_URL_PREFIX.replace("{bucket}", bucket).rstrip("/")
        fields = post["fields"]
    else:
        policy = base64.urlsafe_b64encode(json.dumps({
            "bucket": bucket, "key": key, "contentType": content_type,
            "maxBytes": max_bytes or 0, "expires": int(time.time()) + expires,
            "nonce": secrets.token_hex(12), **({"quota": quota} if quota else {}),
        }, separators=(",", ":")).encode()).decode()
        url = site_url.rstrip("/") + reverse("media-local-upload")
        fields = {"key": key, "Content-Type": content_type, "policy": policy, "signature": _sign(policy)}
    return {"url": url, "fields": fields, "objectKey": key, "maxBytes": max_bytes or 0,
            "expiresInSec": expires}


def check(fields: dict) -> dict:
    """The policy of a local upload form, or BadPolicy with the reason."""
    policy, signature = fields.get("policy") or "", fields.get("signature") or ""
    if not policy or not signature or not hmac.compare_digest(_sign(policy), signature):
        raise BadPolicy("invalid signature")
    try:
        data = json.loads(base64.urlsafe_b64decode(policy.encode()))
    except ValueError:
        raise BadPolicy("invalid policy") from None
    if data["expires"] < time.time():
        raise BadPolicy("upload URL expired")
    if fields.get("key") != data["key"]:
        raise BadPolicy("key does not match the policy")
    if fields.get("Content-Type") != data["contentType"]:
        raise BadPolicy("content type does not match the policy")
    return data
