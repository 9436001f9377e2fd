"""A FIT finalize is bounded: a file with more positioned records than a TrackJSON
document may carry, more messages of any kind than STGY_MEDIA_TRACK_FIT_MESSAGE_LIMIT, or
that takes longer than STGY_MEDIA_TRACK_PARSE_SECONDS is refused while it is being
decoded, the CRCs are checked before any decoding (sns/media/fit.py), and every
finalize counts against the hourly limit, refused ones too."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from sns.media import fit
from sns.media.trackjson import TrackError
from tests.conftest import login_client
from tests.media.flow import finalize, full_flow, presign, upload
from tests.media.track_files import START, make_fit, route

pytestmark = pytest.mark.django_db


def test_a_fit_over_the_point_limit_is_refused_and_one_at_it_accepted(human, settings):
    settings.STGY_MEDIA_TRACK_JSON_POINT_LIMIT = 30
    client = login_client(human)
    at_limit = full_flow(client, human, make_fit(route(30)), "ride.fit", "tracks")
    assert at_limit.status_code == 200, at_limit.content
    data = make_fit(route(31))
    presigned = presign(client, human, data, "long.fit", "tracks").json()
    assert upload(presigned, data, "long.fit").status_code == 204
    over = finalize(client, human, presigned["objectKey"], "tracks")
    assert (over.status_code, over.json()) == (400, {"error": "invalid track data"})
    # The staged upload is gone: finalizing it again finds nothing.
    assert finalize(client, human, presigned["objectKey"], "tracks").json() == {"error": "not found"}


def test_decoding_stops_at_the_first_record_past_the_limit():
    # A record without a position does not count; the limit is about the route.
    data = make_fit(route(200))
    with pytest.raises(TrackError, match="too many track points"):
        fit.to_trackjson(data, max_points=10)
    assert len(fit.to_trackjson(data, max_points=200)["features"][0]["geometry"]["coordinates"]) == 200
    with pytest.raises(TrackError, match="At least two"):
        fit.to_trackjson(make_fit(route(200), positions=False), max_points=10)


def test_times_are_unix_seconds():
    document = fit.to_trackjson(make_fit(route(3)), max_points=10)
    properties = document["features"][0]["properties"]
    start = int(START.timestamp())
    assert properties["coordinateProperties"]["times"] == [start, start + 10, start + 20]
    assert properties["metadata"]["startTime"] == start
    assert properties["metadata"]["createdAt"] == int(datetime(2026, 5, 1, 6, 0, tzinfo=UTC).timestamp())


def test_crcs_of_every_chained_file_and_of_the_header_are_checked():
    one = make_fit(route(5))
    assert len(fit.to_trackjson(one + make_fit(route(4)), max_points=10)["features"][0]["geometry"]["coordinates"]) == 9
    corrupt = [
        one + one[:-1] + bytes([one[-1] ^ 1]),  # the second file's CRC
        one[:30] + bytes([one[30] ^ 1]) + one[31:],  # a record byte
        one[:1] + bytes([one[1] ^ 1]) + one[2:] if one[0] == 14 and one[12:14] != b"\0\0" else None,  # the header
        one[:-1],  # cut short
    ]
    for data in filter(None, corrupt):
        with pytest.raises(TrackError, match="invalid fit data"):
            fit.to_trackjson(data, max_points=10)


def test_every_message_counts_and_so_does_the_time():
    # Records without a position passed the point budget untouched: 10 MB of them took
    # a minute. Each message and definition is counted now, and the clock is read.
    blank = make_fit(route(300), positions=False)
    with pytest.raises(TrackError, match="too many messages"):
        fit.to_trackjson(blank, max_points=10, max_messages=100)
    with pytest.raises(TrackError, match="took too long"):
        fit.to_trackjson(make_fit(route(50)), max_points=100, deadline=time.monotonic() - 1)
    document = fit.to_trackjson(make_fit(route(50)), max_points=100, max_messages=60,
                                deadline=time.monotonic() + 60)
    assert len(document["features"][0]["geometry"]["coordinates"]) == 50


def test_the_message_budget_refuses_a_finalize(human, settings):
    settings.STGY_MEDIA_TRACK_FIT_MESSAGE_LIMIT = 100
    response = full_flow(login_client(human), human, make_fit(route(300), positions=False), "blank.fit", "tracks")
    assert (response.status_code, response.json()) == (400, {"error": "invalid track data"})


def test_refused_finalizes_count_against_the_hourly_limit(human, settings):
    settings.STGY_HOURLY_IMAGE_POSTS_COUNT_LIMIT = 2
    client = login_client(human)
    for name in ("a.fit", "b.fit"):
        refused = full_flow(client, human, b".FIT but not a FIT file at all", name, "tracks")
        assert refused.json() == {"error": "invalid track data"}
    data = make_fit()
    presigned = presign(client, human, data, "c.fit", "tracks")
    assert (presigned.status_code, presigned.json()) == (403, {"error": "too often track posts"})
