"""The counts every page's header shows (unread notifications, unread messages in the
inbox, open reports for an admin), read in one statement on PostgreSQL.

Each count is what its own read gives (`notifications_unread_count`,
`messages_unread_counts(...)["inbox"]`, `reports_open_count`); on PostgreSQL the three
are scalar subqueries of one SELECT: the notifications' unread rows as
`unread_records` reads them, the messages' from `inbox_unread_sql`, the open reports as
`open_reports` selects them. They are read on every page view and by the header's poll
(sns/selectors/live.py), where two or three round trips with their planning cost
PostgreSQL and the worker more than the counting itself (bench/page_cpu measures
both). The statement's text depends only on the setting and on the viewer being an
admin: built once per process for each, prepared once per connection
(sns/selectors/post_reads/execute.py). Nothing is kept between views, so a count is
never stale. Elsewhere than PostgreSQL the three reads run as they are;
tests/sns/test_header_counts.py compares both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.db import connection

from ..models import Notification
from ..models.reports import Report, ReportStatus
from .messages import inbox_unread_sql, messages_unread_counts
from .notifications import notifications_unread_count, unread_count_of
from .post_reads.execute import fetch
from .reports import reports_open_count


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
    sql = _statement(admin, int(settings.STGY_NOTIFICATION_SHOWN_RECORDS))
    params = [viewer.id, viewer.id, viewer.id] + ([str(ReportStatus.OPEN)] if admin else [])
    [(records, unread_dm, *reports)] = fetch(sql, params)
    # Django reads jsonb as text (its JSONField decodes it); a viewer with nothing
    # unread gets NULL.
    if isinstance(records, str):
        records = json.loads(records)
    return HeaderCounts(unread_count_of(viewer, records or []), int(unread_dm), int(reports[0]) if admin else 0)


@lru_cache(maxsize=4)
def _statement(admin: bool, shown: int) -> str:
    """The three counts as scalar subqueries of one SELECT, taking the viewer's id three
    times, then for an admin the open status. The notifications' records are
    aggregated in no particular order: `unread_count_of` counts each row's records on
    its own."""
    qn = connection.ops.quote_name

    def col(model, name: str) -> str:
        return qn(model._meta.get_field(name).column)

    unread = (
        f"SELECT n.{col(Notification, 'payload')} -> 'records' FROM {qn(Notification._meta.db_table)} n "
        f"WHERE n.{col(Notification, 'user')} = %s AND NOT n.{col(Notification, 'is_read')} "
        f"ORDER BY n.{col(Notification, 'updated_at')} DESC, n.{col(Notification, 'id')} DESC LIMIT {shown}"
    )
    selects = [f"(SELECT jsonb_agg(n.records) FROM ({unread}) AS n(records))", f"({inbox_unread_sql()})"]
    if admin:
        selects.append(
            f"(SELECT COUNT(*) FROM {qn(Report._meta.db_table)} r WHERE r.{col(Report, 'status')} = %s)"
        )
    return "SELECT " + ", ".join(selects)
