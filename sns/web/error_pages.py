"""Our own pages for the refusals Django answers by itself (docs/pages.md §7): a failed
CSRF check (CSRF_FAILURE_VIEW), a method the address does not take (405, which Django
sends with an empty body) and, under DEBUG, an unknown address (Django's debug 404).
The API (`/api/`, `/backend/`) and JSON answers keep their JSON."""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import render

from sns.api.cors import API_PREFIXES

_ERROR_PAGE = b'class="card narrow error-page"'


def csrf_failure(request, reason: str = ""):
    """A form sent without a valid CSRF token: most often a page left open across a
    logout or a login elsewhere, or cookies turned off. The reason is logged by Django;
    the person is told what to do."""
    return render(request, "403_csrf.html", status=403)


def _is_page(request, response) -> bool:
    if request.path.startswith(API_PREFIXES):
        return False
    return "json" not in response.get("Content-Type", "")


class ErrorPagesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        status = response.status_code
        if status not in (404, 405) or response.streaming:
            return response
        if status == 405 and not response.content and _is_page(request, response):
            styled = render(request, "405.html", {"allowed": response.get("Allow", "")}, status=405)
            styled["Allow"] = response.get("Allow", "")
            return styled
        # Without DEBUG Django renders templates/404.html itself; with it, its debug page,
        # which a person trying the demo should not meet. Our pages' own 404s (error.html)
        # already carry the error-page class.
        if (
            status == 404
            and settings.DEBUG
            and _is_page(request, response)
            and _ERROR_PAGE not in response.content
        ):
            return render(request, "404.html", status=404)
        return response
