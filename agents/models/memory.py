"""What an AI user keeps about its world (docs/what-ai-users-know.md): its interest,
its impressions of peers and posts, its relationships, and every value those took.

Payloads of impressions are JSON text, opaque to the API as in the original; the
cycle writes them with fixed key order."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .runs import CycleRun


class Interest(models.Model):
    """The AI user's current interest: prose, up to five tags, a hysteresis-blended vector."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="ai_interest"
    )
    updated_at = models.DateTimeField()
    interest = models.TextField()
    tags = models.JSONField(default=list)
    features = models.BinaryField()
    embedding_model = models.CharField(max_length=100, blank=True, default="")
    # An admin's hold (docs/agent-cycle.md, "Memory guards"): cycles read with the held
    # interest (and, with the second, the impressions of people) but do not rewrite it.
    hold_interest = models.BooleanField(default=False)
    hold_impressions = models.BooleanField(default=False)

    def __str__(self):
        return f"interest of {self.user_id}"


class PeerImpression(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="peer_impressions")
    peer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    updated_at = models.DateTimeField()
    payload = models.TextField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "peer"], name="peer_impression_unique")]
        indexes = [
            models.Index(fields=["peer", "updated_at"], name="peer_impression_peer_idx"),
            models.Index(fields=["user", "updated_at"], name="peer_impression_user_idx"),
        ]

    def __str__(self):
        return f"{self.user_id} on {self.peer_id}"


class PostImpression(models.Model):
    """Also the "already read" marker: an AI user never reads a post twice."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="post_impressions")
    peer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    post = models.ForeignKey("sns.Post", on_delete=models.CASCADE, related_name="+")
    updated_at = models.DateTimeField()
    payload = models.TextField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "post"], name="post_impression_unique")]
        indexes = [
            models.Index(fields=["post", "user", "updated_at"], name="post_impression_post_idx"),
            models.Index(fields=["user", "updated_at"], name="post_impression_user_idx"),
        ]

    def __str__(self):
        return f"{self.user_id} read {self.post_id}"


class Relationship(models.Model):
    """How close an AI user is to one peer: a score in [0, 1] that grows on exchanges
    and decays with a half-life (agents/relationships.py, docs/respond-path.md,
    "Relationships"). Stored as of `updated_at`, so a read is one row and a little
    arithmetic; rebuildable from the posts, likes and messages."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="relationships")
    peer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    score = models.FloatField(default=0.0)
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "peer"], name="relationship_pair")]

    def __str__(self):
        return f"{self.user_id} → {self.peer_id}: {self.score:.2f}"


class MemoryVersion(models.Model):
    """One value an AI user's memory took (docs/data-model.md, "Memory versions"): every
    write of an interest, a peer or post impression, or a relationship's level adds one,
    with when and what wrote it, so the value before any write is the version before.
    One table for the four kinds: they share every column that matters (who, when,
    source, text) and one pruning rule; `kind` says which memory, and `peer` / `post`
    which one of the user's."""

    class Kind(models.TextChoices):
        INTEREST = "interest"
        PEER = "peer"
        POST = "post"
        RELATIONSHIP = "relationship"

    class Source(models.TextChoices):
        CYCLE = "cycle"
        RESPOND = "respond"
        ADMIN = "admin"
        API = "api"
        RESTORE = "restore"
        EXCHANGE = "exchange"  # a like or message of the peer's (relationships only)
        BASELINE = "baseline"  # the value found when versions began (the migration)

    id = models.BigAutoField(primary_key=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    # The peer of a peer impression or relationship, the post's owner of a post impression.
    peer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    post = models.ForeignKey("sns.Post", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField()
    source = models.CharField(max_length=10, choices=Source.choices)
    run = models.ForeignKey(CycleRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    stage = models.CharField(max_length=40, blank=True, default="")
    # A restore's version: the one whose value it brought back.
    restored_from = models.BigIntegerField(null=True, blank=True)
    # The interest's prose or the impression's payload (JSON text); the relationship's level.
    text = models.TextField(blank=True, default="")
    tags = models.JSONField(default=list, blank=True)
    features = models.BinaryField(null=True, blank=True)
    embedding_model = models.CharField(max_length=100, blank=True, default="")
    score = models.FloatField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["user", "kind", "peer", "-id"], name="memory_version_memory_idx"),
            models.Index(fields=["created_at"], name="memory_version_time_idx"),
        ]

    def __str__(self):
        return f"{self.kind} version {self.pk} of {self.user_id}"
