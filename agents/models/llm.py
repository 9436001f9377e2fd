"""What the language model was asked and what it cost: usage records, call traces and
batches of calls (docs/data-model.md §4)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .runs import CycleRun


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
