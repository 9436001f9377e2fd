"""The counts every page's header shows (unread notifications, unread messages in the
inbox, open reports for an admin), read in one statement on PostgreSQL.

Each count is what its own read gives (`notifications_unread_count`,
`messages_unread_counts(...)["inbox"]`, `reports_open_count`), from those reads' own
queries (`unread_records`, `inbox_unread_sql`, `open_reports`) composed into one
SELECT, so each rule is stated once, in its selector. They are read on every
page view and by the header's poll (sns/selectors/live.py), where two or three round
trips with their planning cost PostgreSQL and the worker more than the counting itself
(bench/page_cpu measures both). The statement is prepared once per connection
and is the same text for every viewer. Nothing is kept between views, so a count is
never stale. Elsewhere than PostgreSQL the three reads run as they are.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.conf import settings
from django.db import connection

from ..sql_statements import compiled_once
from .messages import inbox_unread_sql, messages_unread_counts
from .notifications import notifications_unread_count, unread_count_of, unread_records
from .post_rows import fetch_prepared
from .reports import open_reports, reports_open_count


@dataclass(frozen=True)
class HeaderCounts:
    unread: int  # notifications
    unread_dm: int  # messages in the inbox (not in the requests)
    reports_open: int  # 0 for anyone but an admin


def header_counts(viewer) -> HeaderCounts:
    admin = bool(getattr(viewer, "is_admin", False))
    if connection.vendor != "postgresql":
        return HeaderCounts(
            notifications_unread_count(viewer),
            messages_unread_counts(viewer.id)["inbox"],
            reports_open_count(viewer) if admin else 0,
        )
    # The statement's text depends on the setting (its LIMIT) and on the viewer being an
    # admin, never on the viewer: compiled once per process for each.
    key = f"header_counts/{admin}/{settings.STGY_NOTIFICATION_SHOWN_RECORDS}"
    [(sql, params)] = compiled_once(key, ("id",), lambda viewer_id: [_statement(viewer_id, admin)])(viewer.id)
    [(records, unread_dm, *reports)] = fetch_prepared(sql, params)
    # Django reads jsonb as text (its JSONField decodes it); a viewer with nothing
    # unread gets NULL.
    if isinstance(records, str):
        records = json.loads(records)
    return HeaderCounts(unread_count_of(viewer, records or []), int(unread_dm), int(reports[0]) if admin else 0)


def _statement(viewer_id: int, admin: bool) -> tuple[str, list]:
    """The three reads' own statements as scalar subqueries of one SELECT. The
    notifications' records are aggregated in no particular order: `unread_count_of`
    counts each row's records on its own."""
    notifications, params = unread_records(viewer_id).query.sql_with_params()
    selects = [f"(SELECT jsonb_agg(n.records) FROM ({notifications}) AS n(records))", f"({inbox_unread_sql()})"]
    params = [*params, viewer_id, viewer_id]
    if admin:
        reports, report_params = open_reports().values("pk").query.sql_with_params()
        selects.append(f"(SELECT COUNT(*) FROM ({reports}) AS r)")
        params += report_params
    return "SELECT " + ", ".join(selects), params
