"""The URLs of a host listed in STGY_API_ROOT_HOSTS: the API at the root, as the
original's scripts address it, and under /api/ and /backend/ as everywhere; no web
pages (stgy/api_root.py)."""

from django.urls import include, path

from stgy.urls import api_patterns

handler500 = "stgy.server_errors.server_error"

urlpatterns = [
    path("api/", include(api_patterns)),
    path("backend/", include((api_patterns, "backend"))),
    path("", include((api_patterns, "root"))),
]
