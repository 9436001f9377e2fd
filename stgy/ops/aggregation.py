"""GET /metrics/aggregation and POST /metrics/aggregation/clear: the metrics of every
backend in STGY_BACKEND_API_PRIVATE_URL_LIST (their private base URLs, the API root as
`http://web-1:8000/api`), fetched in parallel with a 3-second limit each, the admin's
session cookie (and the metrics token, if set) passed on. With no list, this process's
own metrics under the key "local"."""

from __future__ import annotations

import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings

from . import metrics

TIMEOUT_SECONDS = 3.0
LOCAL = "local"


def _url(base: str, tail: str) -> str:
    return base.split("?", 1)[0].split("#", 1)[0].rstrip("/") + "/" + tail


def _headers(request) -> dict[str, str]:
    headers = {}
    cookie = request.META.get("HTTP_COOKIE", "")
    if cookie:
        headers["Cookie"] = cookie
    if settings.STGY_METRICS_TOKEN:
        headers["Authorization"] = f"Bearer {settings.STGY_METRICS_TOKEN}"
    return headers


def _fetch(url: str, method: str, headers: dict[str, str]) -> str:
    req = urllib.request.Request(url, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT_SECONDS) as response:
            return response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        body = exc.read().decode("utf-8", "replace")
        raise RuntimeError(f"HTTP {exc.code} {exc.reason}\n{body}") from exc


def _each(request, tail: str, method: str, on_ok) -> dict[str, str]:
    targets = list(settings.STGY_BACKEND_API_PRIVATE_URL_LIST)
    headers = _headers(request)

    def one(base: str) -> str:
        try:
            return on_ok(_fetch(_url(base, tail), method, headers))
        except Exception as exc:  # one backend down must not hide the others
            return f"ERROR: {exc}"

    if not targets:
        return {}
    with ThreadPoolExecutor(max_workers=min(len(targets), 16)) as pool:
        return dict(zip(targets, pool.map(one, targets)))


def collect(request) -> dict[str, str]:
    if not settings.STGY_BACKEND_API_PRIVATE_URL_LIST:
        return {LOCAL: metrics.render()[0].decode()}
    return _each(request, "metrics", "GET", lambda text: text)


def clear_all(request) -> dict[str, str]:
    if not settings.STGY_BACKEND_API_PRIVATE_URL_LIST:
        return {LOCAL: "ok"}
    return _each(request, "metrics/clear", "POST", lambda _text: "ok")
