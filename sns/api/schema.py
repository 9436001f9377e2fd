"""OpenAPI annotations shared by the API views (drf-spectacular).

What a client needs to find its way: paths, query parameters (required ones marked),
request bodies, the rough shape of answers and every error status an operation can
give, each with the one `{"error": "..."}` body. The field-level contract is docs/api.md.
"""

from __future__ import annotations

import re

from drf_spectacular.extensions import (
    OpenApiAuthenticationExtension,
    OpenApiSerializerExtension,
    OpenApiSerializerFieldExtension,
)
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import serializers

from .permissions import LoginRequired

# What sns.core.ids.parse_id reads; anything else is 400 `invalid <name>`.
HEX_ID_PATTERN = r"^(0x)?[0-9a-fA-F]{1,16}$"
HEX_ID = {"type": "string", "pattern": HEX_ID_PATTERN}
_SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
_PATH_ID = re.compile(r"\{(\w+_id)\}")
_MEANINGS = {
    400: "invalid input: a malformed id, number, query or body (e.g. `invalid offset`)",
    401: "login required",
    403: "not allowed for this user (or a cross-site request)",
    404: "not found",
    409: "the version named is no longer the current one",
    413: "request body is too large",
    415: "the body is not application/json",
    429: "too many requests",
    500: "the AI model answered unusably",
    501: "ai features are disabled",
    503: "the AI service is unavailable",
}


@extend_schema_serializer(component_name="Error")
class ErrorSerializer(serializers.Serializer):
    error = serializers.CharField(help_text="a short lower-case message, e.g. `invalid id`")


def error(status: int, description: str | None = None) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description or _MEANINGS[status])


def errors(*statuses: int) -> dict:
    """`{status: error response}` for `responses=` dicts: the codes a view adds to the
    ones every operation of its kind gets (see StgyAutoSchema)."""
    return {status: error(status) for status in statuses}


class StgyAutoSchema(AutoSchema):
    """Adds the error answers that come from the shared machinery rather than from a
    view, so no operation can leave them out:

    * 400 everywhere: NUL in a query, a malformed number or id, an invalid JSON body;
    * 401 on views behind the default login permission;
    * 403, 413 and 415 on unsafe methods: cross-site refusals, frozen accounts and
      throttles, the body size limit, non-JSON bodies;
    * 404 where the path names a resource.

    A view's own `responses=` entries for the same code take precedence.
    """

    def get_override_parameters(self):
        # Path ids are hex ids like every other id; saying so lets clients (and
        # fuzzers) tell a well-formed id from one the server answers 400.
        params = [
            OpenApiParameter(name, HEX_ID, OpenApiParameter.PATH)
            for name in _PATH_ID.findall(self.path)
        ]
        return params + list(super().get_override_parameters())

    def _get_response_bodies(self, direction="response"):
        bodies = super()._get_response_bodies(direction)
        for status in self._implied_errors():
            if str(status) not in bodies:
                bodies[str(status)] = self._get_response_for_code(
                    error(status), str(status), direction=direction
                )
        return dict(sorted(bodies.items()))

    def _implied_errors(self) -> list[int]:
        statuses = [400]
        # The view's own choice for this method (the chat's HEAD is public, its POST not).
        if any(isinstance(p, LoginRequired) for p in self.view.get_permissions()):
            statuses.append(401)
        if self.method not in _SAFE_METHODS:
            statuses += [403, 413, 415]
        if "{" in self.path:
            statuses.append(404)
        return statuses


class SessionCookieScheme(OpenApiAuthenticationExtension):
    target_class = "sns.api.authentication.SessionCookieAuthentication"
    name = "sessionCookie"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "cookie", "name": "session_id"}


# What the JSON parser lets through in any string (sns/api/parsers.py): no NUL, no lone
# surrogate; the rest is `<key> contains invalid characters`.
STORABLE_TEXT = r"^[^\u0000\ud800-\udfff]*$"
# An address the mail rules accept (a plain subset: what a client should send).
EMAIL_PATTERN = (
    r"^[a-z0-9]([a-z0-9._+-]{0,30}[a-z0-9])?@[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?(\.[a-z]{2,8}){1,2}$"
)


@extend_schema_field({"type": "string", "pattern": STORABLE_TEXT})
class StorableText(serializers.CharField):
    """A string field of a hand-written body schema, with what the parser refuses said."""


@extend_schema_field(
    {
        "type": "string",
        "pattern": r"^[^\u0000\ud800-\udfff]*[^\s\u0000\ud800-\udfff][^\u0000\ud800-\udfff]*$",
    }
)
class NonBlankText(serializers.CharField):
    """As StorableText, and not blank: the view answers a blank one as missing."""


@extend_schema_field(HEX_ID)
class HexIdText(serializers.CharField):
    """A hex id in a body that the view parses itself (400 `invalid id` otherwise)."""


def _storable(prop: dict) -> None:
    """Each free string of a request body (and of its arrays) says what the parser refuses."""
    if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
        _storable(prop["items"])
    elif prop.get("type") == "string" and not {"pattern", "enum", "format"} & prop.keys():
        prop["pattern"] = STORABLE_TEXT


class BodyRequiredFields(OpenApiSerializerExtension):
    """Marks a body's `schema_required` fields required in the document, and not blank
    (the services answer a blank one as missing); says what text the parser takes; and
    gives `email` fields the shape of an address."""

    target_class = "sns.api.params.BodySerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        names = set(schema.get("required", ())) | set(self.target.schema_required)
        if names:
            schema["required"] = sorted(names)
        if direction != "request":
            return schema
        properties = schema.get("properties", {})
        for name, prop in properties.items():
            if name == "email" and prop.get("type") == "string":
                prop["pattern"] = EMAIL_PATTERN
            _storable(prop)
        for name in self.target.schema_required:
            prop = properties.get(name, {})
            if prop.get("type") == "string":
                prop.setdefault("minLength", 1)
                prop.pop("nullable", None)
        return schema


class HexIdFieldSchema(OpenApiSerializerFieldExtension):
    """A body's hex id; one an admin supplies for a new row is exactly 16 upper-case hex
    digits (sns/api/params.py `HexIdField(strict=True)`)."""

    target_class = "sns.api.params.HexIdField"

    def map_serializer_field(self, auto_schema, direction):
        if self.target.strict:
            return {"type": "string", "nullable": True, "pattern": r"^([0-9A-F]{16})?$"}
        return {"type": "string", "nullable": True, "pattern": r"^((0x)?[0-9a-fA-F]{1,16})?$"}


def query(
    name: str, kind=OpenApiTypes.STR, description: str = "", *, required: bool = False
) -> OpenApiParameter:
    return OpenApiParameter(
        name, kind, OpenApiParameter.QUERY, description=description, required=required
    )


def hex_id(name: str, description: str = "hex id", *, required: bool = False) -> OpenApiParameter:
    """A 64-bit id as up to 16 hex digits (optionally 0x-prefixed)."""
    return OpenApiParameter(
        name,
        HEX_ID,
        OpenApiParameter.QUERY,
        description=description,
        required=required,
    )


def choice(name: str, values, description: str = "", *, required: bool = False) -> OpenApiParameter:
    """A query parameter that takes one of `values` (the server also reads them in any case)."""
    return query(name, {"type": "string", "enum": list(values)}, description, required=required)


INT64 = {"type": "integer", "minimum": 0, "maximum": (1 << 63) - 1}
ORDER = choice("order", ("desc", "asc"), "desc (default) or asc")
PAGE = [query("offset", INT64), query("limit", INT64), ORDER]
REPLY_TO = query(
    "replyTo",
    {"type": "string", "pattern": r"^((0x)?[0-9a-fA-F]{1,16}|\*)?$"},
    'a hex id, "" for root posts, "*" for replies',
)
FOCUS = hex_id("focusUserId", "hex id of the user the relation flags are about")
AFTER = hex_id("after", "hex id cursor; needs offset=0")
AUTHORS = query("authors", description="people, ai or all (default): whose posts are listed")

OBJECT = OpenApiTypes.OBJECT
LIST = OpenApiResponse(response={"type": "array", "items": {"type": "object"}})
OK = OpenApiResponse(response=OpenApiTypes.OBJECT, description='{"result": "ok"}')
NO_CONTENT = OpenApiResponse(description="no content")


def api_paths_only(endpoints):
    """The operations under /api/ once: /backend/ is the same API under the path the
    original's frontend and tools call it by."""
    return [endpoint for endpoint in endpoints if not endpoint[0].startswith("/backend/")]
