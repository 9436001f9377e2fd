"""FIT activity files (Garmin's binary format) into TrackJSON (docs/media.md §9), read
with Garmin's own decoder (garmin-fit-sdk), which checks the file's CRCs.

The route is the record messages that carry a position, in order; their times,
distances, altitudes, heart rates, cadences, powers and speeds become the aligned
coordinateProperties series (speeds in km/h; heart rate, cadence and power carried
forward over gaps, as the original does). Session and file_id messages give the
activity metadata.

The work is bounded (docs/media.md §9, timings): the decoder is pure Python, so the
file is refused as soon as the decoder passes one of three budgets — more positioned
records than a TrackJSON document may carry (STGY_MEDIA_TRACK_JSON_POINT_LIMIT), more
messages of any kind (STGY_MEDIA_TRACK_FIT_MESSAGE_LIMIT: a file of records without
positions passed the first budget untouched and took a minute), or its time
(STGY_MEDIA_TRACK_PARSE_SECONDS), checked at every message and definition. The CRCs are
checked here with a byte table, six times faster than the decoder's nibble loop.
"""

from __future__ import annotations

import time

from .trackjson import TrackError, bbox, points_of_interest

_SEMICIRCLE_DEGREES = 180 / 2 ** 31
_FILLED_FORWARD = ("heartRates", "cadences", "powers")
_FIT_EPOCH = 631065600  # 1989-12-31T00:00:00Z, FIT's time zero, in Unix seconds
_RECORD = 20  # the record message's global number


def _crc_table() -> list[int]:
    # FIT's CRC is CRC-16/ARC (the reflected polynomial 0xA001, starting at 0).
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_CRC_TABLE = _crc_table()


def _crc(data: bytes) -> int:
    crc, table = 0, _CRC_TABLE
    for byte in data:
        crc = (crc >> 8) ^ table[(crc ^ byte) & 0xFF]
    return crc


def _crcs_match(data: bytes) -> bool:
    """Each file of `data` (FIT files may be chained) ends with the CRC of its header
    and records, and a 14-byte header carries its own CRC (or 0)."""
    offset = 0
    while offset < len(data):
        header = data[offset:offset + 14]
        if not sniff(header):
            return False
        size = header[0]
        end = offset + size + int.from_bytes(header[4:8], "little")
        if end + 2 > len(data):
            return False
        if size == 14 and header[12:14] != b"\0\0" and int.from_bytes(header[12:14], "little") != _crc(header[:12]):
            return False
        if int.from_bytes(data[end:end + 2], "little") != _crc(data[offset:end]):
            return False
        offset = end + 2
    return True


def sniff(header: bytes) -> bool:
    """The FIT header: 12 or 14 bytes with ".FIT" at offset 8."""
    return len(header) >= 12 and header[0] in (12, 14) and len(header) >= header[0] \
        and header[8:12] == b".FIT"


def _number(value) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _seconds(value) -> int | None:
    """A FIT date_time (seconds since FIT's time zero, as the decoder leaves it) in Unix
    seconds."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value + _FIT_EPOCH


class _OverBudget(Exception):
    pass


class _Budget:
    """What the decoder may spend: positioned records, messages of any kind, time
    (a time.monotonic() deadline). Passing one stops the decoder at once."""

    def __init__(self, max_points: int, max_messages: int, deadline: float):
        self.max_points, self.max_messages, self.deadline = max_points, max_messages, deadline
        self.positioned = self.messages = 0
        self.spent: str | None = None

    def _spend(self) -> None:
        self.messages += 1
        if self.messages > self.max_messages:
            self.spent = "too many messages"
        elif time.monotonic() > self.deadline:
            self.spent = "took too long"
        if self.spent:
            raise _OverBudget

    def message(self, mesg_num: int, message: dict) -> None:
        if mesg_num == _RECORD and message.get("position_lat") is not None:
            self.positioned += 1
            if self.positioned > self.max_points:
                self.spent = "too many track points"
                raise _OverBudget
        self._spend()

    def definition(self, _definition: dict) -> None:
        self._spend()


def _decode(data: bytes, budget: _Budget) -> dict:
    from garmin_fit_sdk import Decoder, Stream

    if not _crcs_match(data):
        raise TrackError("invalid fit data")
    try:
        # No component or sub-field expansion: we read plain and enhanced fields by name,
        # and skipping it makes decoding a third faster (docs/media.md §9, timings);
        # times stay FIT seconds (`_seconds`) and the CRCs were checked above.
        messages, errors = Decoder(Stream.from_byte_array(bytearray(data))).read(
            expand_components=False, expand_sub_fields=False, merge_heart_rates=False,
            convert_datetimes_to_dates=False, enable_crc_check=False,
            mesg_listener=budget.message, mesg_definition_listener=budget.definition)
    except Exception:  # noqa: BLE001 - the decoder raises many kinds on bad input, and reports ours
        raise TrackError(budget.spent or "invalid fit data") from None
    if budget.spent:
        raise TrackError(budget.spent)
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


def to_trackjson(data: bytes, *, max_points: int, max_messages: int = 10 ** 9,
                 deadline: float | None = None) -> dict:
    """The TrackJSON document of a FIT file; TrackError when it is invalid or passes a
    budget (`deadline`: a time.monotonic() value)."""
    budget = _Budget(max_points, max_messages, float("inf") if deadline is None else deadline)
    messages = _decode(data, budget)
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
