"""Small helpers shared by the AI API views: error types, body and paging parsing."""

from __future__ import annotations

from dataclasses import replace

from sns.api.params import page_params
from sns.core.errors import DomainError, InvalidInput
from sns.core.ids import parse_id
from sns.selectors import Page

MEMORY_MAX_LIMIT = 200


class AiDisabled(DomainError):
    status = 501

    def __init__(self, message: str = "ai features are disabled"):
        super().__init__(message)


class OverBudget(DomainError):
    status = 429


class AiUnavailable(DomainError):
    """The model is down or too slow for a web request; the detail goes to the log."""

    status = 503

    def __init__(self, message: str = "ai service is unavailable"):
        super().__init__(message)


class InternalError(DomainError):
    """A provider failure; the detail goes to the log, not to the client."""

    status = 500

    def __init__(self, message: str = "internal_error"):
        super().__init__(message)


def json_object(request) -> dict:
    """The request body, which must be a JSON object."""
    data = request.data
    if not isinstance(data, dict):
        raise InvalidInput("invalid body")
    return data


def clamped_page(request, *, max_limit: int = MEMORY_MAX_LIMIT) -> Page:
    """Paging of the AI routes: the usual rules, then the limit clamped to 1..max_limit."""
    page = page_params(request)
    return replace(page, limit=max(1, min(page.limit, max_limit)))


def path_id(value: str, name: str = "id") -> int:
    return parse_id(value, name)


def required_text(body: dict, key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"{key} is required")
    return value
