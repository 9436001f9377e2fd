"""Tables of direct messages and of the boundaries a person sets for AI users.

Rows are written only through `sns.services.messages` and `sns.services.boundaries`;
the rules are described in docs/messages.md.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

from ..core.ids import HexIdentified, IdDated, id_to_hex, new_id


class Conversation(HexIdentified, models.Model):
    """One per pair of users, the lower id first, so a pair can never have two."""

    id = models.BigIntegerField(primary_key=True, default=new_id, editable=False)
    user_low = models.ForeignKey(
        "sns.User", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    user_high = models.ForeignKey(
        "sns.User", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    # The newest message's id (0 before the first): orders the lists and tells a member
    # whether anything arrived after they hid the conversation.
    last_message_id = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user_low", "user_high"], name="conversation_pair"),
            models.CheckConstraint(
                condition=Q(user_low__lt=F("user_high")), name="conversation_ordered_pair"
            ),
        ]
        indexes = [models.Index(fields=["user_high"], name="conversation_high_idx")]

    def __str__(self):
        return f"conversation {id_to_hex(self.id)}"


class ConversationMember(models.Model):
    """A member's own view of a conversation: where they have read to, what they have
    hidden, and whether it is still a request waiting for them to accept it."""

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="members", db_index=False
    )
    user = models.ForeignKey("sns.User", on_delete=models.CASCADE, related_name="+", db_index=False)
    peer = models.ForeignKey("sns.User", on_delete=models.CASCADE, related_name="+", db_index=False)
    last_read_id = models.BigIntegerField(default=0)
    # Messages with an id up to this one are hidden for this member ("delete for me").
    hidden_before_id = models.BigIntegerField(default=0)
    is_request = models.BooleanField(default=False)
    accepted = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "peer"], name="conversation_member_unique"),
            models.UniqueConstraint(
                fields=["conversation", "user"], name="conversation_member_once"
            ),
        ]
        indexes = [
            models.Index(fields=["user", "is_request"], name="conversation_member_folder_idx")
        ]

    def __str__(self):
        return f"{self.user_id} with {self.peer_id}"


class Message(IdDated, models.Model):
    id = models.BigIntegerField(primary_key=True, default=new_id, editable=False)
    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="messages", db_index=False
    )
    sender = models.ForeignKey(
        "sns.User", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    content = models.TextField()

    class Meta:
        indexes = [models.Index(fields=["conversation", "id"], name="message_conversation_idx")]

    def __str__(self):
        return f"message {id_to_hex(self.id)}"


class AiBoundaries(models.Model):
    """What AI users may do towards this person. No row means every switch is on."""

    user = models.OneToOneField(
        "sns.User", on_delete=models.CASCADE, primary_key=True, related_name="ai_boundaries"
    )
    allow_replies = models.BooleanField(default=True)
    allow_mentions = models.BooleanField(default=True)
    allow_messages = models.BooleanField(default=True)
    # Quiet hours, in the person's own time zone (User.timezone): AI users never open
    # a conversation with them from `quiet_start` up to `quiet_end` (past midnight when
    # start > end). Both set or both empty.
    quiet_start = models.TimeField(null=True, blank=True)
    quiet_end = models.TimeField(null=True, blank=True)
    updated_at = models.DateTimeField()

    def __str__(self):
        return f"AI boundaries of {self.user_id}"


class AiStop(models.Model):
    """A person told one AI user to stop contacting them, until `until` or for good."""

    person = models.ForeignKey(
        "sns.User", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    ai_user = models.ForeignKey(
        "sns.User", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()
    # How the person said it: the Stop button (or the API), their own words to the AI
    # user caught by sns/core/stop_words.py, or the model reading those words.
    SOURCES = ("button", "words", "model")
    source = models.CharField(max_length=10, default="button")
    # The post or message whose words set it (source "words" or "model").
    said_in = models.BigIntegerField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["person", "ai_user"], name="ai_stop_pair")]
        indexes = [models.Index(fields=["ai_user"], name="ai_stop_ai_user_idx")]

    def __str__(self):
        return f"{self.person_id} stopped {self.ai_user_id}"

    def is_active(self, now) -> bool:
        return self.until is None or self.until > now
