"""A track's parsing leaves the request: finalize answers at once with the
keys of the track to be (202 `processing`, which the original's frontend reads as it
reads a 200), a real Celery worker parses the file within its budgets, and
`GET .../tracks/finalize?key=` tells how it ended (tests/integration/worker.py)."""

from __future__ import annotations

import pytest

from sns.media import storage
from sns.models.media import MediaTrack, TrackUpload
from tests.conftest import login_client, requires_postgres, requires_redis
from tests.integration.worker import celery_worker, sending_to, wait_for
from tests.media.flow import finalize, presign, upload
from tests.media.track_files import make_fit, route

pytestmark = [requires_postgres, requires_redis, pytest.mark.celery_worker]
RESULT_TIMEOUT = 60


@pytest.fixture(scope="module")
def media_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("media")


@pytest.fixture(scope="module")
def worker(django_db_setup, tmp_path_factory, media_dir):
    """A worker on the test database and this module's media folder; a FIT file may
    hold 500 messages there, so a long file is over its budget."""
    log_path = tmp_path_factory.mktemp("celery") / "worker.log"
    with celery_worker(log_path, "--pool=solo", STGY_STORAGE_DRIVER="local", STGY_MEDIA_DIR=str(media_dir),
                       STGY_MEDIA_TRACK_FIT_MESSAGE_LIMIT="500"):
        yield log_path


@pytest.fixture
def local_store(settings, media_dir):
    settings.STGY_STORAGE_DRIVER = "local"
    settings.STGY_MEDIA_DIR = media_dir
    settings.STGY_STORAGE_PUBLIC_URL_PREFIX = "/storage/{bucket}/"
    settings.STGY_MEDIA_TRACK_FINALIZE_WAIT_MS = 0  # answer at once: the worker is elsewhere


def _staged(client, user, data: bytes, filename: str) -> str:
    presigned = presign(client, user, data, filename, "tracks").json()
    assert upload(presigned, data, filename).status_code == 204
    return presigned["objectKey"]


def _ended(client, user, key: str):
    response = client.get(f"/api/media/{user.hex_id}/tracks/finalize", {"key": key})
    return response if response.status_code != 202 else None


@pytest.mark.django_db(transaction=True)
def test_finalize_answers_at_once_and_the_worker_makes_the_track(worker, human, local_store):
    client = login_client(human)
    data = make_fit(route(60))
    key = _staged(client, human, data, "ride.fit")
    with sending_to():
        response = finalize(client, human, key, "tracks")
    assert response.status_code == 202, response.content
    body = response.json()
    assert body["status"] == "processing"
    master = body["master"]
    # What the original's frontend takes from the answer: the keys of the track to be.
    assert master["key"].startswith(f"{human.hex_id}/masters/") and master["key"].endswith(".fit")
    assert master["previewKey"] == body["preview"]["key"] and "/previews/" in master["previewKey"]
    assert master["size"] == len(data) and master["publicUrl"].startswith("http://testserver/storage/")

    done = wait_for(lambda: _ended(client, human, key), RESULT_TIMEOUT,
                    lambda: f"the track\n{worker.read_text()[-3000:]}")
    assert done.status_code == 200, done.content
    assert done.json()["master"]["key"] == master["key"] and done.json()["preview"]["size"] > 0
    assert "status" not in done.json()  # the original's answer, as a finalize within the wait gives it
    row = MediaTrack.objects.get(preview_key=master["previewKey"])
    assert row.point_count == 60 and row.owner_id == human.id
    assert storage.read(storage.tracks_bucket(), master["key"]) == data
    assert storage.read(storage.tracks_bucket(), key) is None  # staging emptied
    assert "sns.process_track" in worker.read_text()  # the worker did it, not this process
    listed = client.get(f"/api/media/{human.hex_id}/tracks").json()
    assert [t["key"] for t in listed] == [master["key"]]


@pytest.mark.django_db(transaction=True)
def test_a_file_over_its_budget_is_refused_by_the_worker(worker, human, local_store):
    """Records without positions were never counted: a 10 MB file of them took a minute
    of a web worker. Now every message counts, and the refusal comes through the poll."""
    client = login_client(human)
    key = _staged(client, human, make_fit(route(800), positions=False), "long.fit")
    with sending_to():
        response = finalize(client, human, key, "tracks")
    assert response.status_code == 202
    ended = wait_for(lambda: _ended(client, human, key), RESULT_TIMEOUT,
                     lambda: f"the refusal\n{worker.read_text()[-3000:]}")
    assert (ended.status_code, ended.json()) == (400, {"error": "invalid track data"})
    assert TrackUpload.objects.get(staging_key=key).state == "refused"
    assert storage.read(storage.tracks_bucket(), key) is None and MediaTrack.objects.count() == 0
    # Asking again for the same upload is refused as a second finalize always was.
    assert finalize(client, human, key, "tracks").json() == {"error": "not found"}
