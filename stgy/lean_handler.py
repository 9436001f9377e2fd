"""The WSGI handler gunicorn serves: Django's, with the API's hot reads answered before
Django's middleware chain (docs/architecture.md, "The lean path").

`sns.api.hot_reads.HotReadsMiddleware` answers a plain logged-in hot read inside the
chain; the ten middlewares listed before it still ran for it, each through Django's
exception wrapper, and together with the chain cost about as much Python CPU as the read
(bench/hot_reads). For a request of the hot shape this handler runs those middlewares'
own steps itself, straight, in the order the chain runs them — the same instances'
`process_request` / `process_response` for Django's, the functions our own middlewares
call for ours — around the same `answer`. Whatever that does not answer (an anonymous
caller, a refused read, a redirect or refusal of a middleware) is handed to Django's
chain with a fresh request, which answers it as before; a failure (a database error)
is logged and answered 500 as the chain answers it, not run a second time. The steps
are written for exactly the middleware list in `OUTER`; with any other list (a changed
setting, a test's override) every request takes Django's chain. tests/sns/test_hot_reads.py compares the two.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.core.handlers.exception import response_for_exception
from django.core.handlers.wsgi import WSGIHandler
from django.http import Http404
from django.http.multipartparser import MultiPartParserError
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware
from django.middleware.csrf import CsrfViewMiddleware
from django.middleware.security import SecurityMiddleware
from django.utils.log import log_response

from sns.api.cors import add_cors_headers
from sns.api.hot_reads import HOT_PATH, HotReadsMiddleware
from sns.sessions import stamp_if_due
from stgy.ops.middleware import observe_request
from stgy.security_headers import add_security_headers

LEAN = "sns.api.hot_reads.HotReadsMiddleware"
# The middlewares before LEAN, whose steps `_lean` takes for a hot read.
OUTER = (
    "stgy.security_headers.SecurityHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Serves files under STATIC_URL only; passes every other request on untouched.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "stgy.ops.middleware.RequestMetricsMiddleware",
    "sns.api.cors.ApiCorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "sns.sessions.SlidingSessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
)
# The exceptions Django's chain answers with a 4xx rather than as a failure.
_REFUSALS = (Http404, PermissionDenied, BadRequest, SuspiciousOperation, MultiPartParserError)


def _unused(request):  # the chain's next step, which the lean path never calls
    raise AssertionError("not called")


def _releasing(request, response):
    """`response`, which empties the request's attributes once the server has sent it
    (after `request.close`). Several refer back to the request — the messages storage,
    `request.auser`, the lazy user — so without this every request, and all it had
    loaded (the session, the user), was left to the garbage collector."""
    response._resource_closers.append(request.__dict__.clear)
    return response


class LeanHandler(WSGIHandler):
    def load_middleware(self, is_async=False):
        super().load_middleware(is_async)
        middleware = tuple(settings.MIDDLEWARE)
        self.lean = (
            middleware[: len(OUTER) + 1] == (*OUTER, LEAN)
            and not settings.STATIC_URL.startswith(("/api", "/backend", "api", "backend"))
        )
        if self.lean:
            self.security = SecurityMiddleware(_unused)
            self.session = SessionMiddleware(_unused)
            self.common = CommonMiddleware(_unused)
            self.csrf = CsrfViewMiddleware(_unused)
            self.xframe = XFrameOptionsMiddleware(_unused)
            self.hot = HotReadsMiddleware(_unused)

    def get_response(self, request):
        if self.lean and request.method == "GET" and HOT_PATH.fullmatch(request.path_info):
            response = self._lean(request)
            if response is not None:
                response._resource_closers.append(request.close)
                if response.status_code >= 400:  # a failed read, logged as Django's get_response logs it
                    log_response("%s: %s", response.reason_phrase, request.path, response=response, request=request)
                return _releasing(request, response)
            request = self.request_class(request.environ)
        return _releasing(request, super().get_response(request))

    def _lean(self, request):
        """The hot read's response with every outer middleware's part in it, or None for
        Django's chain to answer."""
        started = time.perf_counter()
        try:
            if self.security.process_request(request) is not None:
                return None  # the HTTPS redirect
            self.session.process_request(request)
            # Refused user agents and hosts raise; PREPEND_WWW redirects.
            if self.common.process_request(request) is not None:
                return None
            self.csrf.process_request(request)
            response = self.hot.answer(request)
            if response is None:
                return None
            response = self.xframe.process_response(request, response)
            response = self.csrf.process_response(request, response)
            response = self.common.process_response(request, response)
            stamp_if_due(request)
            response = self.session.process_response(request, response)
        except _REFUSALS:
            return None  # a host or user agent refused, a malformed session…: the chain's 4xx
        except Exception as exc:  # noqa: BLE001
            # A failure (the session store's, say) is not run again through the chain: it
            # is logged and answered as Django answers an error a middleware raises.
            response = response_for_exception(request, exc)
        add_cors_headers(request, response)
        observe_request(request, response, started)
        return add_security_headers(self.security.process_response(request, response))
