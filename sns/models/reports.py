"""The one review queue: reports of direct messages, posts and replies.

Rows are written only through `sns.services.messages.message_report` and
`sns.services.reports.post_report`, and closed by `reports_resolve` (docs/pages.md §3,
docs/messages.md).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from ..core.ids import id_to_hex, new_id


class ReportStatus(models.TextChoices):
    OPEN = "open", "open"
    RESOLVED = "resolved", "resolved"


class ReportKind(models.TextChoices):
    MESSAGE = "message", "message"
    POST = "post", "post"
    REPLY = "reply", "reply"


# What a person may say is wrong with a post or a reply (the API's `reason` values).
POST_REPORT_REASONS = [
    ("spam", "Spam or advertising"),
    ("harassment", "Harassment or hate"),
    ("violence", "Violence or threats"),
    ("sexual", "Sexual content"),
    ("misinformation", "False or misleading information"),
    ("illegal", "Something illegal"),
    ("other", "Something else"),
]


class Report(models.Model):
    """A member's report of a message, a post or a reply. A message report is what lets
    an admin see that conversation. A post report keeps the text and the author as they
    were when reported, so the facts stay in the queue if the author deletes the post."""

    id = models.BigIntegerField(primary_key=True, default=new_id, editable=False)
    kind = models.CharField(max_length=10, choices=ReportKind.choices, default=ReportKind.MESSAGE)
    message = models.ForeignKey(
        "sns.Message", on_delete=models.CASCADE, related_name="reports", db_index=False, null=True
    )
    post = models.ForeignKey(
        "sns.Post", on_delete=models.SET_NULL, related_name="+", db_index=False, null=True
    )
    post_owner = models.ForeignKey(
        "sns.User", on_delete=models.SET_NULL, related_name="+", db_index=False, null=True
    )
    post_content = models.TextField(blank=True, default="")
    reporter = models.ForeignKey(
        "sns.User", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    reason = models.TextField()
    note = models.TextField(blank=True, default="")
    status = models.CharField(
        max_length=10, choices=ReportStatus.choices, default=ReportStatus.OPEN
    )
    created_at = models.DateTimeField()
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="message_report_once"),
            # One open report per reporter and post; a resolved one may be followed by another.
            models.UniqueConstraint(
                fields=["post", "reporter"],
                condition=Q(status="open"),
                name="post_report_open_once",
            ),
            models.CheckConstraint(
                condition=Q(kind="message", message__isnull=False, post__isnull=True)
                | Q(kind__in=["post", "reply"], message__isnull=True),
                name="report_one_target",
            ),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="message_report_queue_idx")]

    def __str__(self):
        return f"{self.kind} report {id_to_hex(self.id)} ({self.status})"
