"""Mutes: a person hides a user, or posts with a word, from what they read, without
telling anyone (docs/mutes.md). Rows are written only through `sns.services.mutes`;
the visibility rule (sns/selectors/visibility.py) reads them."""

from __future__ import annotations

from django.db import models


class Mute(models.Model):
    user = models.ForeignKey("sns.User", on_delete=models.CASCADE, related_name="muting_rows", db_index=False)
    target = models.ForeignKey("sns.User", on_delete=models.CASCADE, related_name="muted_by_rows", db_index=False)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "target"], name="mute_unique")]
        indexes = [models.Index(fields=["user", "created_at"], name="mute_user_time_idx")]

    def __str__(self):
        return f"{self.user_id} mutes {self.target_id}"


class MutedWord(models.Model):
    """A word (or phrase), stored lower-cased: a post containing it, in any case, is
    hidden from the user."""

    user = models.ForeignKey("sns.User", on_delete=models.CASCADE, related_name="muted_words", db_index=False)
    word = models.CharField(max_length=50)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "word"], name="muted_word_unique")]

    def __str__(self):
        return f"{self.user_id} mutes {self.word!r}"
