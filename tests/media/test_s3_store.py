"""The same flow against an S3-compatible server: moto's standalone server, a real HTTP
S3 endpoint in a thread (boto3 and django-storages talk to it over the network). Skips
when moto is not installed."""

from __future__ import annotations

import io
import socket

import pytest
import requests
from PIL import Image

from sns.media import storage
from tests.conftest import login_client
from tests.media.conftest import make_image
from tests.media.flow import finalize, presign

pytestmark = pytest.mark.django_db
moto_server = pytest.importorskip("moto.server", reason="needs moto[server] (the test extras)")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def s3(settings):
    port = _free_port()
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    settings.STGY_STORAGE_DRIVER = "s3"
    settings.STGY_STORAGE_S3_ENDPOINT = endpoint
    settings.STGY_STORAGE_S3_ACCESS_KEY_ID = "testing"
    settings.STGY_STORAGE_S3_SECRET_ACCESS_KEY = "testing"
    settings.STGY_STORAGE_S3_BUCKET_PREFIX = f"t{port}"
    settings.STGY_STORAGE_PUBLIC_URL_PREFIX = endpoint + "/{bucket}/"
    for name in (storage.images_bucket(), storage.profiles_bucket(), storage.tracks_bucket()):
        storage.bucket(name).client().create_bucket(Bucket=name)
    yield endpoint
    server.stop()


def _upload(presigned: dict, data: bytes):
    content_type = presigned["fields"]["Content-Type"]
    return requests.post(presigned["url"], data=presigned["fields"],
                         files={"file": ("upload", data, content_type)}, timeout=10)


def test_presigned_post_to_s3_then_finalize(human, s3):
    client = login_client(human)
    data = make_image("JPEG", size=(700, 500), exif_gps=True)
    presigned = presign(client, human, data, "beach.jpg").json()
    assert presigned["url"] == f"{s3}/{storage.images_bucket()}"
    assert {"key", "policy", "Content-Type"} <= set(presigned["fields"])
    assert _upload(presigned, data).status_code in (200, 201, 204)
    meta = finalize(client, human, presigned["objectKey"]).json()
    assert meta["publicUrl"] == f"{s3}/{storage.images_bucket()}/{meta['key']}"
    # Read back from the store: the stripped master and the thumbnail.
    master = Image.open(io.BytesIO(storage.read(storage.images_bucket(), meta["key"])))
    assert master.size == (700, 500) and len(master.getexif()) == 0
    keys = [o.key for o in storage.list_objects(storage.images_bucket(), "")]
    assert not [k for k in keys if k.startswith("staging/")]
    assert any(k.endswith("_image.webp") for k in keys) and meta["key"] in keys
    listed = client.get(f"/api/media/{human.hex_id}/images").json()
    assert [row["key"] for row in listed] == [meta["key"]]
    assert finalize(client, human, presigned["objectKey"]).json() == {"error": "not found"}
    rest = meta["key"].split("/", 1)[1]
    assert client.delete(f"/api/media/{human.hex_id}/images/{rest}").json() == {"result": "ok"}
    assert storage.list_objects(storage.images_bucket(), "") == []


def test_not_an_image_in_s3_is_refused_and_removed(human, s3):
    client = login_client(human)
    presigned = presign(client, human, b"x" * 20, "x.png").json()
    _upload(presigned, b"<svg onload=alert(1)>")
    assert finalize(client, human, presigned["objectKey"]).json() == {"error": "invalid image data"}
    assert storage.list_objects(storage.images_bucket(), "") == []


def test_avatar_in_s3(human, s3):
    client = login_client(human)
    data = make_image("PNG", size=(256, 256))
    presigned = presign(client, human, data, "me.png", kind="avatar").json()
    _upload(presigned, data)
    assert finalize(client, human, presigned["objectKey"], kind="avatar").status_code == 200
    got = client.get(f"/api/media/{human.hex_id}/profiles/avatar")
    assert got.status_code == 200 and Image.open(io.BytesIO(got.content)).size == (256, 256)


def test_a_track_in_s3_and_its_stored_content_type(human, s3):
    from tests.media.track_files import make_fit

    client = login_client(human)
    data = make_fit()
    presigned = presign(client, human, data, "ride.fit", kind="tracks").json()
    assert presigned["url"] == f"{s3}/{storage.tracks_bucket()}"
    assert _upload(presigned, data).status_code in (200, 201, 204)
    done = finalize(client, human, presigned["objectKey"], kind="tracks").json()
    assert done["master"]["publicUrl"] == f"{s3}/{storage.tracks_bucket()}/{done['master']['key']}"
    assert storage.content_type(storage.tracks_bucket(), done["preview"]["key"]) == "application/gzip"
    listed = client.get(f"/api/media/{human.hex_id}/tracks").json()
    assert [row["previewKey"] for row in listed] == [done["preview"]["key"]]
    # An object staged with another type (not through our presigned policy) is refused.
    key = f"tracks-staging/{human.hex_id}/odd.fit"
    storage.write(storage.tracks_bucket(), key, data, "text/html")
    assert finalize(client, human, key, kind="tracks").json() == {"error": "unsupported content type"}
    assert storage.read(storage.tracks_bucket(), key) is None


def test_the_staging_sweep_deletes_expired_uploads_from_s3_and_leaves_fresh_ones(human, s3, settings):
    """The beat task's sweep against the S3 server, by the objects' LastModified: fresh
    ones stay, ones older than STGY_MEDIA_STAGING_TTL_SECONDS go, finished ones stay."""
    from datetime import UTC, datetime, timedelta

    from sns.services.media_usage import staged_sweep

    settings.STGY_MEDIA_STAGING_TTL_SECONDS = 3600
    client = login_client(human)
    kept = finalize(client, human, _staged(client, human, make_image("JPEG"), "kept.jpg")).json()["key"]
    staged = [(storage.images_bucket(), _staged(client, human, make_image("PNG"), "a.png")),
              (storage.profiles_bucket(), _staged(client, human, make_image("PNG"), "me.png", "avatar"))]
    assert client.get(f"/api/media/{human.hex_id}/images/quota").json()["bytesStaged"] > 0
    assert staged_sweep() == 0  # all fresh
    assert all(storage.read(bucket, key) is not None for bucket, key in staged)
    assert staged_sweep(now=datetime.now(UTC) + timedelta(seconds=3600 + 120)) == 2
    assert all(storage.read(bucket, key) is None for bucket, key in staged)
    assert storage.read(storage.images_bucket(), kept) is not None
    assert client.get(f"/api/media/{human.hex_id}/images/quota").json()["bytesStaged"] == 0


def _staged(client, user, data: bytes, filename: str, kind: str = "images") -> str:
    presigned = presign(client, user, data, filename, kind=kind).json()
    assert _upload(presigned, data).status_code in (200, 201, 204)
    return presigned["objectKey"]
