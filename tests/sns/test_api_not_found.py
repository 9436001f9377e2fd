"""An unknown path under /api/ answers the JSON 404 for every method, also to a signed-in
browser's DELETE or POST (found by the schema fuzzer: a path the media routes do not
match, e.g. with a newline in it, got Django's HTML CSRF page instead)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
def test_unknown_api_paths_are_a_json_404(method):
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("Alice"))
    for path in ("/api/no-such-route", "/api/media/%C2%A1%0Aw/images/%0Ax", "/backend/nothing/here"):
        response = getattr(client, method)(path)
        assert response.status_code == 404, (method, path)
        assert response.json() == {"error": "not found"}
