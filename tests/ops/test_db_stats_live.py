"""stgy/ops/db_stats.py against a PostgreSQL of the test's own with pg_stat_statements
loaded: switching tracking, the statements by time, their plans, the reset."""

from __future__ import annotations

import pytest
from django.db import connections

from sns.core.errors import InvalidInput
from stgy.ops import db_stats
from tests.pg_server import own_postgres, requires_pg_binaries  # noqa: F401

pytestmark = requires_pg_binaries
ALIAS = "own_pg_stats"


@pytest.fixture
def stats_db(own_postgres, django_db_blocker):  # noqa: F811
    """The own server as a database alias of its own, outside the test database's
    transaction (ALTER SYSTEM cannot run in one)."""
    config = {**connections.settings["default"], "ENGINE": "django.db.backends.postgresql",
              "NAME": "postgres", "USER": "postgres", "PASSWORD": "", "HOST": "127.0.0.1",
              "PORT": str(own_postgres.port), "OPTIONS": {}, "TEST": {}}
    connections.settings[ALIAS] = config
    with django_db_blocker.unblock():
        yield ALIAS
        connections[ALIAS].close()
    del connections[ALIAS]
    del connections.settings[ALIAS]


def run(sql: str, params=()):
    with connections[ALIAS].cursor() as cursor:
        cursor.execute(sql, params)


def test_tracking_switches_lists_and_explains(stats_db):
    assert db_stats.unavailable_reason(stats_db) is None
    db_stats.disable(stats_db)
    assert db_stats.is_enabled(stats_db) is False
    db_stats.enable(stats_db)
    assert db_stats.is_enabled(stats_db) is True

    db_stats.clear(stats_db)
    run("CREATE TABLE IF NOT EXISTS probe (id int primary key, name text)")
    for i in range(5):
        run("SELECT name FROM probe WHERE id = %s", [i])
    rows = db_stats.slow_queries(limit=100, using=stats_db)
    probe = next(r for r in rows if "FROM probe WHERE id" in r.query)
    assert probe.calls == 5 and probe.total_exec_time >= 0
    assert len(probe.id) == 16 and probe.id == probe.id.upper()
    assert [r.total_exec_time for r in rows] == sorted((r.total_exec_time for r in rows), reverse=True)
    assert db_stats.slow_queries(limit=1, using=stats_db)[0].as_json().keys() == {
        "id", "query", "calls", "totalExecTime"}

    plan = db_stats.explain(probe.id, stats_db)
    assert plan and any("probe" in line for line in plan)
    assert db_stats.explain("0000000000000001", stats_db) == []

    db_stats.clear(stats_db)
    assert not any("FROM probe WHERE id" in r.query for r in db_stats.slow_queries(using=stats_db))


def test_transaction_statements_are_not_explained(stats_db):
    import time

    db_stats.enable(stats_db)
    # Our switch keeps utility statements out; turned on by hand, BEGIN gets listed.
    run("ALTER SYSTEM SET pg_stat_statements.track_utility = on")
    run("SELECT pg_reload_conf()")
    time.sleep(0.3)
    db_stats.clear(stats_db)
    run("BEGIN")
    run("COMMIT")
    begin = next(r for r in db_stats.slow_queries(using=stats_db) if r.query.strip().upper() == "BEGIN")
    with pytest.raises(InvalidInput, match="transaction statements are not allowed for EXPLAIN"):
        db_stats.explain(begin.id, stats_db)
    with pytest.raises(InvalidInput, match="bad query id"):
        db_stats.explain("not an id", stats_db)
    db_stats.enable(stats_db)  # back to track_utility = off
