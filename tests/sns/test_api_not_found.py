"""An unknown /api/ path answers a JSON 404 whatever the method and session."""

import pytest
from django.test import Client

from tests.conftest import login_client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
def test_unknown_api_paths_are_json_404s_for_a_logged_in_client(human, method):
    client = login_client(human)
    client.handler.enforce_csrf_checks = True  # as a browser's session would be checked
    response = getattr(client, method)("/api/media/a%0Ab/images/x%0Ay")
    assert response.status_code == 404
    assert response.json() == {"error": "not found"}


def test_anonymous_unknown_path_is_a_json_404():
    response = Client(enforce_csrf_checks=True).delete("/api/no-such-route")
    assert (response.status_code, response.json()) == (404, {"error": "not found"})
