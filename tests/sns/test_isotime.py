"""Timestamps as the API prints them (sns/core/isotime.py): UTC, four-digit years,
milliseconds cut (not rounded), `Z` — byte for byte what the formula before the C
isoformat call wrote, for every kind of datetime the rows and models hand it."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from sns.core.ids import id_to_datetime
from sns.core.isotime import iso


def _spelled_out(moment: datetime) -> str:
    utc = moment.astimezone(timezone.utc)
    return f"{utc.year:04d}-" + utc.strftime("%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def test_the_same_text_as_spelled_out_by_fields():
    moments = [
        datetime(179, 1, 2, 3, 4, 5, 999_999, tzinfo=timezone.utc),
        datetime(1, 1, 1, tzinfo=timezone.utc),
        datetime(9999, 12, 31, 23, 59, 59, 999_999, tzinfo=timezone.utc),
        datetime(2024, 3, 1, 12, 0, 0, 999, tzinfo=ZoneInfo("Asia/Tokyo")),
        datetime(2024, 10, 27, 1, 30, 0, 1_000, tzinfo=ZoneInfo("Europe/London")),
        datetime(2024, 3, 1, 12, 0, 0, 500_500, tzinfo=timezone(timedelta(hours=-5, minutes=-30))),
    ]
    rng = random.Random(16)
    moments += [id_to_datetime(rng.getrandbits(63)) for _ in range(2_000)]
    moments += [datetime(2026, 12, 4, tzinfo=timezone.utc) + timedelta(microseconds=rng.getrandbits(40)) for _ in range(2_000)]
    for moment in moments:
        assert iso(moment) == _spelled_out(moment), moment
    assert iso(moments[0]) == "0179-01-02T03:04:05.999Z"
    assert iso(None) is None
