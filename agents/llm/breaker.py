"""The circuit breaker in front of the model endpoint, shared by chat and embeddings.

After STGY_AI_BREAKER_FAILURES consecutive failed calls — calls that ended in a
timeout, a connection error or a 429/5xx that outlasted the retries — the breaker
opens: for STGY_AI_BREAKER_COOLDOWN_SECONDS every call is refused at once, without
reaching the model, instead of holding a web worker or a Celery worker through its
retries. Then it is half-open: the next call is let through alone, as the probe, with
no retries; its success closes the breaker, its failure opens it for another cool-down.

A call the endpoint answered, even with a 4xx or an unusable body, proves it is up,
so it counts as a success here; such errors are the caller's problem, not an outage.

The state lives in `SharedState` (the cache, with an in-process fallback), so one
worker's failures protect every process. Timestamps are wall-clock seconds because
processes compare them.
"""

from __future__ import annotations

import functools
import itertools
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.conf import settings

from .errors import LlmUnavailable
from .shared_state import SharedState

log = logging.getLogger(__name__)

FAILURES_KEY = "agents:llm:breaker:failures"
OPEN_UNTIL_KEY = "agents:llm:breaker:open-until"
PROBE_KEY = "agents:llm:breaker:probe"
KEYS = (FAILURES_KEY, OPEN_UNTIL_KEY, PROBE_KEY)

state_store = SharedState()


def _threshold() -> int:
    return int(settings.STGY_AI_BREAKER_FAILURES)


def _cooldown() -> float:
    return max(0.0, float(settings.STGY_AI_BREAKER_COOLDOWN_SECONDS))


def _iso(epoch: float | None) -> str | None:
    if epoch is None:
        return None
    return datetime.fromtimestamp(epoch, tz=UTC).isoformat()


@dataclass(frozen=True)
class Admission:
    """What `breaker_admit` let through: `probe` is the half-open trial call, `forced`
    a call made whatever the state, and `failures` the count seen, so a success in the
    healthy case writes nothing."""

    probe: bool = False
    forced: bool = False
    failures: int = 0
    tracked: bool = True


UNTRACKED = Admission(tracked=False)

# How long one read of the shared values may stand for the state: a cycle stage reads
# them once for its check and its calls' admissions, which start right after it, instead
# of once more per call (a cache round trip each). A read this young, with no change
# written by this process since, is what a fresh one would say unless another process
# changed the state within that second; an older one is read again.
READ_REUSE_SECONDS = 1.0
_writes = itertools.count(1)  # next() on every write of the state by this process
_last_write = 0


def _writes_state(function):
    """Marks every read taken before `function` wrote the state as not fresh (once the
    writes are done, so no read can hold older values and count as fresh)."""

    @functools.wraps(function)
    def writing(*args, **kwargs):
        global _last_write
        try:
            return function(*args, **kwargs)
        finally:
            _last_write = next(_writes)

    return writing


@dataclass(frozen=True)
class BreakerRead:
    """The shared values as read at `at` (time.monotonic()), after this process's write
    number `after`."""

    values: dict[str, Any]
    at: float
    after: int

    def fresh(self) -> bool:
        return self.after == _last_write and time.monotonic() - self.at < READ_REUSE_SECONDS


def breaker_read() -> BreakerRead:
    """One read of the shared values, for `breaker_is_open` and `breaker_admit`."""
    after = _last_write
    return BreakerRead(values=state_store.get_many(KEYS), at=time.monotonic(), after=after)


def _values(read: BreakerRead | None) -> dict[str, Any]:
    return read.values if read is not None and read.fresh() else state_store.get_many(KEYS)


def breaker_admit(*, probe_seconds: float, read: BreakerRead | None = None) -> Admission:
    """Let a call through or raise LlmUnavailable (the call is not to be made).

    `probe_seconds` bounds how long a probe may take; if its process dies, the probe
    slot frees itself after that plus one cool-down. `read`, if fresh, is taken for the
    state instead of reading it again (the half-open probe slot is still claimed in the
    cache, so two calls sharing a read cannot both be the probe).
    """
    if _threshold() <= 0:
        return UNTRACKED
    values = _values(read)
    failures = int(values.get(FAILURES_KEY) or 0)
    until = values.get(OPEN_UNTIL_KEY)
    if until is None:
        return Admission(failures=failures)
    if time.time() < until:
        raise LlmUnavailable(
            f"ai service is unavailable (circuit breaker open until {_iso(until)})"
        )
    if _probe_claim(probe_seconds):
        log.info("LLM circuit breaker half-open: one probe call goes through")
        return Admission(probe=True, failures=failures)
    raise LlmUnavailable(
        "ai service is unavailable (circuit breaker half-open, a probe call is in flight)"
    )


@_writes_state
def _probe_claim(probe_seconds: float) -> bool:
    return state_store.add(PROBE_KEY, time.time(), timeout=probe_seconds + _cooldown())


def breaker_is_open(read: BreakerRead | None = None) -> bool:
    """True while calls are refused: the cool-down runs or a probe is in flight."""
    return breaker_state(read)["state"] == "open"


def breaker_success(admission: Admission) -> None:
    """The endpoint answered: the count of consecutive failures starts again."""
    if not admission.tracked:
        return
    if admission.failures == 0 and not (admission.probe or admission.forced):
        return  # the healthy case: nothing to reset, no write
    _closed()


@_writes_state
def _closed() -> None:
    was_open = state_store.get(OPEN_UNTIL_KEY) is not None
    state_store.delete_many([OPEN_UNTIL_KEY, PROBE_KEY])
    state_store.set(FAILURES_KEY, 0)
    if was_open:
        log.warning("LLM circuit breaker closed: the model answered again")


@_writes_state
def breaker_failure(admission: Admission) -> None:
    """A call failed the transient way; the threshold-th in a row opens the breaker, and
    so does a failed health check at once: it asked the model for one token and got
    nothing, which is all the news a count of failures waits for (so HEAD
    /ai-users/chat answers 503 as soon as a check finds the model down)."""
    if not admission.tracked:
        return
    failures = state_store.incr(FAILURES_KEY)
    if failures >= _threshold() or admission.forced:
        until = state_store.get(OPEN_UNTIL_KEY)
        now = time.time()
        # A call that was already in flight when another opened the breaker does not
        # lengthen the cool-down; only a probe (or a forced check), or a failure after
        # the cool-down, starts a new one.
        if admission.probe or admission.forced or until is None or now >= until:
            reopen_at = now + _cooldown()
            state_store.set(OPEN_UNTIL_KEY, reopen_at)
            log.warning(
                "LLM circuit breaker open after %d failed calls in a row (the last %s); refusing calls until %s",
                failures,
                "a health check" if admission.forced else "an ordinary call",
                _iso(reopen_at),
            )
    if admission.probe:
        # After the new cool-down is set, so no other call slips in as a second probe.
        state_store.delete_many([PROBE_KEY])


@_writes_state
def breaker_release(admission: Admission) -> None:
    """A call ended without news of the model (its caller ran out of time first, or it
    crashed): nothing changes, but a probe frees its slot for the next call."""
    if admission.tracked and admission.probe:
        state_store.delete_many([PROBE_KEY])


def breaker_checked() -> Admission:
    """For a call made whatever the breaker says (an operator's health check): its
    outcome still counts, and a success closes the breaker."""
    if _threshold() <= 0:
        return UNTRACKED
    return Admission(forced=True, failures=int(state_store.get(FAILURES_KEY) or 0))


def breaker_state(read: BreakerRead | None = None) -> dict[str, Any]:
    """The breaker as status pages show it: "closed", "open" (calls refused) or
    "half-open" (the next call is the probe); from `read` if it is fresh."""
    threshold = _threshold()
    if threshold <= 0:
        return {
            "state": "disabled",
            "failures": 0,
            "threshold": 0,
            "open_until": None,
            "cooldown_seconds": _cooldown(),
        }
    values = _values(read)
    failures = int(values.get(FAILURES_KEY) or 0)
    until = values.get(OPEN_UNTIL_KEY)
    if until is None:
        state = "closed"
    elif time.time() < until or values.get(PROBE_KEY) is not None:
        state = "open"
    else:
        state = "half-open"
    return {
        "state": state,
        "failures": failures,
        "threshold": threshold,
        "open_until": _iso(until),
        "cooldown_seconds": _cooldown(),
    }


@_writes_state
def breaker_reset() -> None:
    """Close the breaker and forget every count, shared and local."""
    state_store.forget_local()
    state_store.delete_many(KEYS)
