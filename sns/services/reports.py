"""Reports of posts and replies, and closing reports of every kind (the one review
queue of Django admin; docs/pages.md §3). Message reports are written by
`sns.services.messages.message_report`."""

from __future__ import annotations

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from ..core import throttle
from ..core.errors import Conflict, InvalidInput
from ..core.textguard import clean_long_text
from ..models import User
from ..models.reports import POST_REPORT_REASONS, Report, ReportKind, ReportStatus
from ..reads.access import access_admin, access_post, access_writable

REASONS = [key for key, _ in POST_REPORT_REASONS]


def _clean_note(note) -> str:
    if note is None:
        return ""
    if not isinstance(note, str):
        raise InvalidInput("note must be a string")
    note = clean_long_text(note.replace("\r\n", "\n"), "note").strip()
    if len(note) > settings.STGY_REPORT_NOTE_LENGTH_LIMIT:
        raise InvalidInput("note is too long")
    return note


def post_report(actor: User, post_id: int, *, reason, note=None) -> Report:
    """A member reports someone else's post or reply to the admins, with one of
    `REASONS` and an optional note. One open report per reporter and post; reports
    count against an hourly limit of their own."""
    access_writable(actor)
    post = access_post(actor, post_id)
    if post.owner_id == actor.id:
        raise InvalidInput("cannot report your own post")
    if reason not in REASONS:
        raise InvalidInput("reason must be one of " + ", ".join(REASONS))
    note = _clean_note(note)
    open_reports = Report.objects.filter(post_id=post.id, reporter_id=actor.id, status=ReportStatus.OPEN)
    if open_reports.exists():
        raise Conflict("already reported")
    throttle.throttle_check(actor, throttle.REPORTS)
    return report_create(
        kind=ReportKind.REPLY if post.reply_to is not None else ReportKind.POST,
        post=post,
        post_owner_id=post.owner_id,
        post_content=post.content,
        reporter=actor,
        reason=reason,
        note=note,
    )


def report_create(**fields) -> Report:
    """Write a report of any kind. The callers check for an existing report first; when
    two requests of one reporter race past that check, the table's unique constraints
    let one in and the other is told `already reported`."""
    try:
        with transaction.atomic():
            return Report.objects.create(created_at=timezone.now(), **fields)
    except IntegrityError:
        raise Conflict("already reported") from None


def reports_resolve(actor: User, report_ids: list[int]) -> int:
    """Admins close reports of any kind in the review queue; returns how many were open."""
    access_admin(actor)
    return Report.objects.filter(pk__in=report_ids, status=ReportStatus.OPEN).update(
        status=ReportStatus.RESOLVED, resolved_at=timezone.now()
    )
