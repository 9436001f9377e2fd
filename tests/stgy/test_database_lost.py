"""A database connection lost between requests or in the middle of one (an
administrator's pg_terminate_backend, a fail-over) answers 503 — `{"error": "database is
unavailable"}` on the API, a styled page on the site — not a 500; and the next request,
on a new connection, is served."""

from __future__ import annotations

import pytest
from django.db import connection, connections

from stgy.server_errors import server_error
from tests.clients import APIClient
from tests.conftest import requires_postgres
from tests.factories import make_post, make_user

pytestmark = [requires_postgres, pytest.mark.django_db(transaction=True)]

UNAVAILABLE = {"error": "database is unavailable"}


def _terminate_our_connection() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()


def _client(user) -> APIClient:
    # A real server answers from handler500; the test client would re-raise instead.
    client = APIClient(raise_request_exception=False)
    client.force_login(user)
    return client


@pytest.fixture
def person():
    user = make_user("Mina")
    make_post(user, "still here")
    yield user
    connection.close()  # a test that failed before reconnecting must not break the flush


def _reconnect() -> None:
    connection.close()  # what the server does when a request ends on a broken connection


def test_the_api_answers_503_with_an_error_and_recovers(person):
    client = _client(person)
    assert client.get("/api/posts").status_code == 200
    _terminate_our_connection()
    response = client.get("/api/posts")
    assert (response.status_code, response.json()) == (503, UNAVAILABLE)
    assert response["Retry-After"] == "5"
    _reconnect()
    response = client.get("/api/posts")
    assert response.status_code == 200 and len(response.json()) == 1


def test_a_write_that_loses_its_connection_is_503_and_not_half_made(person):
    client = _client(person)
    _terminate_our_connection()
    response = client.post("/api/posts", {"content": "lost?", "tags": ["a"]}, format="json")
    assert (response.status_code, response.json()) == (503, UNAVAILABLE)
    _reconnect()
    assert len(client.get("/api/posts").json()) == 1  # only the post made before


def test_a_page_answers_a_styled_503(person):
    client = _client(person)
    assert client.get("/").status_code == 200
    _terminate_our_connection()
    response = client.get("/")
    assert response.status_code == 503
    html = response.content.decode()
    assert (
        "Back in a moment" in html and "stgy" in html and 'class="card narrow error-page"' in html
    )
    assert response["Content-Security-Policy"]  # the site's headers, as on every page
    _reconnect()
    assert client.get("/").status_code == 200


def test_other_failures_outside_a_view_stay_500_in_json_on_the_api(rf):
    try:
        raise ValueError("a bug")
    except ValueError:
        response = server_error(rf.get("/api/posts"))
    assert (response.status_code, response.content) == (500, b'{"error": "internal server error"}')
