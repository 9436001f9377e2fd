"""Query-string parsing shared by the API views (spec/api.md §0)."""

from __future__ import annotations

from django.conf import settings
from django.utils.dateparse import parse_datetime

from sns.errors import InvalidInput
from sns.ids import parse_id
from sns.selectors import Page

ADMIN_MAX_LIMIT = 65535


def _int(value, default: int, name: str) -> int:
    if value in (None, ""):
        return default
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise InvalidInput(f"invalid {name}") from None
    if number < 0:
        raise InvalidInput(f"invalid {name}")
    return number


def page_params(request, orders=("desc", "asc"), default_limit: int = 100) -> Page:
    query = request.query_params
    max_limit = ADMIN_MAX_LIMIT if request.user.is_admin else settings.STGY_MAX_PAGE_LIMIT
    limit = min(_int(query.get("limit"), default_limit, "limit"), max_limit)
    order = (query.get("order") or orders[0]).lower()
    if order not in orders:
        raise InvalidInput("invalid order")
    return Page(offset=_int(query.get("offset"), 0, "offset"), limit=limit, order=order)


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


def flag(request, name: str, default: bool) -> bool:
    value = request.query_params.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def optional_datetime(request, name: str):
    value = request.query_params.get(name)
    if value in (None, ""):
        return None
    parsed = parse_datetime(value.replace("Z", "+00:00")) if isinstance(value, str) else None
    if parsed is None:
        raise InvalidInput(f"invalid {name}")
    return parsed
