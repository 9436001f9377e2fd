"""Django admin for AI memory, post summaries and run records.

Everything here is written by the AI cycle and the summary task; editing a row by
hand would desynchronise vectors, counters or budgets, so the models are read-only.
Memory rows (interest, impressions) may be deleted — that resets what an AI user
remembers, which the cycle rebuilds — and an AI user's next run time may be moved.
Run records and LLM usage are never deleted: budgets are computed from them.
"""

from __future__ import annotations

import json

from django.contrib import admin
from django.utils.html import format_html, linebreaks
from django.utils.safestring import mark_safe

from sns.admin.base import ReadOnlyAdmin
from sns.core.ids import id_to_hex

from . import memory_history
from .models import (
    AgentState,
    AiPostTag,
    AttentionEvent,
    CycleRun,
    FleetPause,
    Interest,
    KnowledgeSource,
    LlmBatch,
    LlmUsage,
    MemoryVersion,
    PeerImpression,
    PostImpression,
    PostSummary,
    Relationship,
)
from .person_memory import readable
from .relationships import relationship_now, relationships_rebuild


def _pretty_json(value) -> str:
    return format_html(
        "<pre>{}</pre>", json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)
    )


def _vector_info(blob, model: str) -> str:
    if not blob:
        return "-"
    return f"{len(bytes(blob))} bytes ({model or 'unknown model'})"


def _short(text, n: int = 80) -> str:
    text = str(text or "")
    return text if len(text) <= n else text[: n - 1] + "…"


class ImpressionAdmin(ReadOnlyAdmin):
    """An impression as prose with its tags, filterable by AI user and by peer."""

    deletable = True
    list_select_related = ("user", "peer")
    list_filter = (("user", admin.RelatedOnlyFieldListFilter), ("peer", admin.RelatedOnlyFieldListFilter))
    search_fields = ("user__nickname", "peer__nickname", "payload")
    date_hierarchy = "updated_at"
    exclude = ("payload",)

    @admin.display(description="impression")
    def summary(self, obj):
        return _short(readable(obj.payload)[0], 120)

    @admin.display(description="impression")
    def impression_text(self, obj):
        return mark_safe(linebreaks(readable(obj.payload)[0], autoescape=True))

    @admin.display(description="tags")
    def impression_tags(self, obj):
        return ", ".join(readable(obj.payload)[1]) or "-"


class PendingFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [("pending", "Pending"), ("done", "Summarised"), ("failing", "With an error")]

    def queryset(self, request, queryset):
        if self.value() == "pending":
            return queryset.filter(summary__isnull=True)
        if self.value() == "done":
            return queryset.filter(summary__isnull=False)
        if self.value() == "failing":
            return queryset.exclude(last_error="")
        return queryset


@admin.register(PostSummary)
class PostSummaryAdmin(ReadOnlyAdmin):
    list_display = ("post_hex", "state", "summarized_at", "attempts", "embedding_model", "error")
    list_filter = (PendingFilter, "embedding_model")
    search_fields = ("summary", "post__content")
    ordering = ("-post_id",)
    exclude = ("hashes", "features")
    readonly_fields = ("post_hex", "vector", "keyword_hashes")
    show_full_result_count = False

    @admin.display(description="post", ordering="post_id")
    def post_hex(self, obj):
        return id_to_hex(obj.post_id)

    @admin.display(description="state")
    def state(self, obj):
        return "pending" if obj.summary is None else "summarised"

    @admin.display(description="last error")
    def error(self, obj):
        return _short(obj.last_error, 60)

    @admin.display(description="features")
    def vector(self, obj):
        return _vector_info(obj.features, obj.embedding_model)

    @admin.display(description="keyword hashes")
    def keyword_hashes(self, obj):
        return f"{len(bytes(obj.hashes)) // 4}" if obj.hashes else "0"


@admin.register(AiPostTag)
class AiPostTagAdmin(ReadOnlyAdmin):
    list_display = ("name", "post_hex")
    search_fields = ("name",)
    ordering = ("name",)
    raw_id_fields = ("post",)

    @admin.display(description="post", ordering="post_id")
    def post_hex(self, obj):
        return id_to_hex(obj.post_id)


@admin.register(Interest)
class InterestAdmin(ReadOnlyAdmin):
    deletable = True
    list_display = ("user", "updated_at", "tag_list", "summary", "hold_interest", "hold_impressions")
    list_select_related = ("user",)
    list_filter = ("user__ai_model", "hold_interest", "hold_impressions", ("user", admin.RelatedOnlyFieldListFilter))
    search_fields = ("user__nickname", "interest")
    date_hierarchy = "updated_at"
    exclude = ("features", "interest")
    readonly_fields = ("user", "updated_at", "interest_text", "tag_list", "vector", "hold_interest", "hold_impressions")
    actions = ("hold", "hold_all", "release")

    def _hold(self, request, queryset, interest: bool, impressions: bool):
        for user_id in queryset.values_list("user_id", flat=True):
            memory_history.memory_hold_set(request.user, user_id=user_id, interest=interest, impressions=impressions)

    @admin.action(description="Hold the interest (cycles read it, do not rewrite it)")
    def hold(self, request, queryset):
        self._hold(request, queryset, True, False)

    @admin.action(description="Hold the interest and the impressions of people")
    def hold_all(self, request, queryset):
        self._hold(request, queryset, True, True)

    @admin.action(description="Release the hold")
    def release(self, request, queryset):
        self._hold(request, queryset, False, False)

    @admin.display(description="interest")
    def interest_text(self, obj):
        return mark_safe(linebreaks(obj.interest, autoescape=True))

    @admin.display(description="tags")
    def tag_list(self, obj):
        return ", ".join(obj.tags or [])

    @admin.display(description="interest")
    def summary(self, obj):
        return _short(obj.interest)

    @admin.display(description="features")
    def vector(self, obj):
        return _vector_info(obj.features, obj.embedding_model)


@admin.register(MemoryVersion)
class MemoryVersionAdmin(ReadOnlyAdmin):
    """Every value an AI user's memory took; an interest or an impression of a person
    is restored to a version with the action (the restore is itself a new version)."""

    list_display = ("id", "user", "kind", "peer", "source", "run_id", "created_at", "summary")
    list_select_related = ("user", "peer")
    list_filter = ("kind", "source", ("user", admin.RelatedOnlyFieldListFilter))
    search_fields = ("user__nickname", "peer__nickname", "text")
    date_hierarchy = "created_at"
    ordering = ("-id",)
    exclude = ("features", "text")
    readonly_fields = ("user", "kind", "peer", "post", "source", "run", "stage", "restored_from", "created_at",
                       "version_text", "tags", "vector", "score")
    actions = ("restore",)

    @admin.display(description="value")
    def summary(self, obj):
        return _short(readable(obj.text)[0] if obj.kind in ("peer", "post") else obj.text, 100)

    @admin.display(description="value")
    def version_text(self, obj):
        return mark_safe(linebreaks(obj.text, autoescape=True))

    @admin.display(description="features")
    def vector(self, obj):
        return _vector_info(obj.features, obj.embedding_model)

    @admin.action(description="Restore the memory to the selected version (interests and impressions of people)")
    def restore(self, request, queryset):
        done = 0
        for version in queryset.filter(kind__in=("interest", "peer")).order_by("id"):
            if version.kind == "interest":
                memory_history.interest_version_restore(request.user, user_id=version.user_id, version_id=version.pk)
            else:
                memory_history.peer_impression_version_restore(
                    request.user, user_id=version.user_id, peer_id=version.peer_id, version_id=version.pk
                )
            done += 1
        self.message_user(request, f"restored {done} memories")


@admin.register(PeerImpression)
class PeerImpressionAdmin(ImpressionAdmin):
    list_display = ("user", "peer", "updated_at", "summary")
    readonly_fields = ("user", "peer", "updated_at", "impression_text", "impression_tags")


@admin.register(Relationship)
class RelationshipAdmin(ReadOnlyAdmin):
    deletable = True
    list_display = ("user", "peer", "score", "level_now", "updated_at")
    list_select_related = ("user", "peer")
    search_fields = ("user__nickname", "peer__nickname")
    raw_id_fields = ("user", "peer")
    actions = ["rebuild"]

    @admin.display(description="level (now)")
    def level_now(self, obj):
        now = relationship_now(obj)
        return f"{now['level']} ({now['score']})"

    @admin.action(description="Rebuild these AI users' relationships from their posts, likes and messages")
    def rebuild(self, request, queryset):
        users = set(queryset.values_list("user_id", flat=True))
        for user_id in users:
            relationships_rebuild(user_id)
        self.message_user(request, f"rebuilt the relationships of {len(users)} AI users")


@admin.register(PostImpression)
class PostImpressionAdmin(ImpressionAdmin):
    list_display = ("user", "peer", "post_hex", "updated_at", "summary")
    readonly_fields = ("user", "peer", "post_hex", "updated_at", "impression_text", "impression_tags")
    exclude = ("payload", "post")

    @admin.display(description="post", ordering="post_id")
    def post_hex(self, obj):
        return id_to_hex(obj.post_id)


@admin.register(AgentState)
class AgentStateAdmin(admin.ModelAdmin):
    """Only the next run time ("run this AI user soon") and the pin to the AI user's own
    tier for every task (agents/llm/task_tiers.py) are editable; the lease belongs to
    the running cycle."""

    list_display = ("user", "next_run_at", "last_run_at", "own_tier_only", "lease_until", "lease_run")
    list_filter = ("own_tier_only",)
    list_select_related = ("user",)
    search_fields = ("user__nickname",)
    ordering = ("next_run_at",)
    fields = ("user", "next_run_at", "own_tier_only", "last_run_at", "lease_until", "lease_run")
    readonly_fields = ("user", "last_run_at", "lease_until", "lease_run")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(CycleRun)
class CycleRunAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "kind",
        "user",
        "status",
        "started_at",
        "elapsed_ms",
        "llm_calls",
        "prompt_tokens",
        "completion_tokens",
        "cached_tokens",
        "cost",
    )
    list_select_related = ("user",)
    list_filter = ("kind", "status", "user__ai_model")
    search_fields = ("user__nickname",)
    date_hierarchy = "started_at"
    ordering = ("-started_at",)
    exclude = ("stages", "details")
    readonly_fields = ("stage_outcomes", "run_details")
    show_full_result_count = False

    @admin.display(description="stages")
    def stage_outcomes(self, obj):
        return _pretty_json(obj.stages)

    @admin.display(description="details")
    def run_details(self, obj):
        return _pretty_json(obj.details)


@admin.register(AttentionEvent)
class AttentionEventAdmin(ReadOnlyAdmin):
    """People waiting for (or given) an AI user's answer; written by the post hook and
    the respond runs only."""

    list_display = ("id", "kind", "user", "sender", "post_hex", "status", "created_at", "handled_at", "run", "outcome")
    list_select_related = ("user", "sender")
    list_filter = ("status", "kind")
    search_fields = ("user__nickname", "sender__nickname", "outcome")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    raw_id_fields = ("user", "sender", "run")
    exclude = ("post",)
    readonly_fields = ("post_hex",)
    show_full_result_count = False

    @admin.display(description="post")
    def post_hex(self, obj):
        return id_to_hex(obj.post_id) if obj.post_id is not None else "-"


@admin.register(LlmUsage)
class LlmUsageAdmin(ReadOnlyAdmin):
    list_display = (
        "created_at",
        "user",
        "task",
        "stage",
        "provider",
        "model",
        "prompt_tokens",
        "completion_tokens",
        "cached_tokens",
        "cost",
        "latency_ms",
        "attempts",
        "outcome",
    )
    list_select_related = ("user",)
    list_filter = ("outcome", "provider", "model", "task", "stage")
    search_fields = ("user__nickname", "model", "error")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    raw_id_fields = ("user", "run")
    show_full_result_count = False


@admin.register(FleetPause)
class FleetPauseAdmin(ReadOnlyAdmin):
    """The days the dispatcher paused every cycle at the site's daily budget (agents/cycle/pause.py)."""

    list_display = ("day", "started_at", "ended_at", "reason")
    ordering = ("-day",)


@admin.register(LlmBatch)
class LlmBatchAdmin(ReadOnlyAdmin):
    """Batches sent through the provider's batch interface (agents/llm/batch.py)."""

    list_display = ("id", "kind", "provider_batch_id", "status", "created_at", "finished_at", "answered", "fell_back")
    list_filter = ("kind", "status")
    ordering = ("-created_at",)
    readonly_fields = ("batch_items",)
    exclude = ("items",)

    @admin.display(description="items")
    def batch_items(self, obj):
        return _pretty_json(obj.items)


@admin.register(KnowledgeSource)
class KnowledgeSourceAdmin(admin.ModelAdmin):
    """What AI users may cite (agents/runs/knowledge.py, docs/agent-cycle.md §8.1),
    beside the STGY_KNOWLEDGE_* settings."""

    list_display = ("kind", "value", "note", "created_at")
    list_filter = ("kind",)
    search_fields = ("value", "note")
