"""/media/{userId}/images and /profiles/avatar through the API against the local store:
presign → upload to the signed endpoint → finalize, and every refusal."""

from __future__ import annotations

import io
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, TestCase
from PIL import Image

from sns.media import storage
from sns.models import User
from sns.models.media import MediaImage
from tests.conftest import login_client
from tests.factories import make_user
from tests.media.conftest import make_image
from tests.media.flow import finalize, full_flow, presign, upload

pytestmark = pytest.mark.django_db


def _files(settings) -> list[str]:
    root = settings.STGY_MEDIA_DIR
    return sorted(
        os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs
    ) if os.path.isdir(root) else []


def test_presign_upload_finalize_stores_master_and_thumbnail(human, settings):
    client = login_client(human)
    big = make_image("PNG", size=(1200, 900))
    response = full_flow(client, human, big, "scan.png")
    assert response.status_code == 200, response.content
    meta = response.json()
    key = meta["key"]
    assert key.startswith(f"{human.hex_id}/masters/") and key.endswith(".png")
    assert meta["bucket"] == "stgy-images" and meta["contentType"] == "image/png"
    assert meta["metadata"] == {"image-width": "1200", "image-height": "900"}
    assert meta["publicUrl"] == f"http://testserver/storage/stgy-images/{key}"
    # The original's thumbnail: WebP, at most 512×512 pixels, same aspect.
    rev, name = key.split("/")[2:]
    thumb_key = f"{human.hex_id}/thumbs/{rev}/{name[:-4]}_image.webp"
    thumb = Image.open(io.BytesIO(storage.read("stgy-images", thumb_key)))
    assert thumb.format == "WEBP" and thumb.width * thumb.height <= 512 * 512
    assert abs(thumb.width / thumb.height - 4 / 3) < 0.01
    # Staging is empty again; the row remembers the size for <img width height>.
    assert not [f for f in _files(settings) if "staging" in f]
    assert MediaImage.objects.get(key=key).width == 1200
    # The file is served at its public URL and through the API.
    served = client.get(meta["publicUrl"])
    assert served.status_code == 200 and served["Content-Type"] == "image/png"
    via_api = client.get(f"/api/media/{human.hex_id}/images/{key.split('/', 1)[1]}")
    assert via_api.status_code == 200 and via_api.content == b"".join(served.streaming_content)
    listed = client.get(f"/api/media/{human.hex_id}/images").json()
    assert [row["key"] for row in listed] == [key]
    quota = client.get(f"/api/media/{human.hex_id}/images/quota").json()
    assert quota["bytesMasters"] == meta["size"] and quota["bytesThumbs"] > 0


def test_exif_and_location_are_stripped_and_orientation_applied(human):
    client = login_client(human)
    photo = make_image("JPEG", size=(80, 40), exif_gps=True, orientation=6)
    assert Image.open(io.BytesIO(photo)).getexif().get(0x8825) is not None
    meta = full_flow(client, human, photo, "trip.JPEG").json()
    stored = Image.open(io.BytesIO(storage.read("stgy-images", meta["key"])))
    assert len(stored.getexif()) == 0 and "exif" not in stored.info
    # Orientation 6 means "rotate 90°": the pixels are turned instead of the tag kept.
    assert stored.size == (40, 80)
    assert meta["metadata"] == {"image-width": "40", "image-height": "80"}


def test_not_an_image_is_refused_and_removed(human, settings):
    client = login_client(human)
    presigned = presign(client, human, b"x" * 100, "fake.png").json()
    assert upload(presigned, b"<html>not an image</html>").status_code == 204
    response = finalize(client, human, presigned["objectKey"])
    assert response.status_code == 400 and response.json() == {"error": "invalid image data"}
    assert _files(settings) == []  # the staged bytes are gone too


def test_format_not_matching_extension_is_refused(human, settings):
    client = login_client(human)
    presigned = presign(client, human, b"x" * 10, "pic.jpg").json()
    upload(presigned, make_image("PNG"))
    response = finalize(client, human, presigned["objectKey"])
    assert response.json() == {"error": "file extension mismatch"} and _files(settings) == []


def test_finalizing_twice_is_refused(human):
    client = login_client(human)
    data = make_image()
    presigned = presign(client, human, data, "a.jpg").json()
    upload(presigned, data)
    assert finalize(client, human, presigned["objectKey"]).status_code == 200
    again = finalize(client, human, presigned["objectKey"])
    assert again.status_code == 400 and again.json() == {"error": "not found"}
    assert MediaImage.objects.count() == 1


def test_limits_and_quota(human, settings):
    client = login_client(human)
    settings.STGY_MEDIA_IMAGE_BYTE_LIMIT = 1000
    assert presign(client, human, b"x" * 1001, "a.jpg").json() == {"error": "file too large"}
    bad_type = presign(client, human, b"x" * 10, "a.gif")
    assert bad_type.status_code == 400 and bad_type.json() == {"error": "unsupported content type"}
    for size in (0, -1, "lots"):
        response = client.post(f"/api/media/{human.hex_id}/images/presigned",
                               {"filename": "a.jpg", "sizeBytes": size}, format="json")
        assert response.json() == {"error": "invalid sizeBytes"}
    # The signed policy holds the limit: bytes over it are refused at upload.
    presigned = presign(client, human, b"x" * 10, "a.png").json()
    assert presigned["maxBytes"] == 1000 and presigned["expiresInSec"] == 300
    # Absolute, as S3's is: the original's upload script posts to it as given.
    assert presigned["url"] == "http://testserver/storage/upload"
    refused = upload(presigned, make_image("PNG", size=(300, 300)) + b"\0" * 1000)
    assert refused.status_code == 400 and refused.json() == {"error": "file size out of range"}
    settings.STGY_MEDIA_IMAGE_BYTE_LIMIT = 10_000_000
    settings.STGY_MEDIA_IMAGE_BYTE_LIMIT_PER_MONTH = 2000
    assert full_flow(client, human, make_image("PNG", size=(10, 10))).status_code == 400  # name .jpg
    first = full_flow(client, human, make_image("PNG", size=(10, 10)), "a.png")
    assert first.status_code == 200
    used = client.get(f"/api/media/{human.hex_id}/images/quota").json()["bytesTotal"]
    assert presign(client, human, b"x" * (2001 - used), "b.png").json() == {"error": "monthly quota exceeded"}
    # Bytes that pass presign but overflow the month once finalized are refused there.
    presigned = presign(client, human, b"x" * 10, "c.png").json()
    upload(presigned, make_image("PNG", size=(200, 200), color=(1, 2, 3)) + b"")
    settings.STGY_MEDIA_IMAGE_BYTE_LIMIT_PER_MONTH = used + 20
    over = finalize(client, human, presigned["objectKey"])
    assert over.json() == {"error": "monthly quota exceeded"}
    assert len(client.get(f"/api/media/{human.hex_id}/images").json()) == 1


def test_too_many_pixels_is_refused(human, settings):
    client = login_client(human)
    settings.STGY_MEDIA_INPUT_MAX_DIMENSION = 100
    assert full_flow(client, human, make_image("PNG", size=(101, 10)), "w.png").json() == {
        "error": "image too large (dimension)"}
    settings.STGY_MEDIA_INPUT_MAX_PIXELS = 50
    assert full_flow(client, human, make_image("PNG", size=(10, 10)), "p.png").json() == {
        "error": "image too large (pixels)"}


def test_upload_url_reused_expired_tampered_or_foreign(human, settings, time_machine=None):
    client = login_client(human)
    data = make_image()
    presigned = presign(client, human, data, "a.jpg").json()
    assert upload(presigned, data).status_code == 204
    reused = upload(presigned, make_image(color=(0, 0, 0)))
    assert reused.status_code == 403 and reused.json() == {"error": "upload URL already used"}
    # Another key than the signed one, or a changed content type: the signature fails.
    other = presign(client, human, data, "b.jpg").json()
    moved = upload(other, data, key=f"staging/{human.hex_id}/../../elsewhere.jpg")
    assert moved.status_code == 403 and moved.json() == {"error": "key does not match the policy"}
    retyped = upload(other, data, **{"Content-Type": "text/html"})
    assert retyped.json() == {"error": "content type does not match the policy"}
    forged = upload(other, data, signature="0" * 64)
    assert forged.json() == {"error": "invalid signature"}
    settings.STGY_MEDIA_UPLOAD_EXPIRES_SECONDS = -1
    expired = presign(client, human, data, "c.jpg").json()
    assert upload(expired, data).json() == {"error": "upload URL expired"}
    # Someone else's staged upload cannot be finalized into your account (or theirs by you).
    mallory = make_user("Mallory")
    as_mallory = finalize(login_client(mallory), mallory, presigned["objectKey"])
    assert as_mallory.status_code == 400 and as_mallory.json() == {"error": "invalid key"}
    foreign = finalize(login_client(mallory), human, presigned["objectKey"])
    assert foreign.status_code == 403 and foreign.json() == {"error": "forbidden"}
    assert finalize(client, human, presigned["objectKey"]).status_code == 200


@pytest.mark.parametrize("key", [
    "staging/{me}/../{other}/x.jpg", "staging/{me}/./x.jpg", "staging/{me}/a\\..\\b.jpg",
    "staging/{me}", "{me}/masters/x.jpg", "", "staging/{me}//x.jpg",
])
def test_finalize_refuses_keys_outside_own_staging(human, key):
    other = make_user("Other")
    response = finalize(login_client(human), human, key.format(me=human.hex_id, other=other.hex_id))
    assert response.status_code == 400 and response.json() == {"error": "invalid key"}


def test_get_and_delete_refuse_dot_dot_and_staging(human):
    client = login_client(human)
    other = make_user("Other")
    meta = full_flow(client, human, make_image()).json()
    base = f"/api/media/{human.hex_id}/images"
    for rest in (f"masters/../../{other.hex_id}/masters/x.jpg", "staging/x.jpg", "masters/%2e%2e/x"):
        assert client.get(f"{base}/{rest}").json() == {"error": "invalid key"}
        assert client.delete(f"{base}/{rest}").status_code == 400
    assert client.get(f"/storage/stgy-images/staging/{human.hex_id}/x.jpg").status_code == 404
    assert client.get(f"/storage/stgy-images/{human.hex_id}/masters/../../x").status_code == 404
    rest = meta["key"].split("/", 1)[1]
    assert client.delete(f"{base}/{rest}").json() == {"result": "ok"}
    assert client.get(f"{base}/{rest}").json() == {"error": "not found"}
    assert client.get(base).json() == [] and not MediaImage.objects.exists()
    assert client.get(f"{base}/quota").json()["bytesTotal"] == 0  # the thumbnail went too


def test_other_users_images_are_forbidden_but_admin_may(human, admin):
    meta = full_flow(login_client(human), human, make_image()).json()
    mallory = make_user("Mallory")
    base = f"/api/media/{human.hex_id}/images"
    assert login_client(mallory).get(base).json() == {"error": "forbidden"}
    assert login_client(mallory).get(f"{base}/quota").status_code == 403
    assert presign(login_client(mallory), human, b"x", "a.jpg").status_code == 403
    assert [row["key"] for row in login_client(admin).get(base).json()] == [meta["key"]]
    assert login_client(admin).get(f"/api/media/{admin.hex_id}/images/quota").json()[
        "limitMonthlyBytes"] is None


def test_list_paging_and_bad_queries(human):
    client = login_client(human)
    keys = [full_flow(client, human, make_image(color=(i, 0, 0)), f"{i}.jpg").json()["key"] for i in range(3)]
    base = f"/api/media/{human.hex_id}/images"
    listed = [row["key"] for row in client.get(base).json()]
    assert listed == sorted(keys) and min(keys) == keys[-1]  # newest first
    assert [r["key"] for r in client.get(f"{base}?after={listed[0]}").json()] == listed[1:]
    assert [r["key"] for r in client.get(f"{base}?offset=1&limit=1").json()] == listed[1:2]
    assert client.get(f"{base}?after={listed[0]}&offset=1").json() == {"error": "after requires offset=0"}
    assert client.get(f"{base}?after=zzz").json() == {"error": "invalid after"}
    assert client.get(f"{base}/quota?yyyymm=2026-1").json() == {"error": "invalid yyyymm"}
    assert client.get(f"{base}/quota?yyyymm=202613").json() == {"error": "invalid month"}
    assert client.get(f"{base}/quota?yyyymm=202001").json()["bytesTotal"] == 0


def test_avatar_flow_sets_user_avatar_and_icon(human, settings):
    client = login_client(human)
    response = full_flow(client, human, make_image("PNG", size=(400, 300)), "me.png", kind="avatar")
    assert response.status_code == 200, response.content
    meta = response.json()
    assert meta["bucket"] == "stgy-profiles" and meta["key"] == f"{human.hex_id}/masters/avatar.png"
    human.refresh_from_db()
    assert human.avatar == f"stgy-profiles/{human.hex_id}/masters/avatar.png"
    icon = Image.open(io.BytesIO(storage.read("stgy-profiles", f"{human.hex_id}/thumbs/avatar_icon.webp")))
    assert icon.width * icon.height <= 128 * 128
    got = client.get(f"/api/media/{human.hex_id}/profiles/avatar")
    assert got.status_code == 200 and got["Content-Type"] == "image/png"
    # A new avatar replaces the old one, of another type too.
    full_flow(client, human, make_image("JPEG"), "me.jpg", kind="avatar")
    masters = [o.key for o in storage.list_objects("stgy-profiles", f"{human.hex_id}/masters/")]
    assert masters == [f"{human.hex_id}/masters/avatar.jpg"]
    assert client.get(f"/api/media/{human.hex_id}/profiles/banner").json() == {"error": "invalid slot"}
    assert client.delete(f"/api/media/{human.hex_id}/profiles/avatar").json() == {"result": "ok"}
    human.refresh_from_db()
    assert human.avatar is None and _files(settings) == []
    assert client.get(f"/api/media/{human.hex_id}/profiles/avatar").json() == {"error": "not found"}


def test_avatar_limit(human, settings):
    client = login_client(human)
    too_big = presign(client, human, b"x" * (1024 * 1024 + 1), "me.png", kind="avatar")
    assert too_big.json() == {"error": "file too large"}
    assert User.objects.get(pk=human.pk).avatar is None


def test_frozen_user_cannot_upload_and_anonymous_needs_login(human, api):
    assert api.post(f"/api/media/{human.hex_id}/images/presigned", {}, format="json").status_code == 401
    human.is_frozen = True
    human.save()
    assert presign(login_client(human), human, b"x", "a.jpg").json() == {"error": "user is frozen"}


def test_hourly_image_throttle(human, settings):
    settings.STGY_HOURLY_IMAGE_POSTS_COUNT_LIMIT = 1
    client = login_client(human)
    assert full_flow(client, human, make_image()).status_code == 200
    second = full_flow(client, human, make_image())
    assert second.status_code == 403 and second.json() == {"error": "too often image posts"}


def test_deleting_the_account_deletes_its_files(settings):
    from sns import services

    alice, bob = make_user("Alice"), make_user("Bob")
    full_flow(login_client(alice), alice, make_image())
    full_flow(login_client(alice), alice, make_image("PNG"), "me.png", kind="avatar")
    kept = full_flow(login_client(bob), bob, make_image()).json()["key"]
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.user_delete(alice, alice.id)
    assert [f for f in _files(settings) if alice.hex_id in f] == []
    assert storage.read("stgy-images", kept) is not None


def test_folder_keys_read_as_not_found(human):
    client = login_client(human)
    meta = full_flow(client, human, make_image()).json()
    folder = "/".join(meta["key"].split("/")[1:3])  # "masters/<revMM>"
    assert client.get(f"/api/media/{human.hex_id}/images/{folder}").json() == {"error": "not found"}


def test_an_allowed_frontend_origin_may_read_the_upload_answer(human, settings):
    settings.STGY_CORS_ALLOWED_ORIGINS = ["http://localhost:3000"]
    data = make_image()
    presigned = presign(login_client(human), human, data, "a.jpg").json()
    fields = dict(presigned["fields"], file=SimpleUploadedFile("a.jpg", data, content_type="image/jpeg"))
    answer = Client().post(presigned["url"], fields, HTTP_ORIGIN="http://localhost:3000")
    assert answer.status_code == 204 and answer["Access-Control-Allow-Origin"] == "http://localhost:3000"
    other = Client().post(presigned["url"], fields, HTTP_ORIGIN="http://evil.example")
    assert "Access-Control-Allow-Origin" not in other


def test_object_urls_are_absolute_for_a_frontend_on_another_origin(human, settings):
    """The original's frontend on its own port lists images cross-origin and loads each
    `publicUrl` as given: a path would name the frontend's host, so the local store's
    URLs come back absolute on the origin the API was reached at, as S3's do."""
    settings.STGY_CORS_ALLOWED_ORIGINS = ["http://localhost:3000"]
    settings.ALLOWED_HOSTS = ["api.example.org", "testserver"]
    client = login_client(human)
    headers = {"HTTP_HOST": "api.example.org", "HTTP_ORIGIN": "http://localhost:3000",
               "HTTP_X_FORWARDED_PROTO": "https"}
    key = full_flow(client, human, make_image(), "a.jpg").json()["key"]
    listed = client.get(f"/api/media/{human.hex_id}/images", **headers)
    assert listed.status_code == 200 and listed["Access-Control-Allow-Origin"] == "http://localhost:3000"
    assert listed.json()[0]["publicUrl"] == f"https://api.example.org/storage/stgy-images/{key}"
    # The URL serves the image from there, to any origin (an <img> needs no CORS).
    served = Client().get(f"/storage/stgy-images/{key}", HTTP_HOST="api.example.org")
    assert served.status_code == 200 and served["Content-Type"] == "image/jpeg"
    avatar = full_flow(client, human, make_image(), "me.jpg", "avatar")
    assert avatar.json()["publicUrl"].startswith("http://testserver/storage/stgy-profiles/")
    # A prefix that is already absolute (a CDN, S3) is left as it is.
    settings.STGY_STORAGE_PUBLIC_URL_PREFIX = "https://cdn.example.net/{bucket}/"
    assert client.get(f"/api/media/{human.hex_id}/images", **headers).json()[0]["publicUrl"] == (
        f"https://cdn.example.net/stgy-images/{key}")
