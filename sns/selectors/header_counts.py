"""The counts every page's header shows (unread notifications, unread messages in the
inbox, open reports for an admin), read in one statement on PostgreSQL.

Each count is what its own read gives (`notifications_unread_count`,
`messages_unread_counts(...)["inbox"]`, `reports_open_count`); they are read on every
page view and by the header's poll (sns/selectors/live.py), where two or three round
trips with their planning cost PostgreSQL and the worker more than the counting itself
(bench/README.md, "Round 9 — pages4"). The statement is prepared once per connection
and is the same text for every viewer. Nothing is kept between views, so a count is
never stale. Elsewhere than PostgreSQL the three reads run as they are.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.db import connection

from ..models import ConversationMember, Message, Notification
from ..models_reports import Report, ReportStatus
from .messages import messages_unread_counts
from .notifications import notifications_unread_count, unread_count_of
from .post_rows import fetch_prepared
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
    params = [viewer.id, settings.STGY_NOTIFICATION_SHOWN_RECORDS, viewer.id, viewer.id]
    if admin:
        params.append(ReportStatus.OPEN.value)
    [(records, unread_dm, *reports)] = fetch_prepared(_statement(admin), params)
    # Django reads jsonb as text (its JSONField decodes it); a viewer with nothing
    # unread gets NULL.
    if isinstance(records, str):
        records = json.loads(records)
    return HeaderCounts(unread_count_of(viewer, records or []), int(unread_dm), int(reports[0]) if admin else 0)


@lru_cache(maxsize=2)
def _statement(admin: bool) -> str:
    qn = connection.ops.quote_name

    def col(model, name: str) -> str:
        return qn(model._meta.get_field(name).column)

    n, cm, m = Notification, ConversationMember, Message
    # notifications_unread_count's read: the newest unread rows' records, in its order.
    notifications = (
        f"SELECT jsonb_agg(n.records ORDER BY n.updated DESC, n.id DESC) FROM "
        f"(SELECT {col(n, 'payload')} -> 'records' AS records, {col(n, 'updated_at')} AS updated, {col(n, 'id')} AS id "
        f"FROM {qn(n._meta.db_table)} WHERE {col(n, 'user')} = %s AND NOT {col(n, 'is_read')} "
        f"ORDER BY {col(n, 'updated_at')} DESC, {col(n, 'id')} DESC LIMIT %s) AS n"
    )
    # messages_unread_counts' join, for the inbox only.
    inbox = (
        f"SELECT COUNT(*) FROM {qn(cm._meta.db_table)} cm JOIN {qn(m._meta.db_table)} m "
        f"ON m.{col(m, 'conversation')} = cm.{col(cm, 'conversation')} AND m.{col(m, 'id')} > cm.{col(cm, 'last_read_id')} "
        f"AND m.{col(m, 'id')} > cm.{col(cm, 'hidden_before_id')} AND m.{col(m, 'sender')} <> %s "
        f"WHERE cm.{col(cm, 'user')} = %s AND NOT cm.{col(cm, 'is_request')}"
    )
    selects = [f"({notifications})", f"({inbox})"]
    if admin:
        selects.append(f"(SELECT COUNT(*) FROM {qn(Report._meta.db_table)} WHERE {col(Report, 'status')} = %s)")
    return "SELECT " + ", ".join(selects)
