"""GET /geo/encode and /geo/decode (docs/api.md, "Geo"); rules in sns/geo/service.py."""

from __future__ import annotations

import math
import re

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from sns.core.errors import InvalidInput, NotFound
from sns.geo import service

from . import schema
from .permissions import Public

PLACES = OpenApiResponse(
    response={
        "type": "array",
        "items": {
            "type": "object",
            "required": ["level", "kind", "country", "longitude", "latitude", "addresses"],
            "properties": {
                "level": {"type": "integer"},
                "kind": {
                    "type": "string",
                    "enum": [
                        "country",
                        "prefecture",
                        "municipality",
                        "special-ward",
                        "designated-city-ward",
                    ],
                },
                "country": {"type": "string"},
                "longitude": {"type": "number"},
                "latitude": {"type": "number"},
                "addresses": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["locale", "label", "elements"],
                        "properties": {
                            "locale": {"type": "string"},
                            "label": {"type": "string"},
                            "elements": {"type": "array", "items": {"type": "string"}},
                        },
                    },
                },
            },
        },
    },
    description="the place found and the places above it, deepest first",
)
QUERY_HASH = OpenApiParameter(
    service.QUERY_HASH_HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="without a session: SHA-1 hex of the canonical query string (docs/api.md, Geo)",
)
LOCALE = schema.query(
    "locale",
    {"type": "string", "pattern": r"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$"},
    "e.g. ja or ja-JP; default en",
)
ERRORS = schema.errors(400, 403, 404)
# What JavaScript's Number() reads as a decimal number; float() would also take "nan",
# "inf" and "1_0".
_NUMBER = re.compile(r"^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$")


def _single(request, name: str) -> str | None:
    """One value of a query parameter; a repeated one counts as absent, as the original
    (whose parser makes an array of it) treats it."""
    values = request.query_params.getlist(name)
    return values[0] if len(values) == 1 else None


def _locale(request) -> str | None:
    return _single(request, "locale") or None


def _coordinate(request, name: str, bound: int) -> float:
    value = _single(request, name)
    if value is None or not value.strip():
        raise InvalidInput(f"{name} is required")
    if not _NUMBER.match(value) or not math.isfinite(number := float(value)):
        raise InvalidInput(f"{name} must be a number")
    if not -bound <= number <= bound:
        raise InvalidInput(f"{name} must be between -{bound} and {bound}")
    return number


def _caller(request):
    caller = service.geo_caller(
        request.user,
        request.META.get("QUERY_STRING", ""),
        request.headers.get(service.QUERY_HASH_HEADER),
    )
    service.check_budget(caller)
    return caller


def _answer(places: list) -> Response:
    if not places:
        raise NotFound("not found")
    return Response(places)


class GeoEncodeView(APIView):
    permission_classes = [Public]

    @extend_schema(
        parameters=[
            schema.query("query", required=True, description="a place name"),
            LOCALE,
            QUERY_HASH,
        ],
        responses={200: PLACES, **ERRORS},
        operation_id="geo_encode",
    )
    def get(self, request):
        caller = _caller(request)
        query = (_single(request, "query") or "").strip()
        if not query:
            raise InvalidInput("query is required")
        locale = _locale(request)
        return _answer(service.timed(caller, lambda coder: coder.encode(query, locale)))


class GeoDecodeView(APIView):
    permission_classes = [Public]

    @extend_schema(
        parameters=[
            schema.query(
                "longitude",
                {"type": "number", "minimum": -180, "maximum": 180},
                "degrees, -180 to 180",
                required=True,
            ),
            schema.query(
                "latitude",
                {"type": "number", "minimum": -90, "maximum": 90},
                "degrees, -90 to 90",
                required=True,
            ),
            LOCALE,
            QUERY_HASH,
        ],
        responses={200: PLACES, **ERRORS},
        operation_id="geo_decode",
    )
    def get(self, request):
        caller = _caller(request)
        longitude = _coordinate(request, "longitude", 180)
        latitude = _coordinate(request, "latitude", 90)
        locale = _locale(request)
        return _answer(
            service.timed(caller, lambda coder: coder.decode(longitude, latitude, locale))
        )
