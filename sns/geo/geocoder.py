"""A static geocoder over the NDJSON place files (sns/geo/records.py).

encode: a name, with its leading hierarchy levels optionally left out
("Tokorozawa, Saitama, Japan", "Tokorozawa, Saitama", "Tokorozawa"; "日本埼玉県所沢市",
"埼玉県所沢市", "所沢市"), case-insensitive; full labels win over aliases. decode: the
nearest representative or sample point within 10 km, among municipalities, Tokyo's
special wards and the wards of designated cities (whose city as a whole is left out).
Both answer the match with the places above it (country, prefecture...), deepest
first, each with its English address and, for another supported locale, that one too.
"""

from __future__ import annotations

import bisect
import math
from collections import defaultdict
from pathlib import Path

from .locales import language_of, locale_candidates, normalize_locale
from .records import Address, GeoDataError, Place, SamplePoint, read_records

DEFAULT_LOCALE = "en"
MAX_DECODE_DISTANCE_KM = 10.0
EARTH_RADIUS_KM = 6371.0088
_LATITUDE_WINDOW = math.degrees(MAX_DECODE_DISTANCE_KM / EARTH_RADIUS_KM)


def _key(value: str) -> str:
    return value.strip().lower()


def search_labels(address: Address) -> list[str]:
    """The full label, then the label without each leading level in turn."""
    labels = [address.label]
    language = language_of(address.locale)
    if language not in ("ja", "en"):
        return labels
    for start in range(1, len(address.elements)):
        rest = address.elements[start:]
        label = "".join(rest) if language == "ja" else ", ".join(reversed(rest))
        if label not in labels:
            labels.append(label)
    return labels


def distance_km(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    d_phi, d_lambda = phi2 - phi1, math.radians(lon2 - lon1)
    h = math.sin(d_phi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(d_lambda / 2) ** 2
    return EARTH_RADIUS_KM * 2 * math.asin(min(1.0, math.sqrt(h)))


class GeoCoder:
    def __init__(self, files: list[str | Path]) -> None:
        if not files:
            raise GeoDataError("the geocoder needs at least one NDJSON file")
        self.places: dict[int, Place] = {}
        self.countries: dict[str, Place] = {}
        self.by_japanese_label: dict[tuple[str, str], Place] = {}
        self.labels: dict[str, dict[str, list[Place]]] = defaultdict(lambda: defaultdict(list))
        self.aliases: dict[str, dict[str, list[Place]]] = defaultdict(lambda: defaultdict(list))
        self.locales: set[str] = set()
        points: list[tuple[str, int, SamplePoint]] = []
        for path in files:
            for line, record in read_records(path):
                if isinstance(record, SamplePoint):
                    points.append((str(path), line, record))
                else:
                    self._add(record, f"{path}:{line}")
        if not self.places:
            raise GeoDataError("the geocoder's files contain no place records")
        for place in self.places.values():
            if place.kind != "country" and place.country not in self.countries:
                raise GeoDataError(f"place {place.id} has no country record: {place.country}")
        self.default_locale = self._supported(DEFAULT_LOCALE) or DEFAULT_LOCALE
        decodable = self._decodable_ids()
        for path, line, point in points:
            if point.belong_to not in self.places:
                raise GeoDataError(f"{path}:{line}: sample point of unknown place id: {point.belong_to}")
            if point.belong_to not in decodable:
                raise GeoDataError(f"{path}:{line}: sample point must belong to a reverse-geocoding place")
        # (latitude, longitude, place id) of every candidate point, sorted by latitude,
        # so decode scans only the band within 10 km north and south.
        candidates = [(p.latitude, p.longitude, p.id) for p in map(self.places.get, decodable)]
        candidates += [(pt.latitude, pt.longitude, pt.belong_to) for _, _, pt in points]
        candidates.sort()
        self._points = candidates
        self._latitudes = [c[0] for c in candidates]

    def _add(self, place: Place, where: str) -> None:
        if place.id in self.places:
            raise GeoDataError(f"{where}: duplicate place id: {place.id}")
        japanese = place.japanese()
        if japanese is None:
            raise GeoDataError(f"{where}: place has no Japanese address")
        label_key = (place.country, japanese.label)
        if label_key in self.by_japanese_label:
            raise GeoDataError(f"{where}: duplicate Japanese label in {place.country}: {japanese.label}")
        if place.kind == "country":
            if place.country in self.countries:
                raise GeoDataError(f"{where}: duplicate country record: {place.country}")
            self.countries[place.country] = place
        self.places[place.id] = place
        self.by_japanese_label[label_key] = place
        for address in place.addresses:
            self.locales.add(address.locale)
            for label in search_labels(address):
                self.labels[address.locale][_key(label)].append(place)
            for alias in address.aliases:
                self.aliases[address.locale][_key(alias)].append(place)

    def _decodable_ids(self) -> set[int]:
        """Municipalities, special wards and designated-city wards — not the designated
        cities themselves, whose wards stand for them."""
        ward_parents = set()
        for place in self.places.values():
            if place.kind != "designated-city-ward":
                continue
            parent_label = "".join(place.japanese().elements[:-1])
            parent = self.by_japanese_label.get((place.country, parent_label))
            if parent is None or parent.kind != "municipality":
                raise GeoDataError(f"designated-city-ward {place.id} has no parent municipality: {parent_label}")
            ward_parents.add(parent.id)
        ids = {
            p.id for p in self.places.values()
            if p.kind in ("designated-city-ward", "special-ward")
            or (p.kind == "municipality" and p.id not in ward_parents)
        }
        if not ids:
            raise GeoDataError("the geocoder's files contain no reverse-geocoding places")
        return ids

    def _supported(self, locale: str | None) -> str | None:
        return next((c for c in locale_candidates(locale) if c in self.locales), None)

    def resolve_locale(self, locale: str | None) -> str:
        return self._supported(locale) or self.default_locale

    def _search_locales(self, locale: str) -> list[str]:
        return [locale] if locale == self.default_locale else [locale, self.default_locale]

    def encode(self, query: str, locale: str | None = None) -> list[dict]:
        key = _key(query)
        if not key:
            return []
        resolved = self.resolve_locale(locale)
        matched: dict[int, Place] = {}
        for search_locale in self._search_locales(resolved):
            found = self.labels.get(search_locale, {}).get(key) or self.aliases.get(search_locale, {}).get(key, [])
            for place in found:
                matched[place.id] = place
        return self._answer(matched.values(), resolved)

    def decode(self, longitude: float, latitude: float, locale: str | None = None) -> list[dict]:
        if not (-180 <= longitude <= 180 and -90 <= latitude <= 90):
            return []
        start = bisect.bisect_left(self._latitudes, latitude - _LATITUDE_WINDOW)
        end = bisect.bisect_right(self._latitudes, latitude + _LATITUDE_WINDOW)
        best_id, best = None, math.inf
        for lat, lon, place_id in self._points[start:end]:
            distance = distance_km(longitude, latitude, lon, lat)
            if distance < best:
                best_id, best = place_id, distance
        if best_id is None or best > MAX_DECODE_DISTANCE_KM:
            return []
        return self._answer([self.places[best_id]], self.resolve_locale(locale))

    def _answer(self, matched, locale: str) -> list[dict]:
        hierarchy: dict[int, Place] = {}
        for place in matched:
            country = self.countries.get(place.country)
            if country is not None:
                hierarchy[country.id] = country
            label = ""
            for element in place.japanese().elements:
                label += element
                above = self.by_japanese_label.get((place.country, label))
                if above is not None:
                    hierarchy[above.id] = above
        ordered = sorted(hierarchy.values(), key=lambda p: (-p.level, p.country, p.id))
        return [self._public(place, locale) for place in ordered]

    def _public(self, place: Place, locale: str) -> dict:
        wanted = [self.default_locale] if locale == self.default_locale else [self.default_locale, locale]
        addresses = [
            address.public()
            for want in wanted
            for address in place.addresses[:]
            if address.locale == want
        ]
        return {
            "level": place.level,
            "kind": place.kind,
            "country": place.country,
            "longitude": place.longitude,
            "latitude": place.latitude,
            "addresses": addresses,
        }


__all__ = ["GeoCoder", "GeoDataError", "normalize_locale"]
