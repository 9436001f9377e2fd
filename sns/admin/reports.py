"""The one review queue of Django admin: reports of messages, posts and replies.

Read-only facts — who reported what, why, and the reported text as it was (a post's
text is kept on the report; a message is shown within its conversation). "Resolve"
closes reports through the rulebook (`sns.services.reports.reports_resolve`).
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html

from ..core.ids import id_to_hex
from ..models.reports import POST_REPORT_REASONS, Report, ReportKind
from ..services.reports import reports_resolve
from .base import ReadOnlyAdmin
from .messages import thread_html

_REASON_LABELS = dict(POST_REPORT_REASONS)


@admin.action(description="Resolve the selected reports")
def resolve_reports(modeladmin, request, queryset):
    count = reports_resolve(request.user, list(queryset.values_list("id", flat=True)))
    modeladmin.message_user(request, f"{count} report(s) resolved.", messages.SUCCESS)


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    list_display = ("hex", "status", "kind", "reporter", "author", "reason_short", "created_at")
    list_filter = ("status", "kind")
    list_select_related = ("reporter", "message__sender", "post_owner")
    ordering = ("status", "-created_at")
    actions = [resolve_reports]
    fields = (
        "hex",
        "status",
        "kind",
        "reporter",
        "author",
        "reason_text",
        "note",
        "created_at",
        "resolved_at",
        "reported",
    )
    readonly_fields = fields

    @admin.display(description="id")
    def hex(self, obj):
        return id_to_hex(obj.id)

    @admin.display(description="author")
    def author(self, obj):
        return obj.message.sender if obj.kind == ReportKind.MESSAGE else obj.post_owner

    @admin.display(description="reason")
    def reason_text(self, obj):
        return _REASON_LABELS.get(obj.reason, obj.reason)

    @admin.display(description="reason")
    def reason_short(self, obj):
        return self.reason_text(obj)[:80]

    @admin.display(description="reported")
    def reported(self, obj):
        if obj.kind == ReportKind.MESSAGE:
            return thread_html(obj.message.conversation_id, highlight=obj.message_id)
        # The text as it was when reported; a link while the post still exists.
        link = (
            format_html('<p><a href="{}">Open the {}</a></p>', reverse("web:post", args=[id_to_hex(obj.post_id)]), obj.kind)
            if obj.post_id
            else format_html("<p>The {} has been deleted since.</p>", obj.kind)
        )
        return format_html('{}<pre style="white-space: pre-wrap">{}</pre>', link, obj.post_content)
