"""The site's Prometheus metrics, kept with prometheus_client (docs/operations.md,
"Metrics").

The request histogram carries the name and labels the original's exporter gave it
(`http_request_duration_seconds` by method, route and status code, same buckets), so
its dashboards read ours. The LLM counters are fed by agents/llm/usage.py, once per
usage row, which is once per gateway call whatever its outcome.

One process: the default registry, with the process and platform collectors. Several
(gunicorn workers, Celery workers): set PROMETHEUS_MULTIPROC_DIR to a directory all of
them share and empty at start; each process writes its values there and `render()`
adds them up, so one scrape of any web worker covers all of them.
"""

from __future__ import annotations

import os

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client import multiprocess
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4

from .queues import QueueDepthCollector

# The original's buckets (seconds): fine steps up to one second, then doublings.
REQUEST_BUCKETS = (
    0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6,
    0.7, 0.8, 0.9, 1, 2, 4, 8, 16, 32,
)
LLM_BUCKETS = (0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128, 300, 600)

http_request_duration = Histogram(
    "http_request_duration_seconds",
    "Duration of HTTP requests in seconds, by route pattern",
    ["method", "path", "status_code"],
    buckets=REQUEST_BUCKETS,
)
llm_calls = Counter(
    "stgy_llm_calls", "Model calls through the gateway, by outcome (ok, error, refused)",
    ["provider", "model", "task", "outcome"],
)
llm_tokens = Counter(
    "stgy_llm_tokens", "Tokens of model calls (kind: prompt, completion, cached)",
    ["provider", "model", "kind"],
)
llm_cost = Counter(
    "stgy_llm_cost", "Cost of model calls in the units of STGY_AI_PRICES", ["provider", "model"],
)
llm_latency = Histogram(
    "stgy_llm_call_duration_seconds", "Duration of model calls that reached the model",
    ["provider", "model", "task"], buckets=LLM_BUCKETS,
)
_LABELLED = (http_request_duration, llm_calls, llm_tokens, llm_cost, llm_latency)

_queue_collector = QueueDepthCollector()
REGISTRY.register(_queue_collector)


def multiprocess_dir() -> str:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR", "") or os.environ.get("prometheus_multiproc_dir", "")


def render() -> tuple[bytes, str]:
    """The exposition text of every metric of the site, and its content type (the
    0.0.4 text format, which every Prometheus version reads)."""
    if multiprocess_dir():
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        registry.register(_queue_collector)
        return generate_latest(registry), CONTENT_TYPE_PLAIN_0_0_4
    return generate_latest(REGISTRY), CONTENT_TYPE_PLAIN_0_0_4


def reset() -> None:
    """Forget every labelled series of this process (POST /metrics/clear). Process
    metrics (CPU, memory) are read fresh at each scrape and are not counters of ours.
    In multiprocess mode the values other processes wrote stay in their files."""
    for metric in _LABELLED:
        metric.clear()


def record_llm_call(
    *, provider: str, model: str, task: str, outcome: str, prompt_tokens: int,
    completion_tokens: int, cached_tokens: int, cost, latency_ms: int,
) -> None:
    llm_calls.labels(provider, model, task, outcome).inc()
    for kind, count in (("prompt", prompt_tokens), ("completion", completion_tokens),
                        ("cached", cached_tokens)):
        if count > 0:
            llm_tokens.labels(provider, model, kind).inc(count)
    if cost:
        llm_cost.labels(provider, model).inc(float(cost))
    if outcome != "refused":
        llm_latency.labels(provider, model, task).observe(max(latency_ms, 0) / 1000)
