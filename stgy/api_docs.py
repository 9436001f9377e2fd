"""The browsable API reference at /api/docs: Redoc from our own static files (the
pinned drf-spectacular-sidecar package), so it works offline and under a policy that
allows no script from elsewhere."""

from __future__ import annotations

from drf_spectacular.views import SpectacularRedocView

from stgy.security_headers import API_DOCS_CONTENT_SECURITY_POLICY


class ApiDocsView(SpectacularRedocView):
    template_name = "api_docs.html"
    permission_classes = []

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Content-Security-Policy"] = API_DOCS_CONTENT_SECURITY_POLICY
        return response
