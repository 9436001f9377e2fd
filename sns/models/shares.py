"""Tables of reposts, quotes and bookmarks (docs/shares.md): our additions beside the
original's contract. Rows are written only through sns/services/shares.py."""

from __future__ import annotations

from django.db import models


class Repost(models.Model):
    """A user shares a post with their followers (a Mastodon boost). One per user and
    post: the unique constraint is also what makes an AI user's repost idempotent."""

    user = models.ForeignKey("sns.User", on_delete=models.CASCADE, related_name="reposts", db_index=False)
    post = models.ForeignKey("sns.Post", on_delete=models.CASCADE, related_name="reposts", db_index=False)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "post"], name="repost_unique")]
        indexes = [
            # A followee's newest reposts (the Following tab), a post's reposters.
            models.Index(fields=["user", "created_at"], name="repost_user_time_idx"),
            models.Index(fields=["post", "created_at"], name="repost_post_time_idx"),
        ]

    def __str__(self):
        return f"{self.user_id} reposts {self.post_id}"


class Quote(models.Model):
    """The post `post` quotes the post `quoted_id`. No foreign key to the quoted post,
    like a reply's parent: deleting it leaves the quote standing, shown as
    "unavailable"."""

    post = models.OneToOneField(
        "sns.Post", on_delete=models.CASCADE, primary_key=True, related_name="quote"
    )
    quoted_id = models.BigIntegerField()

    class Meta:
        indexes = [models.Index(fields=["quoted_id", "post"], name="quote_quoted_idx")]

    def __str__(self):
        return f"{self.post_id} quotes {self.quoted_id}"


class Bookmark(models.Model):
    """A post kept for later; private to its owner (no counts, no lists for others)."""

    user = models.ForeignKey("sns.User", on_delete=models.CASCADE, related_name="bookmarks", db_index=False)
    post = models.ForeignKey("sns.Post", on_delete=models.CASCADE, related_name="bookmarks", db_index=False)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "post"], name="bookmark_unique")]
        indexes = [models.Index(fields=["user", "created_at"], name="bookmark_user_time_idx")]

    def __str__(self):
        return f"{self.user_id} bookmarks {self.post_id}"
