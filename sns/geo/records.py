"""Reading the geocoder's NDJSON files: one JSON object a line, either a place (with
`id`) or an extra sample point of a place for reverse geocoding (with `belongTo`).
The format is the original's (docs/api.md, "Geo"); a malformed line stops the load
with its file and line number."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from .locales import language_of, normalize_locale

KIND_LEVELS = {
    "country": 1,
    "prefecture": 2,
    "municipality": 3,
    "special-ward": 3,
    "designated-city-ward": 4,
}
MAX_ID = 0xFFFFFFFF


class GeoDataError(ValueError):
    pass


@dataclass(frozen=True)
class Address:
    locale: str
    label: str
    elements: tuple[str, ...]
    aliases: tuple[str, ...]

    def public(self) -> dict:
        return {"locale": self.locale, "label": self.label, "elements": list(self.elements)}


@dataclass(frozen=True)
class Place:
    id: int
    level: int
    kind: str
    country: str
    longitude: float
    latitude: float
    addresses: tuple[Address, ...]

    def japanese(self) -> Address | None:
        exact = next((a for a in self.addresses if a.locale == "ja"), None)
        return exact or next((a for a in self.addresses if language_of(a.locale) == "ja"), None)


@dataclass(frozen=True)
class SamplePoint:
    longitude: float
    latitude: float
    belong_to: int


def label_matches(locale: str, label: str, elements: tuple[str, ...]) -> bool:
    """Japanese labels run from the country down without separators, English ones from
    the place up with commas; other languages are taken as given."""
    language = language_of(locale)
    if language == "ja":
        return "".join(elements) == label
    if language == "en":
        return ", ".join(reversed(elements)) == label
    return True


def read_records(path: str | Path):
    """Yield (line number, Place or SamplePoint) for every non-blank line."""
    where = str(path)
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            yield number, _parse(line, _Where(where, number))


class _Where:
    def __init__(self, path: str, line: int) -> None:
        self.path, self.line = path, line

    def error(self, message: str) -> GeoDataError:
        return GeoDataError(f"{self.path}:{self.line}: {message}")


def _parse(line: str, at: _Where):
    try:
        value = json.loads(line)
    except json.JSONDecodeError as exc:
        raise at.error(f"invalid JSON: {exc.msg}") from exc
    if not isinstance(value, dict):
        raise at.error("record must be an object")
    if ("id" in value) == ("belongTo" in value):
        raise at.error("record must contain exactly one of id or belongTo")
    if "id" in value:
        return _place(value, at)
    return SamplePoint(
        longitude=_coordinate(value.get("longitude"), 180, "longitude", at),
        latitude=_coordinate(value.get("latitude"), 90, "latitude", at),
        belong_to=_positive(value.get("belongTo"), "belongTo", at),
    )


def _positive(value, field: str, at: _Where) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
        raise at.error(f"{field} must be an integer between 1 and {MAX_ID}")
    return value


def _coordinate(value, bound: float, field: str, at: _Where) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not -bound <= value <= bound:
        raise at.error(f"{field} must be a number between -{bound} and {bound}")
    return float(value)


def _text(value, field: str, at: _Where) -> str:
    if not isinstance(value, str) or not value:
        raise at.error(f"{field} must be a non-empty string")
    return value


def _place(value: dict, at: _Where) -> Place:
    place_id = _positive(value.get("id"), "id", at)
    level = _positive(value.get("level"), "level", at)
    kind = value.get("kind")
    if kind not in KIND_LEVELS:
        raise at.error("invalid place kind")
    if KIND_LEVELS[kind] != level:
        raise at.error(f"place kind {kind} must have level {KIND_LEVELS[kind]}, got {level}")
    raw_addresses = value.get("addresses")
    if not isinstance(raw_addresses, list) or not raw_addresses:
        raise at.error("addresses must be a non-empty array")
    addresses, locales = [], set()
    for index, raw in enumerate(raw_addresses):
        field = f"addresses[{index}]"
        if not isinstance(raw, dict):
            raise at.error(f"{field} must be an object")
        raw_locale = _text(raw.get("locale"), f"{field}.locale", at)
        locale = normalize_locale(raw_locale)
        if locale is None:
            raise at.error(f"{field}.locale is invalid: {raw_locale}")
        if locale in locales:
            raise at.error(f"duplicate address locale: {locale}")
        locales.add(locale)
        label = _text(raw.get("label"), f"{field}.label", at)
        elements = raw.get("elements")
        if not isinstance(elements, list) or len(elements) != level:
            raise at.error(f"{field}.elements length must be {level} for {kind}")
        elements = tuple(_text(e, f"{field}.elements[{i}]", at) for i, e in enumerate(elements))
        if not label_matches(locale, label, elements):
            raise at.error(f"{field}.label does not match elements for locale {locale}")
        aliases = raw.get("aliases", [])
        if not isinstance(aliases, list):
            raise at.error(f"{field}.aliases must be an array")
        aliases = tuple(_text(a, f"{field}.aliases[{i}]", at) for i, a in enumerate(aliases))
        if len(set(aliases)) != len(aliases):
            raise at.error("duplicate address alias")
        addresses.append(Address(locale, label, elements, aliases))
    return Place(
        id=place_id,
        level=level,
        kind=kind,
        country=_text(value.get("country"), "country", at),
        longitude=_coordinate(value.get("longitude"), 180, "longitude", at),
        latitude=_coordinate(value.get("latitude"), 90, "latitude", at),
        addresses=tuple(addresses),
    )
