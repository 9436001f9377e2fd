"""The circuit breaker of the LLM gateway, against the local server through the real
client: it opens after N failed calls, refuses calls without reaching the model,
lets one probe through after the cool-down, and survives a dead cache."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings

from agents.embeddings import embed_features
from agents.llm import gateway
from agents.llm.breaker import (
    OPEN_UNTIL_KEY,
    READ_REUSE_SECONDS,
    BreakerRead,
    breaker_read,
    breaker_reset,
    state_store,
)
from agents.llm.errors import LlmRequestError, LlmTransientError, LlmUnavailable
from agents.models import LlmUsage
from agents.runs.llm_calls import LlmJob, run_jobs
from tests.conftest import requires_redis
from tests.llm_down import HELLO, closed_port, open_breaker
from tests.llm_server import error_body

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _breaker(settings):
    settings.STGY_AI_BREAKER_FAILURES = 3
    settings.STGY_AI_BREAKER_COOLDOWN_SECONDS = 30
    settings.STGY_AI_MAX_RETRIES = 0


def _chat(**kwargs):
    return gateway.chat(messages=HELLO, tier="basic", **kwargs)


def _in_thread(results: dict, name: str) -> threading.Thread:
    """A call from another thread; its usage row stays in memory (a thread of its own
    cannot write to the test's database)."""

    def call():
        try:
            results[name] = _chat(usage_sink=[]).content
        except Exception as exc:  # noqa: BLE001 - the test inspects what it was
            results[name] = exc

    thread = threading.Thread(target=call)
    thread.start()
    return thread


def test_opens_after_n_failed_calls_then_refuses_without_a_request(llm_server, settings):
    for i in range(3):
        assert gateway.breaker_state()["state"] == "closed"
        llm_server.push_chat(status=503)
        with pytest.raises(LlmTransientError):
            _chat()
        assert gateway.breaker_state()["failures"] == i + 1

    started = time.monotonic()
    with pytest.raises(LlmUnavailable, match="circuit breaker open"):
        _chat()
    assert time.monotonic() - started < 0.5
    assert len(llm_server.chat_requests()) == 3  # the refused call never reached the server
    refused = LlmUsage.objects.get(outcome="refused")
    assert refused.attempts == 0 and "ai service is unavailable" in refused.error
    assert LlmUsage.objects.filter(outcome="error").count() == 3
    state = gateway.breaker_state()
    assert (state["state"], state["failures"], state["threshold"]) == ("open", 3, 3)
    assert state["open_until"]


def test_a_call_counts_once_however_many_retries_it_made(llm_server, settings):
    settings.STGY_AI_MAX_RETRIES = 2
    for _ in range(3):
        llm_server.push_chat(status=500)
    with pytest.raises(LlmTransientError):
        _chat()
    assert len(llm_server.chat_requests()) == 3
    assert gateway.breaker_state() | {"open_until": None} == {
        "state": "closed",
        "failures": 1,
        "threshold": 3,
        "open_until": None,
        "cooldown_seconds": 30.0,
    }


def test_a_success_starts_the_count_again(llm_server):
    for status in (503, 503, 200, 503, 503):
        llm_server.push_chat(status=status)
        if status == 200:
            _chat()
        else:
            with pytest.raises(LlmTransientError):
                _chat()
    assert gateway.breaker_state()["state"] == "closed"
    assert gateway.breaker_state()["failures"] == 2


@pytest.mark.parametrize("status", [400, 401, 422])
def test_request_errors_never_open_it(llm_server, status):
    for _ in range(5):
        llm_server.push_chat(status=status, body=error_body("bad request", "invalid_request_error"))
        with pytest.raises(LlmRequestError):
            _chat()
    assert gateway.breaker_state()["state"] == "closed"
    assert _chat().content == "ok"


def test_unusable_answers_never_open_it(llm_server):
    for _ in range(5):
        llm_server.push_chat(body="not json at all")
        with pytest.raises(LlmRequestError):
            _chat()
    assert gateway.breaker_state()["failures"] == 0


def test_half_open_probe_success_closes_it(llm_server, settings, wall_clock):
    open_breaker(llm_server, settings)
    wall_clock.advance(29)
    with pytest.raises(LlmUnavailable):
        _chat()
    assert len(llm_server.chat_requests()) == 3

    wall_clock.advance(2)  # the cool-down is over
    assert gateway.breaker_state()["state"] == "half-open"
    assert _chat().content == "ok"  # the probe
    assert len(llm_server.chat_requests()) == 4
    assert gateway.breaker_state() | {"open_until": None} == {
        "state": "closed",
        "failures": 0,
        "threshold": 3,
        "open_until": None,
        "cooldown_seconds": 30.0,
    }
    _chat()
    _chat()
    assert len(llm_server.chat_requests()) == 6


def test_half_open_probe_failure_opens_it_again_and_asks_once(llm_server, settings, wall_clock):
    open_breaker(llm_server, settings)
    settings.STGY_AI_MAX_RETRIES = 3  # the probe still asks only once
    wall_clock.advance(31)
    llm_server.push_chat(status=502)
    llm_server.push_chat(status=502)  # would be the retry, if the probe retried
    with pytest.raises(LlmTransientError):
        _chat()
    assert len(llm_server.chat_requests()) == 4  # 3 that opened it + 1 probe, no retries
    assert gateway.breaker_state()["state"] == "open"

    wall_clock.advance(29)  # a whole new cool-down, counted from the failed probe
    with pytest.raises(LlmUnavailable):
        _chat()
    assert len(llm_server.chat_requests()) == 4
    wall_clock.advance(2)
    with pytest.raises(LlmTransientError):
        _chat()  # the second probe gets the second 502
    assert len(llm_server.chat_requests()) == 5
    wall_clock.advance(31)
    assert _chat().content == "ok"  # the third probe succeeds
    assert gateway.breaker_state()["state"] == "closed"


def test_only_one_probe_goes_through_at_a_time(llm_server, settings, wall_clock):
    open_breaker(llm_server, settings)
    wall_clock.advance(31)
    llm_server.push_chat("slow probe", delay=0.6)
    results: dict = {}
    probe = _in_thread(results, "probe")
    deadline = time.monotonic() + 2
    while len(llm_server.chat_requests()) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert gateway.breaker_state()["state"] == "open"  # refusing while the probe is out
    with pytest.raises(LlmUnavailable, match="probe"):
        _chat()
    probe.join()
    assert results["probe"] == "slow probe"
    assert len(llm_server.chat_requests()) == 4
    assert gateway.breaker_state()["state"] == "closed"


def test_a_retrying_call_stops_when_another_call_opens_it(llm_server, settings):
    settings.STGY_AI_BREAKER_FAILURES = 1
    settings.STGY_AI_MAX_RETRIES = 5
    settings.STGY_AI_RETRY_MAX_DELAY = 5.0
    # The first call waits out a Retry-After; meanwhile a second call fails and opens it.
    llm_server.push_chat(status=503, headers={"Retry-After": "0.5"})
    errors: dict = {}
    thread = _in_thread(errors, "slow")
    while not llm_server.chat_requests():
        time.sleep(0.01)
    settings.STGY_AI_MAX_RETRIES = 0
    llm_server.push_chat(status=503)
    with pytest.raises(LlmTransientError):
        _chat()
    thread.join()
    assert isinstance(errors["slow"], LlmUnavailable) and errors["slow"].attempts == 1
    assert len(llm_server.chat_requests()) == 2  # the first call did not retry


def test_embeddings_count_and_respect_the_same_breaker(llm_server, settings):
    settings.STGY_EMBEDDING_PROVIDER = "openai"
    for _ in range(2):
        llm_server.push_chat(status=503)
        with pytest.raises(LlmTransientError):
            _chat()
    llm_server.push_embedding(status=503)
    with pytest.raises(LlmTransientError):
        embed_features("bread")  # the third failure, an embedding one, opens it
    assert gateway.breaker_state()["state"] == "open"

    with pytest.raises(LlmUnavailable):
        embed_features("bread")
    assert len(llm_server.embedding_requests()) == 1
    refused = LlmUsage.objects.get(outcome="refused")
    assert (refused.task, refused.attempts) == ("embedding", 0)


def test_the_state_is_shared_through_the_cache(llm_server, settings):
    open_breaker(llm_server, settings)
    state_store.forget_local()  # what another process knows: only the cache
    assert gateway.breaker_state()["state"] == "open"
    with pytest.raises(LlmUnavailable):
        _chat()
    assert len(llm_server.chat_requests()) == 3


@pytest.mark.parametrize(
    "backend",
    # Django's own, which raises; and the site's, which answers a failure with a miss.
    ["django.core.cache.backends.redis.RedisCache", "stgy.cache.FailSoftRedisCache"],
)
def test_a_dead_cache_falls_back_to_process_state(llm_server, settings, caplog, backend):
    dead_redis = {
        "default": {
            "BACKEND": backend,
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/0",
        }
    }
    with override_settings(CACHES=dead_redis):
        assert gateway.breaker_state()["state"] == "closed"  # no exception from the cache
        open_breaker(llm_server, settings)
        with pytest.raises(LlmUnavailable):
            _chat()
        assert len(llm_server.chat_requests()) == 3
        assert "cache unreachable" in caplog.text
        result = gateway.health_check()  # the cache for its result is down too
        assert result["ok"] is True and result["breaker"]["state"] == "closed"
        assert _chat().content == "ok"


def test_health_check_reports_the_breaker_and_its_success_closes_it(llm_server, settings):
    open_breaker(llm_server, settings)
    assert gateway.last_health() is None
    result = gateway.health_check()  # an operator's check is made even while open
    assert result["ok"] is True
    assert len(llm_server.chat_requests()) == 4
    assert result["breaker"]["state"] == "closed" and result["breaker"]["failures"] == 0
    assert gateway.last_health()["breaker"]["state"] == "closed"
    assert _chat().content == "ok"


def test_llmcheck_shows_an_open_breaker(llm_server, settings, capsys):
    open_breaker(llm_server, settings)
    llm_server.push_chat(status=503)
    with pytest.raises(Exception, match="LLM check failed"):
        call_command("llmcheck")
    out = capsys.readouterr().out
    assert '"breaker": {' in out and '"state": "open"' in out and '"failures": 4' in out


def test_failures_zero_turns_the_breaker_off(llm_server, settings):
    settings.STGY_AI_BREAKER_FAILURES = 0
    for _ in range(5):
        llm_server.push_chat(status=503)
        with pytest.raises(LlmTransientError):
            _chat()
    assert _chat().content == "ok"
    assert gateway.breaker_state()["state"] == "disabled"


@requires_redis
def test_another_process_sees_the_open_breaker_through_redis(llm_server, settings):
    open_breaker(llm_server, settings)
    script = (
        "import django; django.setup()\n"
        "from agents.llm import gateway\n"
        "print(gateway.breaker_state()['state'], gateway.accepting_calls())\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "stgy.settings",
        "STGY_AI_PROVIDER": "openai",
        "STGY_AI_BREAKER_FAILURES": str(settings.STGY_AI_BREAKER_FAILURES),
    }
    done = subprocess.run(
        [sys.executable, "-c", script],
        check=False,
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["open", "False"]


def test_a_read_of_the_state_stands_only_while_fresh_and_unwritten(llm_server, settings):
    # This process's own failures make an earlier read stale at once: the call is refused.
    read = breaker_read()
    open_breaker(llm_server, settings)
    with pytest.raises(LlmUnavailable, match="circuit breaker open"):
        _chat(breaker=read)
    assert len(llm_server.chat_requests()) == 3
    breaker_reset()
    # Another process's write is seen once the read is READ_REUSE_SECONDS old, and not
    # before: the window a stage's calls share their read in.
    read = breaker_read()
    state_store.set(OPEN_UNTIL_KEY, time.time() + 30)
    llm_server.push_chat("ok")
    assert _chat(breaker=read).content == "ok"
    old = BreakerRead(values=read.values, at=read.at - READ_REUSE_SECONDS, after=read.after)
    with pytest.raises(LlmUnavailable, match="circuit breaker open"):
        _chat(breaker=old)
    assert len(llm_server.chat_requests()) == 4


def test_a_stage_reads_the_state_once_for_its_check_and_its_calls(llm_server, settings, monkeypatch):
    reads = []
    get_many = state_store.get_many
    monkeypatch.setattr(state_store, "get_many", lambda keys: reads.append(keys) or get_many(keys))
    settings.STGY_AI_USER_STAGE_CONCURRENCY = 1
    jobs = [
        LlmJob(key=n, task="interest", locale="en", payload={"posts": [], "users": []}, max_chars=100,
               tag_num=3, parse=lambda text: {"text": text})
        for n in range(3)
    ]
    for _ in jobs:
        llm_server.push_chat("ok")
    run_jobs(jobs, profile={"locale": "en", "nickname": "ai"}, tier="basic", user_id=None, run_id=None, stage="test")
    assert [job.result for job in jobs] == [{"text": "ok"}] * 3
    assert len(reads) == 1
    assert LlmUsage.objects.filter(outcome="ok").count() == 3
