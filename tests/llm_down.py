"""Ways to take the model down for a test, for real: failures answered by the local
server, a loopback port nobody listens on, and a wall clock the test moves forward so
a circuit breaker's cool-down passes without sleeping through it."""

from __future__ import annotations

import socket
import time

import pytest

from agents.llm import gateway
from agents.llm.errors import LlmTransientError
from sns.core import ids

HELLO = [{"role": "user", "content": "hello"}]


class WallClock:
    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def wall_clock(monkeypatch) -> WallClock:
    """`time.time()` frozen at the start of the test; `wall_clock.advance(s)` moves it.

    Ids issued meanwhile carry the moved clock's milliseconds, and the process's id
    issuer never goes back (sns/core/ids.py): left in place, it would give every id of the
    tests that follow, until the real clock caught up, one and the same millisecond, so
    rows made one after the other would share their creation time. The test gets an
    issuer of its own, and the process's comes back untouched after it."""
    clock = WallClock(time.time())
    monkeypatch.setattr(time, "time", clock)
    monkeypatch.setattr(ids, "_issuer", None)
    return clock


def closed_port() -> int:
    """A loopback port with no listener: connecting to it is refused at once."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def dead_model(settings, monkeypatch):
    """The openai provider pointed at a port nobody listens on."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    settings.STGY_AI_PROVIDER = "openai"
    settings.OPENAI_BASE_URL = f"http://127.0.0.1:{closed_port()}/v1"
    settings.OPENAI_API_KEY = "test"
    settings.STGY_AI_RETRY_BASE_DELAY = 0.01
    settings.STGY_AI_RETRY_MAX_DELAY = 0.05
    return settings.OPENAI_BASE_URL


def open_breaker(llm_server, settings) -> None:
    """Fail as many calls as the breaker tolerates, with 503s from the local server."""
    settings.STGY_AI_MAX_RETRIES = 0
    for _ in range(settings.STGY_AI_BREAKER_FAILURES):
        llm_server.push_chat(status=503)
        with pytest.raises(LlmTransientError):
            gateway.chat(messages=HELLO, tier="basic")
    assert gateway.breaker_state()["state"] == "open"
