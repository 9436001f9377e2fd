"""Query-string and body parsing shared by the API views (docs/api.md §0)."""

from __future__ import annotations

import re
from datetime import timezone

from django.conf import settings
from django.utils.dateparse import parse_datetime
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from sns.core.errors import InvalidInput
from sns.core.ids import id_to_hex, parse_id
from sns.selectors import Page
from sns.selectors.authors import authors_parse

# Ids an admin supplies for a new row: exactly 16 upper-case hex digits (docs/api.md §0).
_STRICT_HEX_ID = re.compile(r"^[0-9A-F]{16}$")
# What HexIdField reads: a hex id, "" or null (no id).
_OPTIONAL_HEX_ID = {"type": "string", "nullable": True, "pattern": r"^((0x)?[0-9a-fA-F]{1,16})?$"}
_QUERY_INT = re.compile(r"^\s*[+-]?[0-9]{1,19}\s*$", re.ASCII)

ADMIN_MAX_LIMIT = 65535
# Offsets and counts reach SQL as BIGINT; a larger number would be a database error.
INT_MAX = (1 << 63) - 1


def int_value(value, default: int, name: str, *, minimum: int = 0) -> int:
    """A whole number from a query string: blank → default, anything that is not a
    number in minimum..2^63-1 → 400 `invalid <name>`."""
    if value in (None, ""):
        return default
    # int() also reads "1_000", "١٢" and 4,000-digit numbers; a query number is plain digits.
    if not isinstance(value, str) or not _QUERY_INT.match(value):
        raise InvalidInput(f"invalid {name}")
    number = int(value)
    if not minimum <= number <= INT_MAX:
        raise InvalidInput(f"invalid {name}")
    return number


def page_params(request, orders=("desc", "asc"), default_limit: int = 100) -> Page:
    query = request.query_params
    max_limit = ADMIN_MAX_LIMIT if request.user.is_admin else settings.STGY_MAX_PAGE_LIMIT
    limit = min(int_value(query.get("limit"), default_limit, "limit"), max_limit)
    order = (query.get("order") or orders[0]).lower()
    if order not in orders:
        raise InvalidInput("invalid order")
    return Page(offset=int_value(query.get("offset"), 0, "offset"), limit=limit, order=order)


def optional_id(request, name: str) -> int | None:
    value = request.query_params.get(name)
    if value in (None, ""):
        return None
    return parse_id(value, name)


def cursor(request, page: Page, name: str = "after") -> int | None:
    value = optional_id(request, name)
    if value is not None and page.offset != 0:
        raise InvalidInput(f"{name} requires offset=0")
    return value


def required_id(request, name: str) -> int:
    value = optional_id(request, name)
    if value is None:
        raise InvalidInput(f"{name} is required")
    return value


def optional_int(request, name: str) -> int | None:
    value = request.query_params.get(name)
    return None if value in (None, "") else int_value(value, 0, name)


def flag(request, name: str, default: bool) -> bool:
    value = request.query_params.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def optional_datetime(request, name: str):
    value = request.query_params.get(name)
    if value in (None, ""):
        return None
    try:
        parsed = parse_datetime(value.strip().replace("Z", "+00:00"))
    except ValueError:
        parsed = None
    if parsed is None:
        raise InvalidInput(f"invalid {name}")
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=timezone.utc)
    try:
        # 9999-12-31T23:59-23:00 parses, but lies past the last UTC datetime.
        return parsed.astimezone(timezone.utc)
    except OverflowError:
        raise InvalidInput(f"invalid {name}") from None


def body(request, serializer_class) -> dict:
    """The validated JSON body as a dict keyed by the serializer fields' sources, so
    camelCase keys arrive as the services' keyword names. Only keys present in the
    body (or given a default) appear."""
    if not isinstance(request.data, dict):
        raise InvalidInput("invalid body")
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class BodySerializer(serializers.Serializer):
    # An API body. `schema_required` names the fields the OpenAPI document marks
    # required although the serializer lets them through: the service checks them and
    # owns the message ("content is required"), which a serializer error would replace.
    # (A comment, not a docstring: the document would show it for every body.)

    schema_required: tuple[str, ...] = ()


@extend_schema_field(OpenApiTypes.STR)
class PassedText(serializers.JSONField):
    """A string in the schema, passed through as sent for the service to check."""


@extend_schema_field({"type": "array", "items": {"type": "string"}})
class PassedStrings(serializers.JSONField):
    """An array of strings in the schema, passed through as sent."""


@extend_schema_field(OpenApiTypes.BOOL)
class PassedBool(serializers.JSONField):
    """A boolean in the schema, passed through as sent."""


class StringField(serializers.CharField):
    """A CharField that takes strings only: DRF's would store the number 2^63 sent
    as a nickname as the text "9223372036854775808"."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            raise InvalidInput(f"{self.field_name} must be a string")
        return super().to_internal_value(data)


@extend_schema_field(
    {
        "type": "string",
        "nullable": True,
        "maxLength": 50,
        "pattern": r"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$",
    }
)
class LocaleField(StringField):
    """A locale such as `en-US` (`en_us` is read as `en-US`); the service checks it."""


@extend_schema_field(_OPTIONAL_HEX_ID)
class HexIdField(serializers.Field):
    """A 16-hex-digit id in a body. null or "" mean "none"; a malformed id is
    400 `invalid <field>`. `strict` is for ids an admin supplies for a new row."""

    def __init__(self, *, strict: bool = False, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_null", True)
        self.strict = strict
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if data in ("", None):
            return None
        if self.strict and not (isinstance(data, str) and _STRICT_HEX_ID.match(data)):
            raise InvalidInput(f"invalid {self.field_name}")
        if not isinstance(data, str):
            raise InvalidInput(f"invalid {self.field_name}")
        return parse_id(data, self.field_name)

    def to_representation(self, value):
        return id_to_hex(value)


def authors_param(request) -> str | None:
    """The People / AI / All filter of the post lists (sns/selectors/authors.py):
    `authors=people|ai|all`, 400 `invalid authors` for anything else."""
    return authors_parse(request.query_params.get("authors"))
