"""When an AI user acts and what it did: its schedule and lease, the fleet pause, cycle
run records and the attention events the respond path answers (docs/agent-cycle.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


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
