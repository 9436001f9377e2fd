"""/api/db-stats for admins: refused to everyone else; without pg_stat_statements (SQLite,
or PostgreSQL without the extension) the reads answer empty as the original's do, while
turning tracking on or off, and everything where the extension is created but its
library not loaded, is a clear 400 naming what is missing."""

from __future__ import annotations

import pytest
from django.db import connection

from stgy.ops import db_stats
from tests.clients import APIClient
from tests.conftest import login_client, requires_postgres

pytestmark = pytest.mark.django_db

ROUTES = [
    ("post", "/api/db-stats/enable"),
    ("post", "/api/db-stats/disable"),
    ("post", "/api/db-stats/clear"),
    ("get", "/api/db-stats/slow-queries"),
    ("get", "/api/db-stats/slow-queries/00000000000000FF/explain"),
]


@pytest.mark.parametrize("method,path", ROUTES)
def test_refused_to_strangers_and_people(human, method, path):
    for client in (APIClient(), login_client(human)):
        response = getattr(client, method)(path)
        assert response.status_code == 403
        assert response.json() == {"error": "admin only"}


def test_head_is_a_bare_403_for_non_admins(human):
    for client in (APIClient(), login_client(human)):
        response = client.head("/api/db-stats")
        assert response.status_code == 403
        assert response.content == b""
        assert "x-db-stats-enabled" not in response


def _expected_reason() -> str:
    if connection.vendor != "postgresql":
        return "db stats need PostgreSQL"
    return "pg_stat_statements is not installed: CREATE EXTENSION pg_stat_statements"


def test_without_the_extension_reads_are_empty_and_switches_say_what_is_missing(admin):
    if connection.vendor == "postgresql" and db_stats.unavailable_reason() is None:
        pytest.skip("this PostgreSQL has pg_stat_statements loaded")
    client = login_client(admin)
    response = client.head("/api/db-stats")
    assert response.status_code == 204
    assert response["x-db-stats-enabled"] == "0"
    response = client.get("/api/db-stats/slow-queries")
    assert (response.status_code, response.json()) == (200, [])
    response = client.get("/api/db-stats/slow-queries/00000000000000FF/explain")
    assert (response.status_code, response.json()) == (200, [])
    response = client.post("/api/db-stats/clear")
    assert (response.status_code, response.json()) == (200, {"result": "ok"})
    for path in ("/api/db-stats/enable", "/api/db-stats/disable"):
        response = client.post(path)
        assert response.status_code == 400, path
        assert response.json() == {"error": _expected_reason()}


@requires_postgres
def test_an_extension_without_its_library_says_so(admin):
    with connection.cursor() as cursor:
        cursor.execute("SELECT setting FROM pg_settings WHERE name = 'shared_preload_libraries'")
        if "pg_stat_statements" in cursor.fetchone()[0]:
            pytest.skip("this PostgreSQL has pg_stat_statements loaded")
        cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")  # rolled back
    for method, path in ROUTES:
        response = getattr(login_client(admin), method)(path)
        assert response.status_code == 400, path
        assert response.json() == {
            "error": "pg_stat_statements is not loaded: add it to shared_preload_libraries"
        }
    assert login_client(admin).head("/api/db-stats").status_code == 204


@pytest.mark.parametrize(
    "path,error",
    [
        ("/api/db-stats/slow-queries/not-hex/explain", "bad query id"),
        ("/api/db-stats/slow-queries/0x12345678901234567/explain", "bad query id"),
        ("/api/db-stats/slow-queries?limit=ten", "invalid limit"),
        ("/api/db-stats/slow-queries?offset=-1", "invalid offset"),
        ("/api/db-stats/slow-queries?order=sideways", "invalid order"),
    ],
)
def test_bad_input_is_400_before_anything_is_read(admin, path, error):
    response = login_client(admin).get(path)
    assert response.status_code == 400
    assert response.json() == {"error": error}


def test_query_ids_are_unsigned_hex_of_the_signed_bigint():
    assert db_stats.parse_query_id("FFFFFFFFFFFFFFFF") == -1
    assert db_stats.parse_query_id("0x7fffffffffffffff") == (1 << 63) - 1
    assert db_stats._hex_id(-1) == "FFFFFFFFFFFFFFFF"
    assert db_stats._hex_id(255) == "00000000000000FF"
