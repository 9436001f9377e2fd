"""AI memory, post summaries, run records and LLM usage (docs/data-model.md §4).

Payloads of impressions are JSON text, opaque to the API as in the original; the
cycle writes them with fixed key order.
"""

from __future__ import annotations

from django.conf import settings
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


class AgentState(models.Model):
    """Scheduling state of one AI user: when it is due, and a lease so two cycles of
    the same user never overlap (the lease expires if a worker dies)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="agent_state"
    )
    next_run_at = models.DateTimeField()
    last_run_at = models.DateTimeField(null=True, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    lease_run = models.BigIntegerField(null=True, blank=True)
    # The respond path's own lease (docs/respond-path.md): one respond run per user at a
    # time, beside (never blocked by) a running cycle.
    respond_lease_until = models.DateTimeField(null=True, blank=True)
    respond_lease_run = models.BigIntegerField(null=True, blank=True)
    # Set by an admin: every task of this AI user runs on its own tier, judging included
    # (agents/llm/task_tiers.py).
    own_tier_only = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["next_run_at"], name="agent_state_due_idx")]

    def __str__(self):
        return f"schedule of {self.user_id}"


class LlmBatch(models.Model):
    """One batch of model calls sent through the provider's batch interface
    (agents/llm/batch.py): what it asked (`items`: custom id -> what the answer is for),
    how it ended, and how many items fell back to direct calls."""

    class Status(models.TextChoices):
        SUBMITTED = "submitted"
        COMPLETED = "completed"
        FAILED = "failed"
        EXPIRED = "expired"
        CANCELLED = "cancelled"

    kind = models.CharField(max_length=20)
    created_at = models.DateTimeField()
    provider_batch_id = models.CharField(max_length=100)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SUBMITTED)
    items = models.JSONField(default=dict)
    finished_at = models.DateTimeField(null=True, blank=True)
    answered = models.IntegerField(default=0)
    fell_back = models.IntegerField(default=0)
    error = models.TextField(blank=True, default="")

    class Meta:
        indexes = [models.Index(fields=["status", "created_at"], name="llm_batch_status_idx")]

    def __str__(self):
        return f"{self.kind} batch {self.provider_batch_id} ({self.status})"


class FleetPause(models.Model):
    """A UTC day on which the dispatcher stopped starting cycles because the site's
    daily budget was used up (agents/cycle/pause.py): when, why, and when it resumed
    (the next day, or sooner if the budget was raised). One row a day."""

    day = models.DateField(unique=True)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=200)

    def __str__(self):
        return f"fleet paused on {self.day}: {self.reason}"


class CycleRun(models.Model):
    """One run record: a whole cycle, or one respond run (docs/respond-path.md). Both
    kinds share the usage rows, budgets, the activity page and the admin."""

    class Status(models.TextChoices):
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    class Kind(models.TextChoices):
        CYCLE = "cycle"
        RESPOND = "respond"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="cycle_runs")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.CYCLE)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    # {stage: {"outcome": "ok"|"skipped"|"failed", "ms": int, "error": str, ...}}
    stages = models.JSONField(default=dict)
    # Inputs and decisions: candidates, reads, likes, replies, follows, interest before/after.
    details = models.JSONField(default=dict)
    llm_calls = models.IntegerField(default=0)
    prompt_tokens = models.IntegerField(default=0)
    completion_tokens = models.IntegerField(default=0)
    cached_tokens = models.IntegerField(default=0)
    cost = models.DecimalField(max_digits=12, decimal_places=6, default=0)
    elapsed_ms = models.IntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(fields=["user", "-started_at"], name="cycle_run_user_idx"),
            models.Index(fields=["-started_at"], name="cycle_run_time_idx"),
        ]

    def __str__(self):
        return f"{self.kind} run {self.pk} of {self.user_id}"


class AttentionEvent(models.Model):
    """Someone turned to an AI user (a reply to its post, a mention, a direct message)
    and is owed an answer by the respond path, not by the next cycle.

    Unique per (AI user, kind, post) and (AI user, kind, message): a redelivered hook or
    task cannot record it twice.
    `post` has no database constraint so that the event outlives a deleted post and the
    run can record why it did not answer."""

    class Kind(models.TextChoices):
        REPLY = "reply"
        MESSAGE = "message"
        MENTION = "mention"

    class Status(models.TextChoices):
        PENDING = "pending"
        CLAIMED = "claimed"  # taken by a respond run that has not finished with it
        ANSWERED = "answered"
        REFUSED = "refused"
        FAILED = "failed"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="attention_events")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    post = models.ForeignKey(
        "sns.Post", on_delete=models.DO_NOTHING, db_constraint=False, null=True, blank=True, related_name="+"
    )
    # A direct message to the AI user (kind "message"); like `post`, no database
    # constraint, so the event outlives a deleted conversation.
    message = models.ForeignKey(
        "sns.Message", on_delete=models.DO_NOTHING, db_constraint=False, null=True, blank=True, related_name="+"
    )
    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    handled_at = models.DateTimeField(null=True, blank=True)
    run = models.ForeignKey(CycleRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="events")
    # Why it was refused or failed (the gate, the parse error), or the answer's id.
    outcome = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "post"], name="attention_event_unique"),
            models.UniqueConstraint(fields=["user", "kind", "message"], name="attention_event_message_unique"),
        ]
        indexes = [
            models.Index(fields=["user", "status", "created_at"], name="attention_event_queue_idx"),
            models.Index(fields=["status", "handled_at"], name="attention_event_handled_idx"),
        ]

    def __str__(self):
        return f"{self.kind} to {self.user_id} ({self.status})"


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


class LlmUsage(models.Model):
    class Outcome(models.TextChoices):
        OK = "ok"
        ERROR = "error"
        REFUSED = "refused"

    created_at = models.DateTimeField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    run = models.ForeignKey(CycleRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="usages")
    stage = models.CharField(max_length=40, blank=True, default="")
    task = models.CharField(max_length=40, blank=True, default="")
    provider = models.CharField(max_length=20)
    model = models.CharField(max_length=100)
    prompt_tokens = models.IntegerField(default=0)
    completion_tokens = models.IntegerField(default=0)
    cached_tokens = models.IntegerField(default=0)
    cost = models.DecimalField(max_digits=12, decimal_places=6, default=0)
    latency_ms = models.IntegerField(default=0)
    attempts = models.IntegerField(default=1)
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    error = models.TextField(blank=True, default="")

    class Meta:
        indexes = [
            models.Index(fields=["created_at"], name="llm_usage_time_idx"),
            models.Index(fields=["user", "created_at"], name="llm_usage_user_idx"),
        ]

    def __str__(self):
        return f"{self.task} {self.model} {self.outcome}"


class LlmCallTrace(models.Model):
    """What one model call was shown (agents/llm/trace.py, docs/prompts.md §5): the
    exact messages sent and the raw answer, zlib-compressed JSON, with the layers the
    prompt builder reported, and an admin's replay of the call. Kept for
    STGY_AI_TRACE_RETENTION_DAYS (the beat task agents.prune_call_traces)."""

    class Replay(models.TextChoices):
        NONE = ""
        PENDING = "pending"
        DONE = "done"
        FAILED = "failed"

    created_at = models.DateTimeField()
    run = models.ForeignKey(CycleRun, on_delete=models.CASCADE, null=True, blank=True, related_name="call_traces")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    stage = models.CharField(max_length=40, blank=True, default="")
    task = models.CharField(max_length=40, blank=True, default="")
    tier = models.CharField(max_length=20, blank=True, default="")
    provider = models.CharField(max_length=20)
    model = models.CharField(max_length=100)
    json_mode = models.BooleanField(default=False)
    outcome = models.CharField(max_length=10)
    error = models.TextField(blank=True, default="")
    # zlib(JSON {"messages": [{"role", "content"}], "answer": str}).
    payload = models.BinaryField()
    # [{"kind", "name", "bytes", "spans": [[message, start, end], ...]}], in prompt order.
    layers = models.JSONField(default=list)
    prompt_bytes = models.IntegerField(default=0)
    # Bytes of the messages that no layer covers: text that escaped the prompt builder.
    unaccounted_bytes = models.IntegerField(default=0)
    replay_status = models.CharField(max_length=10, choices=Replay.choices, blank=True, default="")
    replay_model = models.CharField(max_length=100, blank=True, default="")
    replay_answer = models.TextField(blank=True, default="")
    replay_error = models.TextField(blank=True, default="")
    replay_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["created_at"], name="llm_trace_time_idx")]

    def __str__(self):
        return f"trace of {self.task} {self.model} ({self.outcome})"


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
