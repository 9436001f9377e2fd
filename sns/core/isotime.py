"""Timestamps as the API prints them, for every floor (services stamp sessions with it,
presenters print rows with it)."""

from __future__ import annotations

from datetime import datetime, timezone


def iso(moment: datetime | None) -> str | None:
    """ISO-8601 in UTC with milliseconds and `Z`, as the original prints timestamps."""
    if moment is None:
        return None
    # isoformat writes four-digit years, as JavaScript's toISOString does (strftime("%Y")
    # gives "179" for the year 179), and cuts, not rounds, to milliseconds; the UTC
    # offset it ends with, "+00:00", is written "Z". One C call: a page of 20 posts
    # prints 20 to 60 of these.
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds")[:-6] + "Z"
