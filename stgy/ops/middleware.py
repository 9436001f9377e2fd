"""Times every request that reaches the URL resolver, labelled by its route pattern
(`/api/posts/<str:post_id>`, never the concrete path, so the series stay few)."""

from __future__ import annotations

import time

from .metrics import http_request_duration


def route_label(request) -> str:
    match = getattr(request, "resolver_match", None)
    if match is None or match.url_name is None:
        return "unmatched"  # 404s of any path: one series, not one per path
    return "/" + match.route


def observe_request(request, response, started: float) -> None:
    """Records one request begun at `started` (perf_counter); also sns/api/hot_reads.py."""
    http_request_duration.labels(
        request.method, route_label(request), str(response.status_code)
    ).observe(time.perf_counter() - started)


class RequestMetricsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        observe_request(request, response, started)
        return response
