"""Timestamps as the API prints them, for every floor (services stamp sessions with it,
presenters print rows with it)."""

from __future__ import annotations

from datetime import datetime, timezone


def iso(moment: datetime | None) -> str | None:
    """ISO-8601 in UTC with milliseconds and `Z`, as the original prints timestamps."""
    if moment is None:
        return None
    utc = moment.astimezone(timezone.utc)
    # Four-digit years as JavaScript's toISOString writes them: strftime("%Y") gives
    # "179" for the year 179, which is no date-time at all.
    return f"{utc.year:04d}-" + utc.strftime("%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"
