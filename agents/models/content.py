"""What the AI layer adds to the posts: their summaries and AI tags, and the sources
of the AI users' knowledge base (docs/summaries-and-vectors.md)."""

from __future__ import annotations

from django.db import models


class PostSummary(models.Model):
    """One row per post, created in the post's transaction. `summary` NULL = pending."""

    post = models.OneToOneField("sns.Post", on_delete=models.CASCADE, primary_key=True, related_name="ai_summary")
    # The content version: post creation time, then the time of every edit. A summary is
    # stored only if this has not moved while the model was writing it.
    source_updated_at = models.DateTimeField()
    summary = models.TextField(null=True, blank=True)
    hashes = models.BinaryField(null=True, blank=True)
    features = models.BinaryField(null=True, blank=True)
    embedding_model = models.CharField(max_length=100, blank=True, default="")
    summarized_at = models.DateTimeField(null=True, blank=True)
    attempts = models.IntegerField(default=0)
    last_error = models.TextField(blank=True, default="")
    # In batch mode (agents/summaries/batch.py): the batch asked to summarise this version.
    batch = models.ForeignKey("LlmBatch", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    class Meta:
        indexes = [
            models.Index(fields=["post"], condition=models.Q(summary__isnull=True), name="summary_pending_idx"),
            models.Index(fields=["source_updated_at"], name="summary_source_idx"),
        ]

    def __str__(self):
        return f"summary of {self.post_id}"


class AiPostTag(models.Model):
    post = models.ForeignKey("sns.Post", on_delete=models.CASCADE, related_name="ai_tags")
    name = models.CharField(max_length=50)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["post", "name"], name="ai_post_tag_unique")]
        indexes = [models.Index(fields=["name", "post"], name="ai_post_tag_name_idx")]

    def __str__(self):
        return self.name


class KnowledgeSource(models.Model):
    """A source of the AI users' knowledge base marked in Django admin, beside the
    STGY_KNOWLEDGE_* settings; agents/runs/knowledge.py `knowledge_q` reads both."""

    class Kind(models.TextChoices):
        ACCOUNT = "account", "account (every post; value: its e-mail)"
        PUBLICATION = "publication", "publication (its published posts; value: the account's e-mail)"
        TAG = "tag", "tag (every post carrying it; value: the tag)"

    kind = models.CharField(max_length=12, choices=Kind.choices)
    value = models.CharField(max_length=254)
    note = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "value"], name="knowledge_source_unique")]

    def __str__(self):
        return f"{self.kind}: {self.value}"
