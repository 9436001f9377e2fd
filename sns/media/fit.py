"""FIT activity files (Garmin's binary format) into TrackJSON (docs/media.md §9), read
with Garmin's own decoder (garmin-fit-sdk), which checks the file's CRCs.

The route is the record messages that carry a position, in order; their times,
distances, altitudes, heart rates, cadences, powers and speeds become the aligned
coordinateProperties series (speeds in km/h; heart rate, cadence and power carried
forward over gaps, as the original does). Session and file_id messages give the
activity metadata.
"""

from __future__ import annotations

from datetime import datetime

from .trackjson import TrackError, bbox, points_of_interest

_SEMICIRCLE_DEGREES = 180 / 2 ** 31
_FILLED_FORWARD = ("heartRates", "cadences", "powers")


def sniff(header: bytes) -> bool:
    """The FIT header: 12 or 14 bytes with ".FIT" at offset 8."""
    return len(header) >= 12 and header[0] in (12, 14) and len(header) >= header[0] \
        and header[8:12] == b".FIT"


def _number(value) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _seconds(value) -> int | None:
    return int(value.timestamp()) if isinstance(value, datetime) else None


def _decode(data: bytes) -> dict:
    from garmin_fit_sdk import Decoder, Stream

    try:
        # No component or sub-field expansion: we read plain and enhanced fields by name,
        # and skipping it makes decoding a third faster (docs/media.md §9, timings).
        messages, errors = Decoder(Stream.from_byte_array(bytearray(data))).read(
            expand_components=False, expand_sub_fields=False, merge_heart_rates=False)
    except Exception:  # noqa: BLE001 - the decoder raises many kinds on bad input
        raise TrackError("invalid fit data") from None
    if errors:
        raise TrackError("invalid fit data")
    return messages


def _series(records: list[dict]) -> dict[str, list]:
    def pick(record, *names):
        for name in names:
            value = _number(record.get(name))
            if value is not None:
                return value
        return None

    series = {
        "times": [_seconds(r.get("timestamp")) for r in records],
        "distances": [pick(r, "distance") for r in records],
        "altitudes": [pick(r, "enhanced_altitude", "altitude") for r in records],
        "heartRates": [pick(r, "heart_rate") for r in records],
        "cadences": [pick(r, "cadence") for r in records],
        "powers": [pick(r, "power") for r in records],
        "speeds": [None if (v := pick(r, "enhanced_speed", "speed")) is None else v * 3.6 for r in records],
    }
    for name in _FILLED_FORWARD:
        last = 0.0
        if all(v is None for v in series[name]):
            continue
        filled = []
        for value in series[name]:
            last = value if value is not None else last
            filled.append(last)
        series[name] = filled
    return {name: values for name, values in series.items() if any(v is not None for v in values)}


def _metadata(messages: dict) -> dict:
    session = (messages.get("session_mesgs") or [{}])[0]
    file_id = (messages.get("file_id_mesgs") or [{}])[0]
    meta: dict = {"source": {"type": "fit"}}
    for key, name in (("sport", "sport"), ("subSport", "sub_sport")):
        if isinstance(session.get(name), str):
            meta[key] = session[name]
    for key, name in (("startTime", "start_time"), ("createdAt", "time_created")):
        seconds = _seconds(session.get(name) if name == "start_time" else file_id.get(name))
        if seconds is not None:
            meta[key] = seconds
    for key, name in (("totalDistanceM", "total_distance"), ("ascentM", "total_ascent"),
                      ("descentM", "total_descent"), ("totalTimerTime", "total_timer_time"),
                      ("totalElapsedTime", "total_elapsed_time")):
        value = _number(session.get(name))
        if value is not None:
            meta[key] = value
    device = {key: file_id[name] for key, name in (("manufacturer", "manufacturer"), ("product", "product"),
                                                    ("serialNumber", "serial_number"))
              if isinstance(file_id.get(name), (str, int))}
    if device:
        meta["recordingDevice"] = device
    return meta


def to_trackjson(data: bytes) -> dict:
    messages = _decode(data)
    records = [r for r in messages.get("record_mesgs") or []
               if _number(r.get("position_lat")) is not None and _number(r.get("position_long")) is not None]
    points = [[r["position_long"] * _SEMICIRCLE_DEGREES, r["position_lat"] * _SEMICIRCLE_DEGREES] for r in records]
    records = [r for r, p in zip(records, points) if -180 <= p[0] <= 180 and -90 <= p[1] <= 90]
    points = [p for p in points if -180 <= p[0] <= 180 and -90 <= p[1] <= 90]
    if len(points) < 2:
        raise TrackError("At least two positioned points are required.")
    properties = {"metadata": _metadata(messages), "coordinateProperties": _series(records)}
    return {
        "type": "FeatureCollection",
        "bbox": bbox(points),
        "poi": points_of_interest(points),
        "features": [{"type": "Feature", "geometry": {"type": "LineString", "coordinates": points},
                      "properties": properties}],
    }
