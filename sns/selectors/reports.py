"""Reads of the review queue (sns/models/reports.py) for the pages."""

from __future__ import annotations

from ..models.reports import Report, ReportStatus


def reports_open_count(viewer) -> int:
    """Open reports of every kind, for an admin's header: how admins learn that members
    reported something. A count, not a notification per report, so a flood of reports
    costs admins nothing more than a bigger number, and resolving them clears it.
    0 for anyone else, without a query."""
    if viewer is None or not getattr(viewer, "is_admin", False):
        return 0
    return open_reports().count()


def open_reports():
    """The reports still waiting for an admin (also counted in the header's one
    statement, sns/selectors/header_counts.py)."""
    return Report.objects.filter(status=ReportStatus.OPEN)
