"""The pieces of the side by side with the original backend that run without it: the
schema filter that keeps server-wide statements off the shared cluster, the password
hash in the original's layout, the path mapping and the table."""

from __future__ import annotations

import hashlib

from bench.original import setup
from bench.original.compare import endpoint_paths, render


def test_schema_filter_drops_only_server_wide_statements(tmp_path, monkeypatch):
    init = tmp_path / "postgres" / "init"
    init.mkdir(parents=True)
    (init / "01-schema.sql").write_text(
        "CREATE EXTENSION IF NOT EXISTS pg_stat_statements;\n"
        "SELECT current_database() AS db \\gset\n"
        "ALTER DATABASE :\"db\" SET default_toast_compression = 'lz4';\n"
        "ALTER SYSTEM SET timezone = 'UTC';\n"
        "SELECT pg_reload_conf();\n"
        "CREATE TABLE users (\n  id BIGINT PRIMARY KEY\n);\n"
        "ALTER TABLE user_counts SET (fillfactor=75);\n"
    )
    monkeypatch.setattr(setup, "SRC", tmp_path)
    sql = setup.schema_sql()
    assert "ALTER SYSTEM" not in sql and "pg_reload_conf" not in sql and "EXTENSION" not in sql
    assert "\\gset" not in sql and "ALTER DATABASE" not in sql
    assert "CREATE TABLE users (\n  id BIGINT PRIMARY KEY\n);" in sql
    assert "ALTER TABLE user_counts SET (fillfactor=75);" in sql


def test_password_hash_is_scrypt_key_then_salt():
    stored = setup.password_hash("bench-password")
    params = setup.SCRYPT
    assert len(stored) == params["key"] + params["salt"]
    key, salt = stored[: params["key"]], stored[params["key"]:]
    again = hashlib.scrypt(b"bench-password", salt=salt, n=params["n"], r=params["r"], p=params["p"],
                           dklen=params["key"])
    assert again == key
    assert hashlib.scrypt(b"other", salt=salt, n=params["n"], r=params["r"], p=params["p"],
                          dklen=params["key"]) != key


def test_paths_are_the_same_samples_for_both():
    paths = endpoint_paths({"users": ["00000000000000aa"], "posts": ["19f2f9561e2ff000"]})
    assert paths["GET /posts?limit=20"] == ["/posts?limit=20"]
    assert paths["GET /posts/by-followees"] == ["/posts/by-followees?userId=00000000000000aa&limit=20"]
    assert paths["GET /posts/{id}"] == ["/posts/19F2F9561E2FF000"]


def test_table_shows_medians_ratio_and_rounds():
    side = {"rps": 300.0, "p50_ms": 90.0, "p99_ms": 120.0, "cpu_ms_per_request": 5.0, "non_2xx": 0,
            "rps_all": [290.0, 300.0, 310.0], "single_client": {"p50_ms": 6.5}}
    other = {**side, "rps": 600.0, "rps_all": [590.0, 600.0, 610.0], "cpu_ms_per_request": 1.0,
             "single_client": {"p50_ms": 2.0}, "non_2xx": 3}
    data = {"users": 1000, "posts": 20000, "connections": 32, "rounds": 3, "seconds": 10,
            "endpoints": {"GET /posts/{id}": {"ours": side, "original": other, "ratio": 0.5}}}
    table = render(data, "python -m bench.run_all --size web20k --compare-original")
    row = next(line for line in table.splitlines() if line.startswith("| GET /posts/{id}"))
    assert "| 300 | 600 | 0.50 |" in row
    assert "6.5 · 2.0" in row and "5.00 · 1.00" in row and "290, 300, 310 / 590, 600, 610" in row
    assert "non-2xx: 0 · 3" in row
    assert "`python -m bench.run_all --size web20k --compare-original`" in table
