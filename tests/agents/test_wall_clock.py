"""The wall clock a test moves forward (tests/llm_down.py `wall_clock`) stays in that
test. The process's id issuer never goes back (sns/core/ids.py), so ids issued on a clock
moved 31 s on used to give every id of the tests that followed one and the same
millisecond until the real clock caught up: posts made one after the other shared their
creation time (tests/agents/test_ai_posts_api.py's `newerThan` after
tests/cycle/test_pause.py). The two tests run in this order."""

from __future__ import annotations

import time

from sns.core.ids import id_to_datetime, new_id

AN_HOUR = 3600.0


def test_ids_issued_meanwhile_carry_the_moved_clock(wall_clock):
    wall_clock.advance(AN_HOUR)
    assert id_to_datetime(new_id()).timestamp() >= time.time() - 1


def test_ids_after_it_follow_the_real_clock_again():
    first = new_id()
    time.sleep(0.005)
    second = new_id()
    assert id_to_datetime(first).timestamp() < time.time() + 60
    assert (second >> 20) > (first >> 20)  # another millisecond, not the next sequence number
