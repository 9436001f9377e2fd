"""The API's lean path: its three hot reads answered without the request machinery they
do not use (docs/architecture.md §9, "The lean path").

`GET /api/posts`, `GET /api/posts/by-followees` and `GET /api/posts/{id}` are most of
the API's traffic. Through the full path each paid for URL resolution, DRF's request
wrapper, content negotiation, authentication and permission classes, the template
response, and four middlewares that do nothing for them (the lazy user, messages, input
limits, the model-call deadline) — together more Python CPU than the read itself.

This middleware stands in the list just before those four. A request it recognises as
a plain hot read — GET, one of the three paths under /api/ or /backend/, no body,
nothing the input limits refuse, no Authorization header (a personal access token's
request), an Accept header DRF answers with the JSON renderer
and no indent, no `format` override — by a logged-in caller is answered here with the
same view function the DRF view calls (sns/api/posts_views.py), the same renderer and
the same headers. Everything else, and any hot read refused (bad parameters, a hidden
or unknown post, an anonymous or stale session), goes on down the full path, which
answers it exactly as before, so the refusals' bodies and headers stay DRF's. A read
that fails (the database's error, a bug) is logged and answered here as DRF's exception
handler answers it (503 for a lost database connection, else 500), rather than run again
on the full path. The middlewares before this one (security
headers, CORS, sessions and their sliding expiry, CSRF's cookie, X-Frame-Options,
metrics) run for both paths alike. tests/sns/test_hot_reads.py compares the two.
"""

from __future__ import annotations

import re

from django.http import HttpResponse
from django.urls import resolve
from rest_framework.settings import api_settings

from sns.auth.session import session_user
from sns.input_limits import query_problem

from . import posts_views
from .errors import api_exception_handler, api_refusal

# The fixed segments under posts/ ("search", "liked", …) are words, never 16 hex digits;
# tests/sns/test_hot_reads.py checks that each path here resolves to the view named.
HOT_PATH = re.compile(r"/(api|backend)/posts(?:/(by-followees|[0-9A-Fa-f]{16}))?")
# Accept values DRF answers with the JSON renderer as it is: no parameters (an indent).
_PLAIN_ACCEPT = frozenset({"*/*", "application/*", "application/json"})


def _allow(view_class) -> str:
    """The Allow header DRF gives the view's answers (Django maps HEAD to GET)."""
    has = lambda m: hasattr(view_class, m) or (m == "head" and hasattr(view_class, "get"))  # noqa: E731
    return ", ".join(m.upper() for m in view_class.http_method_names if has(m))


class _Call:
    """What the shared view functions read of a DRF request."""

    __slots__ = ("query_params", "user")

    def __init__(self, query_params, user):
        self.query_params = query_params
        self.user = user


def _read_list(call, _segment):
    return posts_views.posts_list_json(call)


def _read_by_followees(call, _segment):
    return posts_views.posts_by_followees_json(call)


def _read_one(call, segment):
    return posts_views.post_detail_json_for(call, segment)


_READS = {
    None: (_read_list, _allow(posts_views.PostsView)),
    "by-followees": (_read_by_followees, _allow(posts_views.PostsByFolloweesView)),
}
_READ_ONE = (_read_one, _allow(posts_views.PostView))


def plain_accept(accept: str | None) -> bool:
    if not accept:
        return True
    if ";" in accept:
        return False
    return any(part.strip() in _PLAIN_ACCEPT for part in accept.split(","))


class HotReadsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        renderers = api_settings.DEFAULT_RENDERER_CLASSES
        # With more than one renderer DRF negotiates (and adds Vary: Accept): full path.
        self.renderer = renderers[0]() if len(renderers) == 1 else None
        # The route each hot path resolves to, for the request metrics' label; resolved
        # once per mount and endpoint (the label is the route, not the id in it).
        self.matches: dict[tuple[str, str | None], object] = {}

    def __call__(self, request):
        response = self.answer(request)
        return self.get_response(request) if response is None else response

    def answer(self, request) -> HttpResponse | None:
        """The hot read's response, or None when the full path is to answer."""
        if request.method != "GET" or self.renderer is None:
            return None
        path = request.path_info
        matched = HOT_PATH.fullmatch(path)
        if matched is None:
            return None
        meta = request.META
        if meta.get("CONTENT_LENGTH", "") not in ("", "0") or not plain_accept(meta.get("HTTP_ACCEPT")):
            return None
        if query_problem(request) is not None or "format" in request.GET:
            return None
        if "HTTP_AUTHORIZATION" in meta:
            return None  # a personal access token's: judged by the full path's authentication
        segment = matched.group(2)
        read, allow = _READS.get(segment, _READ_ONE)
        status, user, failed = 200, None, None
        try:
            user = session_user(request)
            if not user.is_authenticated:
                return None  # the full path answers 401 (or ends a stale session) as always
            body = self.renderer.render(read(_Call(request.GET, user), segment))
        except Exception as exc:  # noqa: BLE001
            if api_refusal(exc) is not None:
                return None  # bad input, not found…: the full path's DRF view gives the body and headers
            # A failure (the database's, a bug) is not read again on the full path: it is
            # logged and answered here as the DRF view's exception handler answers it
            # (503 for a lost database connection, else 500).
            failed = api_exception_handler(exc, None)
            status = failed.status_code
            body = self.renderer.render(failed.data)
        if user is not None:
            request.user = user
        key = (matched.group(1), segment if segment in (None, "by-followees") else "{id}")
        match = self.matches.get(key)
        if match is None:
            match = self.matches[key] = resolve(path)
        request.resolver_match = match
        response = HttpResponse(body, content_type=self.renderer.media_type, status=status)
        if failed is not None and failed.get("Retry-After"):
            response.headers["Retry-After"] = failed["Retry-After"]  # before Allow, as DRF's
        response.headers["Allow"] = allow
        return response
