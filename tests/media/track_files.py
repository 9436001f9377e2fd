"""Real track files made in the test: FIT activities written with Garmin's own encoder
and gzip-compressed TrackJSON."""

from __future__ import annotations

import gzip
import json
from datetime import datetime, timedelta, timezone

from garmin_fit_sdk import Encoder, Profile

START = datetime(2026, 5, 1, 6, 0, tzinfo=timezone.utc)
_SEMICIRCLES = 2 ** 31 / 180


def route(count: int = 20, lon: float = 139.7671, lat: float = 35.6812, step: float = 0.001):
    return [[lon + i * step, lat + i * step / 2] for i in range(count)]


def make_fit(points=None, *, heart_rates: bool = True, positions: bool = True) -> bytes:
    points = route() if points is None else points
    encoder = Encoder()
    mesg = Profile["mesg_num"]
    encoder.write_mesg({"mesg_num": mesg["FILE_ID"], "type": "activity", "manufacturer": "garmin",
                        "product": 3843, "time_created": START, "serial_number": 1234567})
    for i, (lon, lat) in enumerate(points):
        record = {"mesg_num": mesg["RECORD"], "timestamp": START + timedelta(seconds=10 * i),
                  "altitude": 12.5 + i, "distance": 100.0 * i, "speed": 8.0}
        if positions:
            record["position_lat"] = round(lat * _SEMICIRCLES)
            record["position_long"] = round(lon * _SEMICIRCLES)
        if heart_rates and i % 2 == 0:
            record["heart_rate"] = 120 + i
        encoder.write_mesg(record)
    encoder.write_mesg({"mesg_num": mesg["SESSION"], "timestamp": START + timedelta(seconds=10 * len(points)),
                        "start_time": START, "sport": "cycling", "total_distance": 100.0 * len(points),
                        "total_elapsed_time": 10.0 * len(points), "total_timer_time": 9.0 * len(points),
                        "total_ascent": 25})
    return bytes(encoder.close())


def trackjson_document(points=None, title: str = "Morning ride", **properties) -> dict:
    points = route() if points is None else points
    return {"type": "FeatureCollection", "features": [{
        "type": "Feature",
        "geometry": {"type": "LineString", "coordinates": points},
        "properties": {"title": title, **properties},
    }]}


def make_trjgz(document=None) -> bytes:
    document = trackjson_document() if document is None else document
    text = document if isinstance(document, (bytes, str)) else json.dumps(document)
    return gzip.compress(text.encode() if isinstance(text, str) else text)
