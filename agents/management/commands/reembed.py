"""`manage.py reembed [--batch N]`: bring every stored vector to the current embedding model.

Only rows whose `embedding_model` differs from the current model are touched, so an
interrupted run simply continues where it stopped. Each batch is embedded outside any
transaction, then each row is written only if its text has not changed meanwhile.

Post summaries are embedded from summary + keywords + snippet (summary-and-vectors
§1.4 step 8). The summary's AI keywords are stored only as hashes, so the keywords
here are the post's tags followed by its AI tags. Interests are embedded from interest
+ tags + introduction (docs/agent-cycle.md §7 step 7); the re-embedded interest vector starts
a fresh hysteresis history, since the old one lives in another model's space.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Prefetch
from django.utils import timezone

from agents.embeddings import embed_texts, model_name
from agents.embeddings.inputs import interest_embedding_input, post_embedding_input
from agents.llm.errors import LlmError
from agents.memory_versions import ADMIN, version_row, versions_add
from agents.models import AiPostTag, Interest, MemoryVersion, PostSummary
from agents.tags import normalize_keyword
from agents.vectors import encode_features
from sns.models import PostTag


def _post_keywords(summary: PostSummary) -> list[str]:
    post_tags = [normalize_keyword(t.name) for t in summary.post.tags.all()]
    ai_tags = [t.name for t in summary.post.ai_tags.all()]
    return [k for k in post_tags + ai_tags if k][: settings.STGY_AI_SUMMARY_MAX_KEYWORDS]


class Command(BaseCommand):
    help = "Re-embed post summaries and interests whose vectors were made by another embedding model."

    def add_arguments(self, parser):
        parser.add_argument("--batch", type=int, default=64, help="texts per embedding call (default 64)")

    def handle(self, *args, batch: int, **options):
        if batch < 1:
            raise CommandError("--batch must be at least 1")
        current = model_name()
        self.stdout.write(f"embedding model: {current}")
        try:
            posts = self._summaries(current, batch)
            interests = self._interests(current, batch)
        except LlmError as exc:
            raise CommandError(f"embedding failed, run again to resume: {exc}") from exc
        self.stdout.write(f"done: {posts} post summaries, {interests} interests re-embedded")

    def _progress(self, label: str, done: int, total: int, started: float) -> None:
        elapsed = max(time.monotonic() - started, 1e-6)
        self.stdout.write(f"{label}: {done}/{total} ({done / elapsed:.1f}/s)")

    def _in_batches(self, stale, key: str, batch: int, label: str, write) -> int:
        """Walk `stale` in `key` order, `batch` rows a page, each page after the last key
        seen: rows written leave `stale` and a row left unwritten (changed meanwhile) is
        not read again. `write(rows)` embeds and stores one page, answering how many rows
        it wrote."""
        total, done, last, started = stale.count(), 0, None, time.monotonic()
        page = stale.order_by(key)
        while True:
            rows = list((page.filter(**{f"{key}__gt": last}) if last is not None else page)[:batch])
            if not rows:
                return done
            last = getattr(rows[-1], key)
            done += write(rows)
            self._progress(label, done, total, started)

    def _summaries(self, current: str, batch: int) -> int:
        stale = (
            PostSummary.objects.filter(summary__isnull=False)
            .exclude(embedding_model=current)
            .select_related("post")
            .prefetch_related(
                Prefetch("post__tags", queryset=PostTag.objects.order_by("id")),
                Prefetch("post__ai_tags", queryset=AiPostTag.objects.order_by("name")),
            )
        )

        def write(rows) -> int:
            texts = [post_embedding_input(r.summary, _post_keywords(r), r.post.content) for r in rows]
            matrix, name = embed_texts(texts, stage="reembed")
            return sum(
                PostSummary.objects.filter(
                    post_id=row.post_id, summary=row.summary, source_updated_at=row.source_updated_at
                ).update(features=encode_features(vector), embedding_model=name)
                for row, vector in zip(rows, matrix)
            )

        return self._in_batches(stale, "post_id", batch, "post summaries", write)

    def _interests(self, current: str, batch: int) -> int:
        stale = Interest.objects.exclude(embedding_model=current).select_related("user")

        def write(rows) -> int:
            texts = [interest_embedding_input(r.interest, r.tags or [], r.user.introduction) for r in rows]
            matrix, name = embed_texts(texts, stage="reembed")
            versions = []
            for row, vector in zip(rows, matrix):
                features = encode_features(vector)
                if Interest.objects.filter(user_id=row.user_id, updated_at=row.updated_at).update(
                    features=features, embedding_model=name
                ):
                    # The vector is part of the interest: its new value is a version too.
                    versions.append(version_row(
                        row.user_id, MemoryVersion.Kind.INTEREST, ADMIN, at=timezone.now(), text=row.interest,
                        tags=row.tags or [], features=features, embedding_model=name,
                    ))
            versions_add(versions)
            return len(versions)

        return self._in_batches(stale, "user_id", batch, "interests", write)
