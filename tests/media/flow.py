"""The client side of the presigned flow, as static/stgy-upload.js does it."""

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client


def _folder(kind: str) -> str:
    return kind if kind in ("images", "tracks") else "profiles/avatar"


def presign(client, user, data: bytes, filename: str, kind: str = "images"):
    path = f"/api/media/{user.hex_id}/{_folder(kind)}/presigned"
    return client.post(path, {"filename": filename, "sizeBytes": len(data)}, format="json")


def upload(presigned: dict, data: bytes, filename: str = "upload.bin", **overrides):
    fields = dict(presigned["fields"], **overrides)
    content_type = fields.get("Content-Type", "application/octet-stream")
    fields["file"] = SimpleUploadedFile(filename, data, content_type=content_type)
    return Client().post(presigned["url"], fields)  # no cookies, as the browser sends none


def finalize(client, user, key: str, kind: str = "images"):
    path = f"/api/media/{user.hex_id}/{_folder(kind)}/finalize"
    return client.post(path, {"key": key}, format="json")


def full_flow(client, user, data: bytes, filename: str = "photo.jpg", kind: str = "images"):
    response = presign(client, user, data, filename, kind)
    assert response.status_code == 200, response.content
    presigned = response.json()
    uploaded = upload(presigned, data, filename)
    assert uploaded.status_code == 204, uploaded.content
    return finalize(client, user, presigned["objectKey"], kind)
