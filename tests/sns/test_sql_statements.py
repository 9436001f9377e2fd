"""Statements compiled once (sns/sql_statements.py `compiled_once`): every later call gives the
text and parameters Django's own compile of the same arguments gives."""

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.models import Case, F, Value, When

from agents.models import AgentState, CycleRun
from sns.sql_statements import compiled_once, update_sql

pytestmark = pytest.mark.django_db
# A JSON argument is found again in psycopg's wrapper; elsewhere JSON is compiled to
# text, so the one user (turn_give_with_record) uses it on PostgreSQL only.
postgresql_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="JSON marks need psycopg's Jsonb")


def _parts(run_id, when, user_id, details):
    return [
        update_sql(
            AgentState.objects.filter(lease_run=run_id, user_id=user_id),
            {"lease_until": Case(When(lease_run=run_id, then=Value(when)), default=F("lease_until"))},
        ),
        update_sql(CycleRun.objects.filter(pk=run_id), {"details": details, "status": "done"}),
    ]


def _plain(parts):
    """Parameters as the driver sees them: a JSON wrapper by its value."""
    return [(sql, [getattr(p, "obj", p) if hasattr(p, "dumps") else p for p in params]) for sql, params in parts]


@postgresql_only
def test_a_statement_compiled_once_matches_a_fresh_compile_for_other_arguments():
    statement = compiled_once("test-statement", ("id", "time", "id", "json"), _parts)
    for run_id, user_id, details in [(7, 11, {"a": 1}), (12345, 3, {"b": [1, 2]}), (1, 1, {})]:
        when = datetime(2026, 12, 4, 10, run_id % 60, tzinfo=UTC)
        assert _plain(statement(run_id, when, user_id, details)) == _plain(_parts(run_id, when, user_id, details))


@postgresql_only
def test_a_none_argument_is_compiled_afresh():
    statement = compiled_once("test-statement-none", ("id", "time", "id", "json"), _parts)
    statement(1, datetime(2026, 1, 1, tzinfo=UTC), 2, {})
    assert _plain(statement(1, None, 2, {})) == _plain(_parts(1, None, 2, {}))


def test_an_argument_that_is_not_a_parameter_is_refused():
    def inline(run_id, user_id):
        return [update_sql(CycleRun.objects.filter(pk=run_id), {"status": "done"})]

    with pytest.raises(ValueError):
        compiled_once("test-statement-bad", ("id", "id"), inline)(1, 2)


def test_the_record_save_runs_the_compiled_statement_twice(ai_user):
    from agents.cycle.run import cycle_begin
    from agents.runs.lease import respond_lease_claim
    from agents.runs.record import turn_give_with_record

    run = cycle_begin(ai_user.id)
    for n in range(2):
        assert respond_lease_claim(ai_user.id, run.pk)
        run.details = {"round": n}
        run.stages = {"select_posts": {"outcome": "ok", "n": n}}
        assert turn_give_with_record(run, ["stages", "details"])
        saved = CycleRun.objects.get(pk=run.pk)
        assert saved.details == {"round": n} and saved.stages["select_posts"]["n"] == n
    assert AgentState.objects.get(user_id=ai_user.id).respond_lease_run is None


def test_the_hourly_writes_query_compiled_once_matches_a_fresh_compile():
    from agents.rate_limits import _load_parts, _load_statement

    for since, ai_id in [(10, 3), (7_000_000_000_000, 123456)]:
        assert _plain(_load_statement(since, ai_id)) == _plain(_load_parts(since, ai_id))


def test_the_back_off_pair_compiled_once_matches_a_fresh_compile():
    from agents.runs.contact import _pair_parts, _pair_statements

    for ai_id, person_id in [(5, 9), (9, 5), (123456789, 42)]:
        low, high = sorted((ai_id, person_id))
        assert _plain(_pair_statements(ai_id, person_id, low, high)) == _plain(_pair_parts(ai_id, person_id, low, high))


@postgresql_only
def test_the_stage_record_save_compiled_once_matches_a_fresh_compile():
    from agents.runs.record import _record_parts, _record_statements

    until = datetime(2026, 12, 4, 23, 0, tzinfo=UTC)
    stages, details = {"select_posts": {"outcome": "ok"}}, {"tier": "balanced"}
    fresh = _record_parts(4, 77, {"lease_until": until}, {"stages": stages, "details": details})
    assert _plain(_record_statements(4, 77, until, stages, details)) == _plain(fresh)
