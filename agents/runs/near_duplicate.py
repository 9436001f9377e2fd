"""Near-duplicates by meaning: before an AI user's root post, reply or message is
written, it is compared with what the same AI user and the fleet wrote lately, and
refused (a recorded verdict, never an error) when it says the same again
(docs/agent-cycle.md §8, docs/respond-path.md "Near-duplicates").

Two measures, each with its threshold in settings:
- sentences: the share of the text's normalised sentences (agents/recent_texts.py: a
  title line counts as one) that an AI user wrote lately, at or over
  STGY_AI_NEAR_DUPLICATE_SENTENCE_SHARE;
- meaning: the cosine of the text's embedding (the site's embedder, agents/embeddings/)
  with the nearest recent text's, at or over STGY_AI_NEAR_DUPLICATE_SIMILARITY. The raw
  cosine, not the cycle's calibrated scale: that maps topic-level similarity between
  models, while at the top of the scale every model agrees (a copy is 1; a reworded
  copy 0.94 with the hash embedder, posts of the stand-in's frames on other topics 0.8).

"Lately" is the AI user's newest posts and messages and the fleet's newest posts
(STGY_AI_NEAR_DUPLICATE_OWN / _FLEET of each). The recent texts' vectors are kept in the
cache under the text's id and the embedder's name, so each is embedded once; a write
embeds one text. When the embedder fails, the sentence measure still decides.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import numpy as np
from django.conf import settings
from django.core.cache import cache
from django.db.models import CharField, Value

from agents.embeddings import embed_texts
from agents.llm.errors import LlmError
from agents.recent_texts import sentence_keys, strip_markers
from agents.vectors import decode_features, encode_features
from sns.models import Post
from sns.models.messages import Message
from sns.selectors.paging import union_all

log = logging.getLogger(__name__)

_CACHE_SECONDS = 24 * 3600


@dataclass
class _Text:
    key: str  # "p<id>" or "m<id>", for the cache
    content: str


@dataclass
class RecentWrites:
    """What an AI user and the fleet wrote lately, loaded once for a stage or a respond
    run; `add` what was written so the next write of the same run is compared with it."""

    user_id: int
    texts: list[_Text] = field(default_factory=list)
    sentences: set[str] = field(default_factory=set)
    _loaded: bool = False
    _vectors: np.ndarray | None = None
    _model: str = ""

    @classmethod
    def load(cls, user_id: int) -> RecentWrites:
        recent = cls(user_id=user_id)
        recent._load()
        return recent

    def _load(self) -> None:
        self._loaded = True
        user_id = self.user_id
        own, fleet = settings.STGY_AI_NEAR_DUPLICATE_OWN, settings.STGY_AI_NEAR_DUPLICATE_FLEET
        texts: dict[str, str] = {}
        # Bounded reads by index, tagged by kind: the fleet's posts (the user's among
        # them), the user's own posts and its messages; one UNION ALL on PostgreSQL.
        post, message = Value("p", output_field=CharField()), Value("m", output_field=CharField())
        fleet_posts = Post.objects.filter(owner__ai_model__isnull=False).annotate(kind=post)
        own_posts = Post.objects.filter(owner_id=user_id).annotate(kind=post)
        own_messages = Message.objects.filter(sender_id=user_id).annotate(kind=message)
        parts = [q.order_by("-id").values_list("kind", "id", "content") for q in (fleet_posts, own_posts, own_messages)]
        rows = union_all(parts[0][:fleet], parts[1][:own], parts[2][:own])
        for kind, pk, content in rows:
            texts[f"{kind}{pk}"] = content
        for key, content in texts.items():
            self._remember(key, content)

    def _remember(self, key: str, content: str) -> None:
        self.texts.append(_Text(key, content))
        self.sentences.update(sentence_keys(content, skip_title=False))
        self._vectors = None

    def add(self, key: str, content: str) -> None:
        if self._loaded:
            self._remember(key, content)

    def refusal(self, content: str, *, run_id: int | None = None, stage: str = "") -> str | None:
        """Why `content` must not be written, or None (read on first use: a run that
        writes nothing reads nothing)."""
        if not self._loaded:
            self._load()
        keys = sentence_keys(content, skip_title=False)
        repeated = sum(1 for k in keys if k in self.sentences)
        share = settings.STGY_AI_NEAR_DUPLICATE_SENTENCE_SHARE
        if keys and repeated / len(keys) >= share:
            return f"{repeated} of its {len(keys)} sentences were written lately by AI users (limit {share:.0%})"
        threshold = settings.STGY_AI_NEAR_DUPLICATE_SIMILARITY
        if threshold > 1 or not self.texts:
            return None
        try:
            similarity = self._nearest(content, run_id=run_id, stage=stage)
        except LlmError as exc:
            log.warning("near-duplicate check without vectors: %s", exc)
            return None
        if similarity >= threshold:
            return f"similarity {similarity:.2f} to a recent AI text (limit {threshold:.2f})"
        return None

    def _nearest(self, content: str, *, run_id: int | None, stage: str) -> float:
        matrix, model = embed_texts(
            [strip_markers(content)], user_id=self.user_id, run_id=run_id, stage=stage
        )
        vectors = self._recent_vectors(model, run_id=run_id, stage=stage)
        if vectors.shape[0] == 0:
            return 0.0
        v = matrix[0] / (np.linalg.norm(matrix[0]) or 1.0)
        norms = np.linalg.norm(vectors, axis=1)
        norms[norms == 0] = 1.0
        return float(np.max(vectors @ v / norms))

    def _recent_vectors(self, model: str, *, run_id: int | None, stage: str) -> np.ndarray:
        if self._vectors is not None and self._model == model:
            return self._vectors
        keys = {t.key: f"neardup:{model}:{t.key}" for t in self.texts}
        stored = cache.get_many(list(keys.values()))
        missing = [t for t in self.texts if keys[t.key] not in stored]
        if missing:
            matrix, _ = embed_texts(
                [strip_markers(t.content) for t in missing],
                user_id=self.user_id,
                run_id=run_id,
                stage=stage,
            )
            fresh = {keys[t.key]: encode_features(row) for t, row in zip(missing, matrix)}
            cache.set_many(fresh, _CACHE_SECONDS)
            stored.update(fresh)
        self._vectors = np.stack([decode_features(stored[keys[t.key]]) for t in self.texts])
        self._model = model
        return self._vectors
