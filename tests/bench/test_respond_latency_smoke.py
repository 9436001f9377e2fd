"""Smoke run of bench/respond_latency at a tiny size: a generated community in the test
database, the stand-in server, a real Celery worker on Redis, a handful of
conversations; the bench must report answered events and their latency."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command

from tests.conftest import requires_postgres, requires_redis
from tests.integration.worker import broker_url

pytestmark = [
    requires_postgres,
    requires_redis,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]

ROOT = Path(__file__).resolve().parents[2]


def test_respond_latency_reports_answers_and_their_latency(tmp_path):
    call_command("gen_community", "--size", "custom", "--users", "50", "--posts", "300",
                 "--workers", "0", "--seed", "4", "--anchor-ms", "1790000000000")
    out = tmp_path / "respond_latency.json"
    env = {**os.environ, "STGY_BENCH_REDIS_URL": broker_url()}
    proc = subprocess.run(
        [sys.executable, "-m", "bench.respond_latency",
         "--db", django_settings.DATABASES["default"]["NAME"], "--latency", "0.2",
         "--minutes", "0.25", "--conversations", "5", "--think", "1", "--drain", "20",
         "--pool", "threads:1x4", "--cycles-inflight", "1", "--json", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    result = json.loads(out.read_text())
    assert result["events"] >= 5
    assert result["counts"].get("answered", 0) >= 5
    assert abs(sum(result["shares"].values()) - 1) < 0.01
    latency = result["answer_latency_s"]
    assert 0.2 <= latency["p50"] <= latency["p95"] <= latency["p99"] < 30
