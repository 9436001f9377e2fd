"""Project-level routes."""

import pytest

pytestmark = pytest.mark.django_db


def test_favicon_is_served(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.svg"
    assert client.get("/static/favicon.svg").status_code == 200


@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_an_unknown_api_path_is_a_json_404(client, method):
    response = getattr(client, method)("/api/no/such/route")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json() == {"error": "not found"}


def test_a_known_api_path_still_answers(client):
    assert client.get("/api/posts").status_code == 401
