"""/media/{userId}/tracks through the API against the local store: presign → upload to
the signed endpoint → finalize, list, quota, read, delete, and every refusal, with real
FIT and TrackJSON files."""

from __future__ import annotations

import gzip
import json
import os

import pytest
from django.test import Client

from sns.media import storage
from sns.models.media import MediaTrack
from tests.conftest import login_client
from tests.factories import make_user
from tests.media.flow import finalize, full_flow, presign, upload
from tests.media.track_files import make_fit, make_trjgz, route, trackjson_document

pytestmark = pytest.mark.django_db
BUCKET = "stgy-tracks"


def _files(settings) -> list[str]:
    root = settings.STGY_MEDIA_DIR
    return sorted(
        os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs
    ) if os.path.isdir(root) else []


def _staged(client, user, data: bytes, filename: str) -> str:
    presigned = presign(client, user, data, filename, "tracks").json()
    assert upload(presigned, data, filename).status_code == 204
    return presigned["objectKey"]


def test_fit_upload_makes_master_preview_and_row(human, settings):
    client = login_client(human)
    data = make_fit(route(40))
    response = full_flow(client, human, data, "ride.fit", "tracks")
    assert response.status_code == 200, response.content
    master, preview = response.json()["master"], response.json()["preview"]
    assert master["key"].startswith(f"{human.hex_id}/masters/") and master["key"].endswith(".fit")
    assert master["bucket"] == BUCKET and master["size"] == len(data)
    assert master["contentType"] == "application/octet-stream"
    assert master["metadata"] == {"track-format": "fit", "preview-key": master["previewKey"]}
    rev, name = master["key"].split("/")[2:]
    assert master["previewKey"] == preview["key"] == f"{human.hex_id}/previews/{rev}/{name[:-4]}.trjgz"
    assert preview["contentType"] == "application/gzip" and preview["previewUrl"] == preview["publicUrl"]
    assert master["publicUrl"] == f"http://testserver/storage/{BUCKET}/{master['key']}"
    # The preview is TrackJSON with the original's reference points and series.
    document = json.loads(gzip.decompress(storage.read(BUCKET, preview["key"])))
    assert [p["role"] for p in document["poi"]] == ["start", "end", "midway", "centroid", "furthest"]
    assert document["poi"][0]["coordinates"] == [139.7671, 35.6812]
    feature = document["features"][0]
    assert len(feature["geometry"]["coordinates"]) == 40
    series = feature["properties"]["coordinateProperties"]
    assert series["speeds"][0] == 28.8 and series["heartRates"][:3] == [120, 120, 122]  # km/h; carried forward
    assert feature["properties"]["metadata"]["sport"] == "cycling"
    row = MediaTrack.objects.get(preview_key=preview["key"])
    assert row.master_key == master["key"] and row.point_count == 40 and 4000 < row.distance_m < 4600
    assert (row.min_lon, row.min_lat) == (139.7671, 35.6812)
    assert not [f for f in _files(settings) if "staging" in f]
    # Read through the API and at the public URL; listed; counted in the quota.
    via_api = client.get(f"/api/media/{human.hex_id}/tracks/{master['key'].split('/', 1)[1]}")
    assert via_api.status_code == 200 and via_api.content == data
    assert via_api["Content-Type"] == "application/octet-stream"
    served = client.get(preview["publicUrl"])
    assert served.status_code == 200 and served["Content-Type"] == "application/gzip"
    listed = client.get(f"/api/media/{human.hex_id}/tracks").json()
    assert [(t["key"], t["previewKey"]) for t in listed] == [(master["key"], preview["key"])]
    quota = client.get(f"/api/media/{human.hex_id}/tracks/quota").json()
    assert quota["bytesMasters"] == len(data) and quota["bytesPreviews"] == preview["size"]
    assert quota["bytesTotal"] == len(data) + preview["size"]
    assert quota["limitSingleBytes"] == 10 * 1024 * 1024 and quota["limitMonthlyBytes"] == 100 * 1024 * 1024


def test_trackjson_upload_is_downsampled_and_compacted(human, settings):
    settings.STGY_MEDIA_TRACK_PREVIEW_MAX_POINTS = 10
    client = login_client(human)
    points = [[139.123456789 + i * 0.0001, 35.987654321] for i in range(101)]
    times = list(range(1710000000, 1710000101))
    doc = trackjson_document(points, coordinateProperties={"times": times, "powers": [150.26] * 101})
    response = full_flow(client, human, make_trjgz(doc), "walk.trjgz", "tracks")
    assert response.status_code == 200, response.content
    preview = json.loads(gzip.decompress(storage.read(BUCKET, response.json()["preview"]["key"])))
    feature = preview["features"][0]
    coords = feature["geometry"]["coordinates"]
    # Ten samples, first and last kept, five decimals; the series picked at the same indices.
    assert len(coords) == 10 and coords[0] == [139.12346, 35.98765] and coords[-1] == [139.13346, 35.98765]
    assert feature["properties"]["coordinateProperties"]["times"][-1] == 1710000100
    assert feature["properties"]["coordinateProperties"]["powers"][0] == 150.3
    assert MediaTrack.objects.get().title == "Morning ride"


@pytest.mark.parametrize("filename,data", [
    ("bad.fit", b"\x0e\x10\x00\x00" + b"\x00" * 4 + b".FIT" + b"\x00" * 30),   # header only, no records
    ("bad.fit", b"not a fit file at all, just words"),
    ("bad.trjgz", b"plain text, not gzip"),
    ("bad.trjgz", gzip.compress(b"{not json")),
    ("bad.trjgz", gzip.compress(b'{"type": "Feature"}')),
    ("bad.trjgz", gzip.compress(b"\xff\xfe")),
])
def test_a_track_that_does_not_parse_is_refused_and_leaves_nothing(human, settings, filename, data):
    client = login_client(human)
    key = _staged(client, human, data, filename)
    response = finalize(client, human, key, "tracks")
    assert response.status_code == 400 and response.json() == {"error": "invalid track data"}
    assert _files(settings) == [] and not MediaTrack.objects.exists()


def test_fit_without_positions_and_broken_crc_are_refused(human, settings):
    client = login_client(human)
    for data in (make_fit(positions=False), make_fit()[:-3] + b"\x00\x00\x00"):
        response = finalize(client, human, _staged(client, human, data, "ride.fit"), "tracks")
        assert response.json() == {"error": "invalid track data"}
    assert _files(settings) == []


@pytest.mark.parametrize("document,setting,limit", [
    (trackjson_document(route(50)), "STGY_MEDIA_TRACK_JSON_POINT_LIMIT", 40),
    ({"type": "FeatureCollection", "features": [trackjson_document()["features"][0]] * 3},
     "STGY_MEDIA_TRACK_JSON_FEATURE_LIMIT", 2),
    (trackjson_document(nested=[[[[[[1]]]]]]), "STGY_MEDIA_TRACK_JSON_DEPTH_LIMIT", 8),
    (trackjson_document(coordinateProperties={"times": list(range(20)), "powers": list(range(20))}),
     "STGY_MEDIA_TRACK_JSON_PROPERTY_VALUE_LIMIT", 30),
    (trackjson_document(description="x" * 5000), "STGY_MEDIA_TRACK_JSON_BYTE_LIMIT", 4000),
])
def test_trackjson_over_an_operational_limit_is_refused(human, settings, document, setting, limit):
    setattr(settings, setting, limit)
    client = login_client(human)
    response = finalize(client, human, _staged(client, human, make_trjgz(document), "t.trjgz"), "tracks")
    assert response.json() == {"error": "invalid track data"}
    assert _files(settings) == []


def test_a_gzip_bomb_is_stopped_at_the_json_limit(human, settings):
    settings.STGY_MEDIA_TRACK_JSON_BYTE_LIMIT = 1024 * 1024
    client = login_client(human)
    bomb = gzip.compress(b'{"type":"FeatureCollection","features":[],"x":"' + b"a" * 50_000_000 + b'"}')
    assert len(bomb) < 100_000
    response = finalize(client, human, _staged(client, human, bomb, "bomb.trjgz"), "tracks")
    assert response.json() == {"error": "invalid track data"}


def test_presign_refusals(human, settings):
    client = login_client(human)
    base = f"/api/media/{human.hex_id}/tracks/presigned"
    for body, error in [
        ({"filename": "a.fit", "sizeBytes": 0}, "invalid sizeBytes"),
        ({"filename": "a.fit", "sizeBytes": "many"}, "invalid sizeBytes"),
        ({"filename": "a.fit", "sizeBytes": 10 * 1024 * 1024 + 1}, "file too large"),
        ({"filename": "a.gpx", "sizeBytes": 100}, "unsupported track file"),
        ({"filename": "a.trj", "sizeBytes": 100}, "unsupported track file"),
    ]:
        response = client.post(base, body, format="json")
        assert (response.status_code, response.json()) == (400, {"error": error}), body
    presigned = client.post(base, {"filename": "A.TRJGZ", "sizeBytes": 100}, format="json").json()
    assert presigned["objectKey"].startswith(f"tracks-staging/{human.hex_id}/")
    assert presigned["fields"]["Content-Type"] == "application/gzip"
    assert presigned["maxBytes"] == 10 * 1024 * 1024 and presigned["expiresInSec"] == 300


def test_monthly_quota_is_checked_at_presign_and_finalize(human, admin, settings):
    client = login_client(human)
    data = make_fit()
    settings.STGY_MEDIA_TRACK_BYTE_LIMIT_PER_MONTH = len(data) + 10  # the preview will not fit
    key = _staged(client, human, data, "ride.fit")
    response = finalize(client, human, key, "tracks")
    assert response.json() == {"error": "monthly quota exceeded"} and _files(settings) == []
    settings.STGY_MEDIA_TRACK_BYTE_LIMIT_PER_MONTH = 100
    assert presign(client, human, data, "ride.fit", "tracks").json() == {"error": "monthly quota exceeded"}
    # Admins' folders have no monthly quota (the single-file limit still binds).
    admin_client = login_client(admin)
    assert full_flow(admin_client, admin, data, "ride.fit", "tracks").status_code == 200
    assert admin_client.get(f"/api/media/{admin.hex_id}/tracks/quota").json()["limitMonthlyBytes"] is None


def test_finalize_refusals_keys_twice_other_user_and_oversize(human, follower, settings):
    client = login_client(human)
    data = make_fit()
    key = _staged(client, human, data, "ride.fit")
    for bad in ("../etc/passwd", f"tracks-staging/{human.hex_id}/../x.fit", f"staging/{human.hex_id}/a.fit",
                f"tracks-staging/{follower.hex_id}/a.fit", f"tracks-staging/{human.hex_id}", 7):
        response = finalize(client, human, bad, "tracks")
        assert (response.status_code, response.json()) == (400, {"error": "invalid key"}), bad
    assert finalize(client, human, key, "tracks").status_code == 200
    assert finalize(client, human, key, "tracks").json() == {"error": "not found"}  # twice
    # Someone else's folder: forbidden, and their staging key is not accepted in yours.
    other = login_client(follower)
    assert finalize(other, human, key, "tracks").status_code == 403
    assert presign(other, human, data, "x.fit", "tracks").json() == {"error": "forbidden"}
    # Bigger than the single limit once uploaded (the limit lowered after presign).
    key = _staged(client, human, data, "ride.fit")
    settings.STGY_MEDIA_TRACK_BYTE_LIMIT = 100
    assert finalize(client, human, key, "tracks").json() == {"error": "file too large"}
    assert not [f for f in _files(settings) if "staging" in f]


def test_the_signed_upload_url_is_single_use_bound_and_expiring(human, settings):
    client = login_client(human)
    data = make_fit()
    presigned = presign(client, human, data, "ride.fit", "tracks").json()
    assert upload(presigned, data).status_code == 204
    reused = upload(presigned, data)
    assert (reused.status_code, reused.json()) == (403, {"error": "upload URL already used"})
    presigned = presign(client, human, data, "ride.fit", "tracks").json()
    moved = upload(presigned, data, key=f"tracks-staging/{human.hex_id}/other.fit")
    assert moved.status_code == 403
    settings.STGY_MEDIA_UPLOAD_EXPIRES_SECONDS = -1
    expired = presign(client, human, data, "ride.fit", "tracks").json()
    assert upload(expired, data).json() == {"error": "upload URL expired"}


def test_list_quota_read_and_delete_rules(human, follower, admin, settings):
    client = login_client(human)
    first = full_flow(client, human, make_fit(), "a.fit", "tracks").json()["master"]
    second = full_flow(client, human, make_trjgz(), "b.trjgz", "tracks").json()["master"]
    base = f"/api/media/{human.hex_id}/tracks"
    listed = [t["key"] for t in client.get(base).json()]
    assert listed == sorted([first["key"], second["key"]])  # newest first by key design
    assert [t["key"] for t in client.get(base, {"after": listed[0]}).json()] == listed[1:]
    assert [t["key"] for t in client.get(base, {"limit": 1, "offset": 1}).json()] == listed[1:]
    assert client.get(base, {"after": listed[0], "offset": 1}).json() == {"error": "after requires offset=0"}
    assert client.get(base, {"after": "zzz"}).json() == {"error": "invalid after"}
    for month in ("2026", "202613", "196912", "abcdef"):
        assert client.get(f"{base}/quota", {"yyyymm": month}).json() == {"error": "invalid month"}
    assert client.get(f"{base}/quota", {"yyyymm": "202001"}).json()["bytesTotal"] == 0
    assert login_client(follower).get(base).status_code == 403
    assert login_client(admin).get(base).status_code == 200
    assert Client().get(base).status_code == 401
    for rest in ("../../etc/passwd", "masters/../previews/x.trjgz", "thumbs/x.webp",
                 f"../tracks-staging/{human.hex_id}/x.fit"):
        response = client.get(f"{base}/{rest}")
        assert response.status_code in (400, 404), rest
    assert client.get(f"{base}/masters/999999/nothing.fit").json() == {"error": "not found"}
    assert client.delete(f"{base}/previews/{first['previewKey'].split('/', 2)[2]}").json() == {
        "error": "invalid key (must be masters/)"}
    rest = first["key"].split("/", 1)[1]
    assert client.delete(f"{base}/{rest}").json() == {"result": "ok"}
    assert storage.read(BUCKET, first["key"]) is None and storage.read(BUCKET, first["previewKey"]) is None
    assert not MediaTrack.objects.filter(master_key=first["key"]).exists()
    assert [t["key"] for t in client.get(base).json()] == [second["key"]]


def test_track_posts_are_throttled_hourly(human, settings):
    settings.STGY_HOURLY_IMAGE_POSTS_COUNT_LIMIT = 1
    client = login_client(human)
    assert full_flow(client, human, make_fit(), "a.fit", "tracks").status_code == 200
    response = presign(client, human, make_fit(), "b.fit", "tracks")
    assert (response.status_code, response.json()) == (403, {"error": "too often track posts"})


def test_deleting_the_account_deletes_its_tracks(human, settings, django_capture_on_commit_callbacks):
    from sns.services.media import media_delete_all

    client = login_client(human)
    full_flow(client, human, make_fit(), "a.fit", "tracks")
    assert _files(settings)
    media_delete_all(human.hex_id)
    assert _files(settings) == []


def test_a_frozen_user_cannot_upload(settings):
    frozen = make_user("Frozen", is_frozen=True)
    response = presign(login_client(frozen), frozen, b"x" * 10, "a.fit", "tracks")
    assert response.status_code == 403


def test_a_racing_second_finalize_of_one_upload_makes_no_second_track(human, settings):
    from sns.models.media import TrackUpload
    from sns.services.track_processing import track_process

    client = login_client(human)
    key = _staged(client, human, make_fit(), "ride.fit")
    # The other finalize has committed its upload row and not yet parsed the file.
    other = TrackUpload.objects.create(staging_key=key, owner=human, master_key=f"{human.hex_id}/masters/797394/x.fit",
                                       preview_key=f"{human.hex_id}/previews/797394/x.trjgz", size=1)
    response = finalize(client, human, key, "tracks")
    assert (response.status_code, response.json()) == (400, {"error": "not found"})
    assert MediaTrack.objects.count() == 0 and storage.read(BUCKET, key) is not None
    # Its task, delivered twice, makes one track.
    assert [track_process(other.id), track_process(other.id)] == ["done", "done"]
    assert MediaTrack.objects.filter(staging_key=key).count() == 1
    assert [f for f in _files(settings) if "/masters/" in f or "/previews/" in f] == [
        f"stgy-tracks/{human.hex_id}/masters/797394/x.fit", f"stgy-tracks/{human.hex_id}/previews/797394/x.trjgz"]
