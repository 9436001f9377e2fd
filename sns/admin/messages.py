"""Reported conversations, for admins.

Messages are private to their two members, so the admin lists no messages and no
conversations of its own accord: only the conversations that have a report (the
reports themselves are in the review queue, sns/admin/reports.py). Read-only.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Exists, OuterRef
from django.utils.html import format_html, format_html_join

from ..core.ids import id_to_hex
from ..models.messages import Conversation, Message
from ..models.reports import Report, ReportStatus
from .base import ReadOnlyAdmin

_CONTEXT_MESSAGES = 50


def thread_html(conversation_id: int, highlight: int | None = None):
    """The newest messages of a reported conversation, oldest first, the reported one
    marked; escaped text (an admin page renders no user markup)."""
    rows = list(
        Message.objects.filter(conversation_id=conversation_id)
        .select_related("sender")
        .order_by("-id")[:_CONTEXT_MESSAGES]
    )
    rows.reverse()
    return format_html(
        "<ol>{}</ol>",
        format_html_join(
            "",
            "<li>{}<strong>{}</strong> ({}): {}</li>",
            (
                (
                    "▶ REPORTED " if m.id == highlight else "",
                    m.sender.nickname,
                    m.created_at.strftime("%Y-%m-%d %H:%M"),
                    m.content,
                )
                for m in rows
            ),
        ),
    )


@admin.register(Conversation)
class ReportedConversationAdmin(ReadOnlyAdmin):
    """Only conversations with a report; their messages in the change view."""

    list_display = ("hex", "user_low", "user_high", "open_reports")
    list_select_related = ("user_low", "user_high")
    fields = ("hex", "user_low", "user_high", "thread")
    readonly_fields = fields
    ordering = ("-last_message_id",)

    def get_queryset(self, request):
        reported = Report.objects.filter(message__conversation_id=OuterRef("pk"))
        return (
            super()
            .get_queryset(request)
            .annotate(
                reported=Exists(reported),
                open_count=Exists(reported.filter(status=ReportStatus.OPEN)),
            )
            .filter(reported=True)
        )

    @admin.display(description="id")
    def hex(self, obj):
        return id_to_hex(obj.id)

    @admin.display(description="open reports", boolean=True)
    def open_reports(self, obj):
        return obj.open_count

    @admin.display(description="messages (newest)")
    def thread(self, obj):
        return thread_html(obj.id)
