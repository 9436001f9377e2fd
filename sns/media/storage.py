"""Where image and track bytes live (docs/media.md §2): three buckets, "<prefix>-images",
"<prefix>-profiles" and "<prefix>-tracks", as in the original, each a Django Storage.

* local: a FileSystemStorage per bucket under STGY_MEDIA_DIR; uploads go to this site's
  own signed endpoint (sns/media/signing.py), files are served at /storage/.
* s3: django-storages' S3Storage per bucket (MinIO, AWS); uploads are S3 presigned
  POSTs made by boto3, files are served by the store itself.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from urllib.parse import quote

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage


@dataclass(frozen=True)
class StoredObject:
    bucket: str
    key: str
    size: int
    last_modified: datetime | None


def images_bucket() -> str:
    return f"{settings.STGY_STORAGE_S3_BUCKET_PREFIX}-images"


def profiles_bucket() -> str:
    return f"{settings.STGY_STORAGE_S3_BUCKET_PREFIX}-profiles"


def tracks_bucket() -> str:
    return f"{settings.STGY_STORAGE_S3_BUCKET_PREFIX}-tracks"


def public_url(bucket: str, key: str) -> str:
    escaped = "/".join(quote(part, safe="") for part in key.split("/"))
    return settings.STGY_STORAGE_PUBLIC_URL_PREFIX.replace("{bucket}", bucket) + escaped


class LocalBucket:
    def __init__(self, bucket: str):
        self.bucket = bucket
        self.storage = FileSystemStorage(location=os.path.join(settings.STGY_MEDIA_DIR, bucket))

    def path(self, key: str) -> str:
        return self.storage.path(key)

    def list(self, prefix: str) -> list[StoredObject]:
        # Keys are "/"-separated like S3's; walk the directory that holds the prefix.
        root = self.storage.location
        start = os.path.join(root, os.path.dirname(prefix))
        found = []
        for folder, _dirs, files in os.walk(start):
            for name in files:
                full = os.path.join(folder, name)
                key = os.path.relpath(full, root).replace(os.sep, "/")
                if key.startswith(prefix) and not name.startswith(".upload-"):
                    stat = os.stat(full)
                    found.append(StoredObject(self.bucket, key, stat.st_size,
                                              datetime.fromtimestamp(stat.st_mtime, timezone.utc)))
        return sorted(found, key=lambda o: o.key)


class S3Bucket:
    def __init__(self, bucket: str):
        from storages.backends.s3 import S3Storage

        self.bucket = bucket
        self.storage = S3Storage(
            bucket_name=bucket,
            endpoint_url=settings.STGY_STORAGE_S3_ENDPOINT or None,
            region_name=settings.STGY_STORAGE_S3_REGION,
            access_key=settings.STGY_STORAGE_S3_ACCESS_KEY_ID or None,
            secret_key=settings.STGY_STORAGE_S3_SECRET_ACCESS_KEY or None,
            addressing_style="path" if settings.STGY_STORAGE_S3_FORCE_PATH_STYLE else None,
            file_overwrite=True,
            querystring_auth=False,
            default_acl=None,
        )

    def client(self):
        return self.storage.connection.meta.client

    def list(self, prefix: str) -> list[StoredObject]:
        pages = self.client().get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=prefix)
        return [
            StoredObject(self.bucket, item["Key"], item["Size"], item.get("LastModified"))
            for page in pages
            for item in page.get("Contents", [])
        ]


@lru_cache(maxsize=8)
def _bucket(driver: str, name: str, media_dir: str):
    return S3Bucket(name) if driver == "s3" else LocalBucket(name)


def bucket(name: str):
    return _bucket(settings.STGY_STORAGE_DRIVER, name, str(settings.STGY_MEDIA_DIR))


def read(name: str, key: str) -> bytes | None:
    store = bucket(name).storage
    if not store.exists(key):
        return None
    try:
        with store.open(key, "rb") as handle:
            return handle.read()
    except IsADirectoryError:  # a local "folder" key such as "<user>/masters/797387"
        return None


def write(name: str, key: str, data: bytes, content_type: str) -> None:
    store = bucket(name).storage
    content = ContentFile(data)
    content.content_type = content_type  # S3Storage sends it as the object's Content-Type
    if isinstance(store, FileSystemStorage) and store.exists(key):
        store.delete(key)  # FileSystemStorage would pick a new name instead of overwriting
    store.save(key, content)


def content_type(name: str, key: str) -> str | None:
    """The type S3 recorded for an object; None for the local store, whose signed upload
    policy already pinned it (sns/media/signing.py)."""
    store = bucket(name)
    if not isinstance(store, S3Bucket):
        return None
    try:
        return store.client().head_object(Bucket=name, Key=key).get("ContentType")
    except Exception:  # noqa: BLE001 - botocore's ClientError for a missing object
        return None


def delete(name: str, key: str) -> None:
    bucket(name).storage.delete(key)


def list_objects(name: str, prefix: str) -> list[StoredObject]:
    return bucket(name).list(prefix)
