"""One translation of errors into `{"error": "..."}` bodies for the whole API."""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.response import Response

from sns.core.errors import DomainError

log = logging.getLogger(__name__)

_DRF_MESSAGES = {
    exceptions.NotAuthenticated: "login required",
    exceptions.AuthenticationFailed: "login required",
    exceptions.ParseError: "invalid body",
}


DATABASE_UNAVAILABLE = "database is unavailable"
# Seconds a client is asked to wait before trying again: a restarted or failed-over
# server, or a connection the pool dropped, is back within that in the usual case.
DATABASE_RETRY_AFTER = "5"


def database_unavailable(exc: BaseException | None) -> bool:
    """The database could not be reached or dropped the connection (a restart, a
    fail-over, an administrator's pg_terminate_backend, a timeout): the request may
    succeed if tried again, so it is a 503, not a 500."""
    return isinstance(exc, (OperationalError, InterfaceError))


def api_exception_handler(exc, context):
    response = api_refusal(exc)
    if response is not None:
        return response
    if database_unavailable(exc):
        log.warning("API request failed, the database is unavailable: %s", exc)
        return Response({"error": DATABASE_UNAVAILABLE}, status=503, headers={"Retry-After": DATABASE_RETRY_AFTER})
    log.exception("unhandled API error", exc_info=exc)
    return Response({"error": "internal server error"}, status=500)


def api_refusal(exc) -> Response | None:
    """The answer to an error of the API's vocabulary (bad input, not found, not
    allowed…); None for anything else, a failure the handler logs and answers with 500."""
    if isinstance(exc, DomainError):
        return Response({"error": exc.message}, status=exc.status)
    if isinstance(exc, Http404):
        return Response({"error": "not found"}, status=404)
    if isinstance(exc, exceptions.APIException):
        message = _DRF_MESSAGES.get(type(exc))
        if message is None:
            detail = exc.detail
            message = detail if isinstance(detail, str) else _flatten(detail)
        response = Response({"error": str(message)}, status=exc.status_code)
        if getattr(exc, "wait", None):
            response["Retry-After"] = str(int(exc.wait))
        return response
    return None


def _flatten(detail) -> str:
    if isinstance(detail, dict):
        return "; ".join(f"{k}: {_flatten(v)}" for k, v in detail.items())
    if isinstance(detail, list):
        return "; ".join(_flatten(v) for v in detail)
    return str(detail)


@csrf_exempt  # it writes nothing; else a cookie-bearing DELETE got CSRF's HTML 403
def api_not_found(request, *args, **kwargs):
    """Any path under /api/ that names no route: a JSON 404 like every other API error,
    not the site's HTML page (a client parses the body). Exempt from the CSRF check,
    which would otherwise answer a logged-in client's unsafe request to such a path with
    Django's HTML 403 page; it changes nothing, so there is nothing to protect."""
    return JsonResponse({"error": "not found"}, status=404)
