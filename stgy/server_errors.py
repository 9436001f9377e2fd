"""The answer to a request that failed outside the API's views, where an error reaches
Django's handler500: in a middleware (the session, the auth record, the hot reads) or
in a page view. A lost database connection is a 503 — `{"error": "database is
unavailable"}` on the API, a styled page on the site — since trying again may work;
anything else stays a 500, in JSON on the API (a client parses the body). Errors inside
the API's views are answered by sns/api/errors.py with the same words.
"""

from __future__ import annotations

import logging
import sys

from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.views.decorators.csrf import requires_csrf_token
from django.views.defaults import server_error as django_server_error

from sns.api.cors import API_PREFIXES
from sns.api.errors import DATABASE_RETRY_AFTER, DATABASE_UNAVAILABLE, database_unavailable
from stgy.api_root import API_ROOT_URLCONF

log = logging.getLogger(__name__)


@requires_csrf_token
def server_error(request):
    exc = sys.exc_info()[1]  # handler500 is called while Django handles the exception
    api = (
        request.path.startswith(API_PREFIXES)
        or getattr(request, "urlconf", None) == API_ROOT_URLCONF
    )
    if database_unavailable(exc):
        if api:
            response = JsonResponse({"error": DATABASE_UNAVAILABLE}, status=503)
        else:
            # Rendered without a request: its context processors would ask the database.
            response = HttpResponse(loader.get_template("503.html").render(), status=503)
        response["Retry-After"] = DATABASE_RETRY_AFTER
        return response
    if api:
        return JsonResponse({"error": "internal server error"}, status=500)
    return django_server_error(request)
