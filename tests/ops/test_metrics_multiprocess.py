"""PROMETHEUS_MULTIPROC_DIR as docs/operations.md describes it: processes that count on
their own (a gunicorn worker, a Celery worker) are added up by one scrape."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[2]
SETUP = "import django; django.setup(); from stgy.ops import metrics;"
COUNT = SETUP + (
    "metrics.record_llm_call(provider='offline', model='m', task='chat', outcome='ok',"
    " prompt_tokens=10, completion_tokens=5, cached_tokens=0, cost=0, latency_ms=20)"
)
RENDER = SETUP + "import sys; sys.stdout.write(metrics.render()[0].decode())"


def run(code: str, env: dict) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_one_scrape_adds_up_every_process(tmp_path):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "stgy.settings", "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    env.pop("REDIS_URL", None)  # no queue gauge to read: this is about the counters
    run(COUNT, env)
    run(COUNT, env)
    text = run(RENDER, env)
    families = {f.name: f for f in text_string_to_metric_families(text)}
    calls = [s for s in families["stgy_llm_calls"].samples if s.name == "stgy_llm_calls_total"]
    assert [(s.labels["outcome"], s.value) for s in calls] == [("ok", 2.0)]
    tokens = {s.labels["kind"]: s.value for s in families["stgy_llm_tokens"].samples
              if s.name == "stgy_llm_tokens_total"}
    assert tokens == {"prompt": 20.0, "completion": 10.0}
