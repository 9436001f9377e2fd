"""Project-level routes."""

import pytest

pytestmark = pytest.mark.django_db


def test_favicon_is_served(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.svg"
    assert client.get("/static/favicon.svg").status_code == 200
