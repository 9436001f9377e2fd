"""Limits every request meets before any view (or CSRF check) reads it.

* A body over `DATA_UPLOAD_MAX_MEMORY_SIZE` is answered 413 up front: left to Django,
  it surfaces as `RequestDataTooBig` wherever the body is first read, which the API
  turned into a 500 and the pages into a bare 400.
* A NUL in the path or the query string is a 400: PostgreSQL refuses NUL in any text
  it is sent, so a search, tag or name filter holding one failed as a 500.
* An API body nested deeper than `STGY_JSON_MAX_DEPTH` is a 400 on every route,
  whether or not the view reads it: Python's JSON decoder recurses per level.
* More than `DATA_UPLOAD_MAX_NUMBER_FIELDS` query parameters or form fields is a 400
  here too: Django refuses them wherever they are first read, with a bare HTML 400
  that is neither the API's `{"error"}` nor the site's error page.

The API answers `{"error": ...}`, the site its error page.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import TooManyFieldsSent
from django.http import JsonResponse
from django.shortcuts import render

from .core.textguard import json_depth

_API_PREFIX = "/api/"
LOCAL_UPLOAD_PATH = "/storage/upload"  # sns/api/storage_urls.py


def local_upload_body_limit() -> int:
    return max(settings.STGY_MEDIA_IMAGE_BYTE_LIMIT, settings.STGY_MEDIA_AVATAR_BYTE_LIMIT,
               settings.STGY_MEDIA_TRACK_BYTE_LIMIT) + 65536


def _refusal(request, status: int, message: str):
    if request.path.startswith(_API_PREFIX):
        return JsonResponse({"error": message}, status=status)
    return render(request, "error.html", {"status": status, "message": message}, status=status)


def query_problem(request) -> str | None:
    """Why the path or query string is refused (a NUL, too many parameters), or None."""
    if "\x00" in request.path:
        return "invalid path"
    try:
        parameters = list(request.GET.lists())
    except TooManyFieldsSent:
        return "too many query parameters"
    for name, values in parameters:
        if "\x00" in name:
            return "invalid query"
        if any("\x00" in value for value in values):
            return f"invalid {name}"
    return None


def _body_problem(request) -> str | None:
    if not request.path.startswith(_API_PREFIX):
        # The pages' forms, read here first so that too many fields get the error page.
        try:
            request.POST  # noqa: B018
        except TooManyFieldsSent:
            return "too many form fields"
        return None
    limit = settings.STGY_JSON_MAX_DEPTH
    # Undecodable bytes are the parser's to report ("invalid body"); only depth counts here.
    if json_depth(request.body.decode("utf-8", "replace"), limit) > limit:
        return "body is nested too deeply"
    return None


class InputLimitsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        raw_length = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(raw_length)
        except ValueError:
            return _refusal(request, 400, "invalid content length")
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if request.path == LOCAL_UPLOAD_PATH:
            # Image bytes for the local store; the signed policy holds the real limit.
            limit = local_upload_body_limit()
        if limit is not None and length > limit:
            return _refusal(request, 413, "request body is too large")
        problem = query_problem(request)
        if problem is None and length:
            problem = _body_problem(request)
        if problem is not None:
            return _refusal(request, 400, problem)
        return self.get_response(request)
