"""Summarising one post: summary, AI tags, keyword hashes and feature vector
(docs/summaries-and-vectors.md §1.4).

The model and the embedder are called outside any transaction; the result is written
by a conditional update that only matches the content version that was summarised
(`source_updated_at`). Zero rows means the post was edited (or deleted) meanwhile: the
stale result is thrown away and the post is queued again.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import F

from sns.models import AiTier, Post

from ..embeddings import embed_features, model_name
from ..embeddings.inputs import post_embedding_input
from ..llm import gateway
from ..llm.errors import LlmDisabled, LlmError, LlmTransientError, LlmUnavailable
from ..llm.parsing import parse_summary
from ..llm.task_tiers import task_tier
from ..models import AiPostTag, PostSummary
from ..prompt_text import post_prompt_text
from ..prompts import SUMMARY_TASK, is_cjk, summary_prompt
from ..runner import submit_task
from ..tags import normalize_keyword
from ..textmeasure import len16, truncate_pt
from .store import summary_store_features, summary_store_version

log = logging.getLogger(__name__)

SHORT_POST_FACTOR = 1.2
_ERROR_LIMIT = 2000


@dataclass(frozen=True)
class SummaryRequest:
    """What the model is asked, derived from the post alone (deterministic)."""

    locale: str
    payload: dict[str, Any]
    max_chars: int | float
    tag_chars: int | float
    tag_num: int


@dataclass(frozen=True)
class SummaryResult:
    summary: str
    tags: list[str]
    keywords: list[str]
    features: bytes
    embedding_model: str


def _whole(value: float) -> float:
    return int(value) if float(value).is_integer() else value


def summary_lengths(text: str, locale: str) -> tuple[int | float, int | float]:
    """MAX_CHARS and TAG_CHARS: halved for CJK (no rounding, as the original), and the
    short-post rule so a three-line post does not get a 1000-character summary."""
    max_chars: int | float = settings.STGY_AI_SUMMARY_SUMMARY_LENGTH
    tag_chars: int | float = settings.STGY_AI_TAG_MAX_LENGTH
    if is_cjk(locale):
        max_chars, tag_chars = max_chars * 0.5, tag_chars * 0.5
    length = len16(text)
    if length < max_chars * SHORT_POST_FACTOR:
        max_chars = math.ceil(max(length * 0.8, max_chars / 4) / 10) * 10
    return _whole(max_chars), _whole(tag_chars)


def summary_request(post: Post) -> SummaryRequest:
    locale = post.locale or post.owner.locale or "en"
    text = post_prompt_text(post.content, settings.STGY_AI_SUMMARY_POST_TEXT_LIMIT)
    max_chars, tag_chars = summary_lengths(text, locale)
    return SummaryRequest(
        locale=locale,
        payload={"locale": locale, "author": post.owner.nickname, "content": text},
        max_chars=max_chars,
        tag_chars=tag_chars,
        tag_num=settings.STGY_AI_TAG_MAX_COUNT,
    )


def _summary_model() -> dict[str, str]:
    # STGY_AI_SUMMARY_MODEL names a tier or, failing that, a model; empty (the default),
    # the tier the cascade gives judging tasks (agents/llm/task_tiers.py).
    name = (settings.STGY_AI_SUMMARY_MODEL or "").strip()
    if not name:
        return {"tier": task_tier(SUMMARY_TASK, None)}
    return {"tier": name} if name in AiTier.values else {"model": name}


def summary_call(post: Post) -> dict[str, Any]:
    """The model call that summarises `post`: the arguments of `gateway.chat` (the batch
    path, agents/summaries/batch.py, sends the same request in a batch)."""
    req = summary_request(post)
    prompt = summary_prompt(
        locale=req.locale,
        payload=req.payload,
        max_chars=req.max_chars,
        tag_chars=req.tag_chars,
        tag_num=req.tag_num,
    )
    return dict(
        messages=prompt.messages,
        spans=prompt.spans,
        task=SUMMARY_TASK,
        locale=req.locale,
        # JSON mode, as every task that expects JSON: a model that otherwise answers in
        # prose would leave every post unsummarised, and AI users read only summarised
        # posts (docs/differences.md item 29).
        json_mode=True,
        inputs={
            "payload": req.payload,
            "max_chars": req.max_chars,
            "tag_chars": req.tag_chars,
            "tag_num": req.tag_num,
        },
        stage="summary",
        **_summary_model(),
    )


def summary_compute(post: Post) -> SummaryResult:
    """Ask the model and the embedder; no database writes. Raises on any failure."""
    response = gateway.chat(**summary_call(post))
    return summary_from_answer(post, response.content)


def summary_from_answer(post: Post, content: str) -> SummaryResult:
    """The model's answer parsed, the keywords made and the vector embedded; no database
    writes. Raises on any failure."""
    parsed = parse_summary(content, settings.STGY_AI_TAG_MAX_COUNT)
    summary = truncate_pt(parsed["summary"], settings.STGY_AI_SUMMARY_SUMMARY_TEXT_LIMIT)
    author_tags = [t for t in (normalize_keyword(tag.name) for tag in post.tags.all()) if t]
    keywords = (author_tags + parsed["tags"] + parsed["keywords"])[
        : settings.STGY_AI_SUMMARY_MAX_KEYWORDS
    ]
    features, embedding_model = embed_features(
        post_embedding_input(summary, keywords, post.content)
    )
    if not features:
        raise LlmError("the embedder returned no features")
    return SummaryResult(summary, parsed["tags"], keywords, features, embedding_model)


def reembed_compute(row: PostSummary) -> tuple[bytes, str]:
    """A new vector for a summary made under another embedding model, without asking
    the model again. The AI keywords survive only as hashes, so the keywords are the
    author tags then the AI tags (as `manage.py reembed` does)."""
    post = row.post
    author_tags = [normalize_keyword(tag.name) for tag in post.tags.all()]
    ai_tags = list(
        AiPostTag.objects.filter(post_id=row.post_id)
        .order_by("name")
        .values_list("name", flat=True)
    )
    keywords = [k for k in author_tags + ai_tags if k][: settings.STGY_AI_SUMMARY_MAX_KEYWORDS]
    features, embedding_model = embed_features(
        post_embedding_input(row.summary, keywords, post.content)
    )
    if not features:
        raise LlmError("the embedder returned no features")
    return features, embedding_model


def _record_failure(post_id: int, version, exc: Exception) -> None:
    message = f"{type(exc).__name__}: {exc}"[:_ERROR_LIMIT]
    PostSummary.objects.filter(post_id=post_id, source_updated_at=version).update(
        attempts=F("attempts") + 1, last_error=message
    )


def _load_row(post_id: int) -> PostSummary | None:
    row = PostSummary.objects.select_related("post__owner").filter(post_id=post_id).first()
    if row is not None:
        return row
    # Every post gets its row in its own transaction; this only covers rows lost to
    # manual surgery, so `summarize POST_ID` can always repair a post.
    post = Post.objects.filter(pk=post_id).first()
    if post is None:
        return None
    PostSummary.objects.get_or_create(
        post=post, defaults={"source_updated_at": post.updated_at or post.created_at}
    )
    return PostSummary.objects.select_related("post__owner").filter(post_id=post_id).first()


def _record_outage(post_id: int, version, exc: Exception) -> None:
    """The model is down for everyone, not unable to summarise this post: the error is
    shown but the attempt is not counted, so the post keeps its place in the sweep."""
    message = f"{type(exc).__name__}: {exc}"[:_ERROR_LIMIT]
    PostSummary.objects.filter(post_id=post_id, source_updated_at=version).update(
        last_error=message
    )


def summary_store(post_id: int, version, result: SummaryResult) -> bool:
    """Store a computed summary if the post's content is still the version summarised."""
    return summary_store_version(
        post_id,
        version,
        summary=result.summary,
        tags=result.tags,
        keywords=result.keywords,
        features=result.features,
        embedding_model=result.embedding_model,
    )


def summary_failed(post_id: int, version, exc: Exception) -> None:
    """Record that summarising this version failed (parse errors, refused requests)."""
    _record_failure(post_id, version, exc)
    level = logging.WARNING if isinstance(exc, (LlmError, ValueError)) else logging.ERROR
    log.log(level, "summary of post %s failed: %s", post_id, exc, exc_info=level >= logging.ERROR)


def summary_generate(post_id: int, *, force: bool = False) -> str:
    """Summarise one post and store the result if its content has not moved on.

    Returns the outcome: "stored", "reembedded" (the summary stood, only its vector was
    of another embedding model), "done" (nothing to do), "stale" (edited meanwhile;
    queued again), "missing", "disabled", "unavailable" (the circuit breaker refused
    the call; the sweep queues the post again once it closes) or "failed". A transient
    failure is recorded and re-raised so the task can retry. `force` re-summarises a
    summarised post.
    """
    if not gateway.ai_enabled():
        return "disabled"
    row = _load_row(post_id)
    if row is None:
        return "missing"
    reembed_only = not force and row.summary is not None
    if reembed_only and row.embedding_model == model_name():
        return "done"
    version = row.source_updated_at
    try:
        if reembed_only:
            features, embedding_model = reembed_compute(row)
        else:
            result = summary_compute(row.post)
    except LlmDisabled:
        return "disabled"
    except LlmUnavailable as exc:
        _record_outage(post_id, version, exc)
        log.info("summary of post %s put off: %s", post_id, exc)
        return "unavailable"
    except LlmTransientError as exc:
        _record_failure(post_id, version, exc)
        raise
    except Exception as exc:
        # Any other error fails this post only: parse errors, refused requests, budgets.
        summary_failed(post_id, version, exc)
        return "failed"
    if reembed_only:
        stored = summary_store_features(
            post_id, version, features=features, embedding_model=embedding_model
        )
    else:
        stored = summary_store(post_id, version, result)
    if stored:
        return "reembedded" if reembed_only else "stored"
    if not PostSummary.objects.filter(post_id=post_id).exists():
        return "missing"
    from ..tasks import summarize_post

    log.info("post %s changed while being summarised; queued again", post_id)
    submit_task(summarize_post, post_id)
    return "stale"
