"""TrackJSON (docs/media.md §9): GeoJSON FeatureCollections of LineString routes with
per-coordinate series, the original's track format. This module reads one out of a
gzip file under hard limits, downsamples and compacts it for the preview, computes the
route's reference points, and sums up what a map needs (bounds, length, a short line).

Every refusal is a `TrackError`; finalize turns each into `invalid track data`.
"""

from __future__ import annotations

import gzip
import json
import math
import zlib

_INTEGER_SERIES = {"times"}
_INTEGER_METADATA = {"createdAt", "startTime", "timeCreated", "serialNumber", "totalElapsedTime",
                     "totalTimerTime", "totalWorkJ", "totalCaloriesCal"}
EARTH_RADIUS_M = 6371008.8


class TrackError(ValueError):
    pass


def js_round(value: float, digits: int) -> float | int:
    """JavaScript's Math.round (halves go up), which the original's rounding uses."""
    factor = 10 ** digits
    rounded = math.floor(value * factor + 0.5) / factor
    return int(rounded) if rounded.is_integer() else rounded  # JSON as JavaScript writes it


def gunzip_limited(data: bytes, max_bytes: int) -> bytes:
    """Inflate in bounded steps, so a small bomb cannot fill memory."""
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    out, total, pending = [], 0, data
    try:
        while pending:
            chunk = inflater.decompress(pending, 65536)
            total += len(chunk)
            if total > max_bytes:
                raise TrackError("track json too large")
            out.append(chunk)
            pending = inflater.unconsumed_tail
            if inflater.eof:
                break
            if not chunk and not pending:
                break
    except zlib.error:
        raise TrackError("invalid gzip data") from None
    if not inflater.eof:
        raise TrackError("truncated gzip data")
    return b"".join(out)


def gzip_json(data) -> bytes:
    return gzip.compress(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode(), 9, mtime=0)


def _is_position(value) -> bool:
    return (isinstance(value, list) and len(value) >= 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value[:2])
            and -180 <= value[0] <= 180 and -90 <= value[1] <= 90)


def parse(text: bytes, limits: dict) -> dict:
    """The document, checked against the operational limits (feature count, positions,
    series values, nesting depth) before any other work."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise TrackError("invalid track json") from None
    if not isinstance(data, dict) or data.get("type") != "FeatureCollection" \
            or not isinstance(data.get("features"), list):
        raise TrackError("invalid track json")
    if len(data["features"]) > limits["maxFeatures"]:
        raise TrackError("too many track features")
    points = values = 0
    stack = [(data, 1, None)]
    while stack:
        value, depth, key = stack.pop()
        if depth > limits["maxDepth"]:
            raise TrackError("track json too deep")
        if key == "coordinates" and isinstance(value, list):
            points += _count_positions(value)
            if points > limits["maxPoints"]:
                raise TrackError("too many track points")
        if key == "coordinateProperties" and isinstance(value, dict):
            values += sum(_count_leaves(series) for series in value.values() if isinstance(series, list))
            if values > limits["maxPropertyValues"]:
                raise TrackError("too many track property values")
            continue
        children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for child_key, child in children:
            stack.append((child, depth + 1, child_key if isinstance(value, dict) else None))
    if not lines(data):
        raise TrackError("no route with two positioned points")
    return data


def _count_positions(value: list) -> int:
    count, stack = 0, [value]
    while stack:
        current = stack.pop()
        if _is_pair(current):
            count += 1
        else:
            stack.extend(item for item in current if isinstance(item, list))
    return count


def _count_leaves(value: list) -> int:
    count, stack = 0, [value]
    while stack:
        for item in stack.pop():
            if isinstance(item, list):
                stack.append(item)
            else:
                count += 1
    return count


def _is_pair(value) -> bool:
    return isinstance(value, list) and len(value) >= 2 and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value[:2])


def lines(data: dict) -> list[list[list[float]]]:
    """The LineString routes with at least two valid positions, in document order."""
    found = []
    for feature in data.get("features") or []:
        geometry = feature.get("geometry") if isinstance(feature, dict) else None
        if isinstance(geometry, dict) and geometry.get("type") == "LineString" \
                and isinstance(geometry.get("coordinates"), list):
            line = [c for c in geometry["coordinates"] if _is_position(c)]
            if len(line) >= 2:
                found.append(line)
    return found


def uniform_indices(length: int, count: int) -> list[int]:
    """`count` indices spread evenly over `length`, first and last kept."""
    if count <= 1:
        return [0]
    return [math.floor(i * (length - 1) / (count - 1) + 0.5) for i in range(count)]


def downsample(data: dict, max_points: int) -> dict:
    """Each LineString feature to at most `max_points` of its own samples, its
    coordinateProperties series picked at the same indices."""
    features = []
    for feature in data["features"]:
        geometry = feature.get("geometry") if isinstance(feature, dict) else None
        coords = geometry.get("coordinates") if isinstance(geometry, dict) else None
        if geometry is None or geometry.get("type") != "LineString" or not isinstance(coords, list) \
                or len(coords) <= max_points:
            features.append(feature)
            continue
        picked = uniform_indices(len(coords), max_points)
        feature = {**feature, "geometry": {**geometry, "coordinates": [coords[i] for i in picked]}}
        props = feature.get("properties")
        if isinstance(props, dict) and isinstance(props.get("coordinateProperties"), dict):
            series = {name: ([values[i] if i < len(values) else None for i in picked]
                             if isinstance(values, list) and len(values) == len(coords) else values)
                      for name, values in props["coordinateProperties"].items()}
            feature["properties"] = {**props, "coordinateProperties": series}
        features.append(feature)
    return {**data, "features": features}


def _round_value(value, digits: int):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return value
    return js_round(value, digits)


def _compact_metadata(value, key: str | None = None):
    if isinstance(value, dict):
        return {k: _compact_metadata(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_compact_metadata(v, key) for v in value]
    return _round_value(value, 0 if key in _INTEGER_METADATA else 1)


def _compact_position(position):
    if not _is_pair(position):
        return position
    return [_round_value(position[0], 5), _round_value(position[1], 5),
            *[_round_value(v, 1) for v in position[2:]]]


def compact(data: dict) -> dict:
    """The original's output precision: 5 decimals for positions, whole seconds for
    times, one decimal for every other series and for metadata."""
    features = []
    for feature in data["features"]:
        if not isinstance(feature, dict):
            features.append(feature)
            continue
        feature = dict(feature)
        geometry = feature.get("geometry")
        if isinstance(geometry, dict) and geometry.get("type") == "LineString" \
                and isinstance(geometry.get("coordinates"), list):
            feature["geometry"] = {**geometry, "coordinates": [_compact_position(c) for c in geometry["coordinates"]]}
        props = feature.get("properties")
        if isinstance(props, dict):
            props = dict(props)
            if isinstance(props.get("coordinateProperties"), dict):
                props["coordinateProperties"] = {
                    name: [_round_value(v, 0 if name in _INTEGER_SERIES else 1) for v in values]
                    if isinstance(values, list) else values
                    for name, values in props["coordinateProperties"].items()}
            if isinstance(props.get("metadata"), dict):
                props["metadata"] = _compact_metadata(props["metadata"])
            feature["properties"] = props
        features.append(feature)
    out = {**data, "features": features}
    if isinstance(data.get("bbox"), list):
        out["bbox"] = [_round_value(v, 5) for v in data["bbox"]]
    return out


def _unit(lon: float, lat: float) -> tuple[float, float, float]:
    lam, phi = math.radians(lon), math.radians(lat)
    return math.cos(phi) * math.cos(lam), math.cos(phi) * math.sin(lam), math.sin(phi)


def _angle(a, b) -> float:
    dot = max(-1.0, min(1.0, sum(x * y for x, y in zip(a, b))))
    return math.acos(dot)


def route_length_m(points: list[list[float]]) -> float:
    units = [_unit(p[0], p[1]) for p in points]
    return sum(_angle(a, b) for a, b in zip(units, units[1:])) * EARTH_RADIUS_M


def bbox(points: list[list[float]]) -> list[float]:
    lons, lats = [p[0] for p in points], [p[1] for p in points]
    return [min(lons), min(lats), max(lons), max(lats)]


def points_of_interest(points: list[list[float]]) -> list[dict]:
    """start, end, midway (more than three samples), the length-weighted spherical
    centroid and the point furthest from the start, in that order."""
    def at(p):
        return [_round_value(p[0], 5), _round_value(p[1], 5)]

    poi = [{"role": "start", "coordinates": at(points[0])}, {"role": "end", "coordinates": at(points[-1])}]
    if len(points) > 3:
        poi.append({"role": "midway", "coordinates": at(points[len(points) // 2])})
    units = [_unit(p[0], p[1]) for p in points]
    sx = sy = sz = 0.0
    for a, b in zip(units, units[1:]):
        weight = _angle(a, b)
        sx, sy, sz = sx + (a[0] + b[0]) * weight, sy + (a[1] + b[1]) * weight, sz + (a[2] + b[2]) * weight
    norm = math.sqrt(sx * sx + sy * sy + sz * sz)
    if norm > 0:
        centroid = [math.degrees(math.atan2(sy, sx)), math.degrees(math.asin(sz / norm))]
    else:
        centroid = points[0]
    poi.append({"role": "centroid", "coordinates": at(centroid)})
    furthest = max(range(len(points)), key=lambda i: _angle(units[0], units[i]))
    poi.append({"role": "furthest", "coordinates": at(points[furthest])})
    return poi


def label_points_of_interest(data: dict, label_for) -> dict:
    """Labels from `label_for(lon, lat)` on the document's own poi entries, as the
    original's server adds them (exact coordinate match, unlabeled when unknown)."""
    if not isinstance(data.get("poi"), list):
        return data
    labelled = []
    for entry in data["poi"]:
        coords = entry.get("coordinates") if isinstance(entry, dict) else None
        label = label_for(coords[0], coords[1]) if _is_position(coords) else None
        labelled.append({**entry, "label": label} if label else entry)
    return {**data, "poi": labelled}


def summary(data: dict, line_points: int) -> dict:
    """What the page keeps of a track: bounds, length, sample count, start and end, and
    a short line of at most `line_points` positions for drawing."""
    routes = lines(data)
    every = [p for route in routes for p in route]
    short = []
    budget = max(2, line_points // len(routes))
    for route in routes:
        picked = uniform_indices(len(route), min(len(route), budget))
        short.append([[_round_value(route[i][0], 5), _round_value(route[i][1], 5)] for i in picked])
    return {
        "bbox": [_round_value(v, 5) for v in bbox(every)],
        "distance_m": round(sum(route_length_m(route) for route in routes), 1),
        "point_count": len(every),
        "start": [_round_value(v, 5) for v in every[0][:2]],
        "end": [_round_value(v, 5) for v in every[-1][:2]],
        "lines": short,
    }
