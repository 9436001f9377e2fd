"""The usage rows' INSERT as a CTE of a stage record's save (agents/runs/usage_held.py
`usage_ctes`): the rows it writes are those bulk_create writes, value for value, and the
call traces that travel with them go in by the same statement."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.utils import timezone

from agents.llm.trace import trace_content, trace_row
from agents.models import LlmCallTrace, LlmUsage
from agents.prompt_layers import PromptBuilder
from agents.runs.usage_held import usage_ctes
from tests.conftest import requires_postgres
from tests.factories import make_user

pytestmark = [pytest.mark.django_db, requires_postgres]  # a CTE of the record's save, on PostgreSQL only


_NOW = timezone.now()  # one time for both writers' rows


def _rows(user, marker: str) -> list[LlmUsage]:
    now = _NOW
    return [
        LlmUsage(created_at=now, user=user, stage="new_post", task=marker, provider="offline", model="m",
                 prompt_tokens=12, completion_tokens=3, cost=Decimal("0.000125"), outcome="ok"),
        LlmUsage(created_at=now - timedelta(seconds=1), user=None, task=marker, provider="p", model="m2",
                 cost=Decimal("1.5"), latency_ms=40, attempts=2, outcome="error", error="timeout {x} %s 'q'"),
    ]


def _written(marker: str) -> list[dict]:
    fields = [f.attname for f in LlmUsage._meta.concrete_fields if not f.primary_key]
    return list(LlmUsage.objects.filter(task=marker).order_by("created_at").values(*fields))


def _run_in_cte(rows) -> None:
    ctes, params = usage_ctes(rows)
    with connection.cursor() as cursor:
        cursor.execute(f"WITH first AS (SELECT 1){ctes} SELECT 1", params)


@pytest.mark.parametrize("count", [1, 2])
def test_the_rows_are_those_bulk_create_writes(count):
    user = make_user("Counted")
    LlmUsage.objects.bulk_create(_rows(user, "by-django")[:count])
    _run_in_cte(_rows(user, "by-hand")[:count])
    by_django, by_hand = _written("by-django"), _written("by-hand")
    assert len(by_hand) == count
    for row in (*by_django, *by_hand):
        row.pop("task")
    assert by_hand == by_django


def test_the_traces_of_the_rows_go_in_by_the_same_statement():
    user = make_user("Traced")
    rows = _rows(user, "traced")
    prompt = PromptBuilder().message("user").add("task", "t", "Judge: ").add_input({"post": {"c": "x"}}).build()
    rows[0].call_trace = trace_row(
        messages=prompt.messages, spans=prompt.spans, answer='{"a":1}', usage=rows[0], tier="basic", json_mode=True
    )
    _run_in_cte(rows)
    [trace] = LlmCallTrace.objects.filter(task="traced")
    assert trace.user_id == user.id and trace.stage == "new_post" and trace.unaccounted_bytes == 0
    assert trace_content(trace) == {"messages": prompt.messages, "answer": '{"a":1}'}
    assert [layer["name"] for layer in trace.layers] == ["t", "post"]
