"""/api/geo/encode and /api/geo/decode against the sample place file: round trips, the
original's error texts, the query-hash rule for callers without a session, and the
daily time budget."""

from __future__ import annotations

import hashlib
import json
from urllib.parse import urlencode

import pytest
from django.core.cache import cache

from sns.geo import service
from sns.geo.geocoder import GeoCoder
from sns.geo.locales import normalize_locale
from sns.geo.records import GeoDataError
from tests.clients import APIClient
from tests.conftest import login_client

pytestmark = pytest.mark.django_db


def labels(places, locale="en"):
    return [next(a["label"] for a in p["addresses"] if a["locale"] == locale) for p in places]


def get(client, path, **params):
    return client.get(f"{path}?{urlencode(params)}" if params else path)


def test_encode_then_decode_round_trips(human):
    client = login_client(human)
    found = get(client, "/api/geo/encode", query="Tokorozawa").json()
    assert labels(found) == ["Tokorozawa, Saitama, Japan", "Saitama, Japan", "Japan"]
    assert [p["kind"] for p in found] == ["municipality", "prefecture", "country"]
    city = found[0]
    back = get(client, "/api/geo/decode", longitude=city["longitude"], latitude=city["latitude"]).json()
    assert back == found


def test_encode_forms_and_locales(human):
    client = login_client(human)
    for query in ("tokorozawa, saitama, japan", "Tokorozawa, Saitama", "Tokorozawa city", "所沢市"):
        response = get(client, "/api/geo/encode", query=query, locale="ja")
        assert response.status_code == 200, query
        assert labels(response.json())[0] == "Tokorozawa, Saitama, Japan"
    ja = get(client, "/api/geo/encode", query="日本埼玉県所沢市", locale="ja_JP").json()
    assert [a["locale"] for a in ja[0]["addresses"]] == ["en", "ja"]
    assert ja[0]["addresses"][1] == {"locale": "ja", "label": "日本埼玉県所沢市", "elements": ["日本", "埼玉県", "所沢市"]}
    # Japanese names are searched only with a Japanese locale; English answers only English.
    assert get(client, "/api/geo/encode", query="所沢市").status_code == 404
    en = get(client, "/api/geo/encode", query="Tokorozawa", locale="fr").json()
    assert [a["locale"] for a in en[0]["addresses"]] == ["en"]


def test_decode_takes_wards_not_their_designated_city(human):
    client = login_client(human)
    found = get(client, "/api/geo/decode", longitude=139.64, latitude=35.445, locale="ja").json()
    assert labels(found, "ja") == ["日本神奈川県横浜市中区", "日本神奈川県横浜市", "日本神奈川県", "日本"]
    # A sample point of Setagaya is nearer than any representative point.
    near = get(client, "/api/geo/decode", longitude=139.621, latitude=35.631).json()
    assert labels(near)[0] == "Setagaya, Tokyo, Japan"


def test_nothing_within_ten_km_is_404(human):
    response = get(login_client(human), "/api/geo/decode", longitude=0, latitude=0)
    assert response.status_code == 404 and response.json() == {"error": "not found"}
    response = get(login_client(human), "/api/geo/encode", query="Atlantis")
    assert response.status_code == 404 and response.json() == {"error": "not found"}


@pytest.mark.parametrize(
    "params,error",
    [
        ({}, "query is required"),
        ({"query": "   "}, "query is required"),
    ],
)
def test_encode_bad_input(human, params, error):
    response = get(login_client(human), "/api/geo/encode", **params)
    assert response.status_code == 400 and response.json() == {"error": error}


@pytest.mark.parametrize(
    "query,error",
    [
        ("latitude=35", "longitude is required"),
        ("longitude=x&latitude=35", "longitude must be a number"),
        ("longitude=nan&latitude=35", "longitude must be a number"),
        ("longitude=1_0&latitude=35", "longitude must be a number"),
        ("longitude=181&latitude=35", "longitude must be between -180 and 180"),
        ("longitude=139", "latitude is required"),
        ("longitude=139&latitude=x", "latitude must be a number"),
        ("longitude=139&latitude=91", "latitude must be between -90 and 90"),
        ("longitude=139&longitude=140&latitude=35", "longitude is required"),
    ],
)
def test_decode_bad_input(human, query, error):
    response = login_client(human).get(f"/api/geo/decode?{query}")
    assert response.status_code == 400 and response.json() == {"error": error}


def hash_header(query: str) -> dict:
    return {"HTTP_X_STGY_QUERYHASH": service.query_hash(query)}


def test_without_a_session_the_query_hash_is_required():
    query = urlencode({"query": "Tokorozawa"})
    refused = APIClient().get(f"/api/geo/encode?{query}")
    assert refused.status_code == 403 and refused.json() == {"error": "invalid queryhash"}
    wrong = APIClient().get(f"/api/geo/encode?{query}", HTTP_X_STGY_QUERYHASH="invalid")
    assert wrong.status_code == 403 and wrong.json() == {"error": "invalid queryhash"}
    ok = APIClient().get(f"/api/geo/encode?{query}", **hash_header(query))
    assert ok.status_code == 200 and labels(ok.json())[0] == "Tokorozawa, Saitama, Japan"
    # The hash is over the canonical form: order of parameters does not matter.
    query = "longitude=139.4689&latitude=35.7994"
    swapped = "latitude=35.7994&longitude=139.4689"
    assert APIClient().get(f"/api/geo/decode?{query}", **hash_header(swapped)).status_code == 200


def test_canonical_query_is_the_browsers():
    # Sorted key=value pairs, each encoded as encodeURIComponent does (space as %20).
    assert service.canonical_query("query=%E6%89%80%E6%B2%A2+x&locale=ja") == "locale=ja&query=%E6%89%80%E6%B2%A2%20x"
    expected = hashlib.sha1(b"latitude=35.80&locale=ja&longitude=139.46").hexdigest()
    assert service.query_hash("longitude=139.46&latitude=35.80&locale=ja") == expected


def test_the_daily_time_budget(settings, human, admin):
    settings.STGY_DAILY_GEO_TIMER_LIMIT_MS = 1
    caller = service.GeoCaller(id=f"{human.id:016X}", is_admin=False)
    service.spend_budget(caller, 5)
    response = get(login_client(human), "/api/geo/encode", query="Tokorozawa")
    assert response.status_code == 403 and response.json() == {"error": "too often operations"}
    # The budget is checked before the input, as the original does.
    assert get(login_client(human), "/api/geo/encode").json() == {"error": "too often operations"}
    service.spend_budget(service.GeoCaller(id=f"{admin.id:016X}", is_admin=True), 5)
    assert get(login_client(admin), "/api/geo/encode", query="Tokorozawa").status_code == 200
    # Anonymous callers share the all-zero id's budget.
    service.spend_budget(service.GeoCaller(id=service.ANONYMOUS_ID, is_admin=False), 5)
    query = urlencode({"query": "Tokorozawa"})
    assert APIClient().get(f"/api/geo/encode?{query}", **hash_header(query)).json() == {
        "error": "too often operations"
    }


def test_lookups_are_charged_to_the_caller(human, monkeypatch):
    caller = service.GeoCaller(id=f"{human.id:016X}", is_admin=False)
    ticks = iter([10.0, 10.25])
    monkeypatch.setattr(service.time, "perf_counter", lambda: next(ticks))
    service.timed(caller, lambda coder: coder.encode("Tokorozawa"))
    assert cache.get(service._budget_key(caller)) == 250


def test_locale_normalisation():
    assert normalize_locale("ja_jp") == "ja-JP"
    assert normalize_locale(" zh-hant-tw ") == "zh-Hant-TW"
    assert normalize_locale("--") is None and normalize_locale("1x") is None


def write(tmp_path, rows):
    path = tmp_path / "places.ndjson"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    return path


JAPAN = {"id": 392, "level": 1, "kind": "country", "country": "JP", "longitude": 139.7, "latitude": 35.6,
         "addresses": [{"locale": "ja", "label": "日本", "elements": ["日本"]}]}

TOWN = {"id": 100, "level": 3, "kind": "municipality", "country": "JP", "longitude": 139.7, "latitude": 35.6,
        "addresses": [{"locale": "ja", "label": "日本某県某市", "elements": ["日本", "某県", "某市"]}]}


@pytest.mark.parametrize(
    "row,message",
    [
        ({**JAPAN, "id": 0}, "id must be an integer between 1 and 4294967295"),
        ({**JAPAN, "level": 2}, "place kind country must have level 1, got 2"),
        ({**JAPAN, "addresses": [{"locale": "ja", "label": "ニッポン", "elements": ["日本"]}]},
         "label does not match elements"),
        ({"longitude": 1, "latitude": 1}, "exactly one of id or belongTo"),
        ({"longitude": 1, "latitude": 1, "belongTo": 999}, "unknown place id"),
    ],
)
def test_a_malformed_file_names_its_line(tmp_path, row, message):
    rows = [row] if row.get("kind") == "country" else [JAPAN, TOWN, row]
    with pytest.raises(GeoDataError, match=message) as info:
        GeoCoder([write(tmp_path, rows)])
    assert "places.ndjson:" in str(info.value)


def test_a_valid_file_of_ones_own_is_served(tmp_path, settings, human):
    settings.STGY_GEO_STATIC_JSON_FILES = [str(write(tmp_path, [JAPAN, TOWN]))]
    found = get(login_client(human), "/api/geo/encode", query="某市", locale="ja").json()
    assert [p["kind"] for p in found] == ["municipality", "country"]
