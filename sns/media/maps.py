"""Maps in posts (docs/media.md §10), written as the original writes them, one per line:

    @[caption](map://lon,lat[,zoom][|lon,lat;title;description;urls;images]...){options}
    @[caption](/tracks/<user>/previews/<rev>/<file>.trjgz[|pins...]){options}

A place (`map://`) is a centre, a zoom (default 13, 0..22) and pins; a track names the
preview of an uploaded track (sns/services/tracks.py). Coordinates are longitude first
and may carry N/S/E/W suffixes. The figure carries everything the page script
(static/stgy-map.js) needs in one `data-map` attribute and shows the same facts as
text, which is all a reader without JavaScript gets.
"""

from __future__ import annotations

import json
import re
from html import escape

from . import storage

TRACK_PREFIX = "/tracks/"
DEFAULT_ZOOM = 13
_LINE = re.compile(r"^\s*@\[([^\]]*)\]\s*\(([^)]+)\)\s*(?:\{([^}]*)\})?\s*$")
_TRACK_FILE = re.compile(r"\.(?:fit|trjgz)(?:[?#].*)?$", re.IGNORECASE)
_SIZES = {"xsmall", "small", "medium", "large", "xlarge"}


def _coordinate(raw: str, axis: str) -> float | None:
    value = raw.strip()
    suffix = value[-1:].upper() if value[-1:].upper() in ("N", "S", "E", "W") else ""
    number = _number(value[:-1].strip() if suffix else value)
    if number is None:
        return None
    if suffix:
        if suffix not in (("E", "W") if axis == "lon" else ("N", "S")) or number < 0:
            return None
        number = -number if suffix in ("W", "S") else number
    return number


def _number(raw: str) -> float | None:
    try:
        number = float(raw)
    except ValueError:
        return None
    return number if number == number and abs(number) != float("inf") else None


def _lon_lat(raw: str) -> tuple[float, float] | None:
    parts = raw.split(",")
    if len(parts) < 2:
        return None
    lon, lat = _coordinate(parts[0], "lon"), _coordinate(parts[1], "lat")
    if lon is None or lat is None or not (-180 <= lon <= 180 and -90 <= lat <= 90):
        return None
    return lon, lat


def _safe_url(url: str) -> bool:
    return url.startswith(("https://", "http://", "/")) and not url.startswith("//")


def _pins(blocks: list[str]) -> list[dict]:
    pins = []
    for block in blocks:
        fields = [f.strip() for f in block.split(";")]
        point = _lon_lat(fields[0]) if fields[0] else None
        if point is None:
            continue
        pin: dict = {"lon": point[0], "lat": point[1]}
        for name, index in (("title", 1), ("description", 2)):
            if len(fields) > index and fields[index]:
                pin[name] = fields[index]
        urls = [u for u in (fields[3].split() if len(fields) > 3 else []) if _safe_url(u)]
        if urls:
            pin["urls"] = urls
        pins.append(pin)
    return pins


def _options(raw: str | None) -> dict:
    options = {}
    for token in (raw or "").split(","):
        key, _, value = token.strip().partition("=")
        if key.strip():
            options[key.strip()] = value.strip() or True
    return options


def parse_line(line: str) -> dict | None:
    """The map a line stands for, or None when it is not a map or track line."""
    match = _LINE.match(line)
    if not match:
        return None
    caption, url, options = match.group(1).strip(), match.group(2).strip(), _options(match.group(3))
    if url.lower().startswith("map://"):
        blocks = [b.strip() for b in url[len("map://"):].split("|")]
        centre = [p.strip() for p in blocks[0].split(",")] if blocks and blocks[0] else []
        point = _lon_lat(",".join(centre[:2])) if len(centre) in (2, 3) else None
        zoom = _number(centre[2]) if len(centre) == 3 else DEFAULT_ZOOM
        if point is None or zoom is None or not 0 <= zoom <= 22:
            return {"kind": "invalid", "caption": caption, "options": options}
        return {"kind": "place", "caption": caption, "lon": point[0], "lat": point[1], "zoom": zoom,
                "pins": _pins(blocks[1:]), "options": options}
    source, *pin_blocks = [b.strip() for b in url.split("|")]
    if not _TRACK_FILE.search(source) and not source.startswith(TRACK_PREFIX):
        return None
    return {"kind": "track", "caption": caption, "src": source, "pins": _pins(pin_blocks), "options": options}


def maps_as_text(markdown_text: str) -> str:
    """Each map line replaced by "[map: caption]" (or "[map]"): what an AI user's prompt
    shows of a place or a track (docs/media.md §7), never a storage key or a URL."""
    lines = (markdown_text or "").split("\n")
    for index, line in enumerate(lines):
        if line.lstrip().startswith("@[") and (spec := parse_line(line)) is not None:
            lines[index] = f"[map: {spec['caption']}]" if spec["caption"] else "[map]"
    return "\n".join(lines)


def preview_key(src: str) -> str | None:
    from . import keys

    if not src.startswith(TRACK_PREFIX):
        return None
    key = src[len(TRACK_PREFIX):].split("?", 1)[0].split("#", 1)[0]
    return key if keys.is_public(key, ("previews",)) else None


def resolve_tracks(specs: list[dict]) -> None:
    """Attach each track spec's stored summary (one query for all of them)."""
    wanted = {key for spec in specs if spec["kind"] == "track" and (key := preview_key(spec["src"]))}
    if not wanted:
        return
    from sns.models.media import MediaTrack  # the renderer loads before the app registry

    rows = {row.preview_key: row for row in MediaTrack.objects.filter(preview_key__in=wanted)}
    bucket = storage.tracks_bucket()
    for spec in specs:
        row = rows.get(preview_key(spec["src"]) or "") if spec["kind"] == "track" else None
        if row is not None:
            spec["track"] = {
                "title": row.title, "bbox": [row.min_lon, row.min_lat, row.max_lon, row.max_lat],
                "distanceM": row.distance_m, "points": row.point_count, "lines": row.lines,
                "url": storage.public_url(bucket, row.preview_key),
            }


def _degrees(lon: float, lat: float) -> str:
    return (f"{abs(lat):.5f}° {'N' if lat >= 0 else 'S'}, "
            f"{abs(lon):.5f}° {'E' if lon >= 0 else 'W'}")


def _pin_items(pins: list[dict]) -> str:
    items = []
    for pin in pins:
        parts = [f'<span class="stgy-map-coords">{escape(_degrees(pin["lon"], pin["lat"]))}</span>']
        if pin.get("title"):
            parts.insert(0, f"<strong>{escape(pin['title'])}</strong>")
        if pin.get("description"):
            parts.append(escape(pin["description"]))
        parts += [f'<a href="{escape(u)}">{escape(u)}</a>' for u in pin.get("urls", [])]
        items.append("<li>" + " ".join(parts) + "</li>")
    return f'<ul class="stgy-track-pins">{"".join(items)}</ul>' if items else ""


def _text(spec: dict) -> str:
    if spec["kind"] == "place":
        return (f'Map centred on <span class="stgy-map-coords">{escape(_degrees(spec["lon"], spec["lat"]))}</span>'
                f" (zoom {spec['zoom']:g})")
    if spec["kind"] == "invalid":
        return "An invalid map location."
    track = spec.get("track")
    if track is None:
        return "Track not available."
    first, last = track["lines"][0][0], track["lines"][-1][-1]
    title = f"<strong>{escape(track['title'])}</strong>: " if track["title"] else ""
    return (f"{title}Track of {track['distanceM'] / 1000:.2f} km from "
            f'<span class="stgy-map-coords">{escape(_degrees(*first))}</span> to '
            f'<span class="stgy-map-coords">{escape(_degrees(*last))}</span> '
            f'(<a href="{escape(track["url"])}">track file</a>)')


def render(spec: dict) -> str:
    """The figure's HTML; every user value escaped, the data as one JSON attribute."""
    data = {k: spec[k] for k in ("kind", "lon", "lat", "zoom", "pins") if k in spec}
    if spec.get("track"):
        data.update({k: spec["track"][k] for k in ("bbox", "lines")})
    classes = ["stgy-track-map"]
    size = spec["options"].get("size")
    if isinstance(size, str) and size.lower() in _SIZES:
        classes.append(f"map-{size.lower()}")
    if spec["options"].get("float") in ("left", "right"):
        classes.append(f"map-float-{spec['options']['float']}")
    drawable = spec["kind"] == "place" or bool(spec.get("track"))
    attribute = f' data-map="{escape(json.dumps(data, separators=(",", ":")))}"' if drawable else ""
    caption = f'<figcaption>{escape(spec["caption"])}</figcaption>' if spec["caption"] else ""
    return (f'<figure class="{" ".join(classes)}"{attribute}>'
            f'<div class="stgy-map-text">{_text(spec)}{_pin_items(spec.get("pins", []))}</div>'
            f"{caption}</figure>\n")
