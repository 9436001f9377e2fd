"""The API client the tests use: DRF's, sending what a browser sends.

A browser puts an Origin header on every request other than GET and HEAD, and the API
refuses an unsafe request that has neither JSON nor an Origin of this site
(sns/api/authentication.py); so every request of this client carries the test server's
Origin unless a test names another one, or none (`HTTP_ORIGIN=""`), as a cross-site
form or a script would send.
"""

from __future__ import annotations

from rest_framework import test


class APIClient(test.APIClient):
    def __init__(self, **defaults):
        defaults.setdefault("HTTP_ORIGIN", "http://testserver")
        super().__init__(**defaults)
