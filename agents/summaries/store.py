"""Writes and reads of post summaries: the summariser's conditional store, the admin
`PUT /ai-posts/{id}`, and the list/detail selectors of `/ai-posts`.

Tags and keywords get the server rules of `PUT /ai-posts/{id}` (summary-and-vectors
§5.2: lower-case, NFC, folded whitespace, de-duplicated); keywords are stored only as
FNV-1a hashes (§6). AI tags are replaced wholesale with every summary.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from sns.core.errors import InvalidInput, NotFound
from sns.models import Post
from sns.reads.access import access_admin, access_writable
from sns.selectors import Page

from ..keyword_hash import fnv1a32, pack_hashes
from ..models import AiPostTag, PostSummary
from ..tags import TAG_MAX_LEN, normalize_tag_list

UNSET = object()


def keyword_hashes(keywords: list[str]) -> bytes | None:
    """Packed hashes of normalised keywords; an empty list is stored as NULL."""
    names = normalize_tag_list(keywords)
    return pack_hashes(fnv1a32(k) for k in names) if names else None


def _replace_ai_tags(post_id: int, names: list[str]) -> None:
    AiPostTag.objects.filter(post_id=post_id).delete()
    AiPostTag.objects.bulk_create([AiPostTag(post_id=post_id, name=name) for name in names])


def summary_store_version(
    post_id: int,
    version: datetime,
    *,
    summary: str,
    tags: list[str],
    keywords: list[str],
    features: bytes,
    embedding_model: str,
) -> bool:
    """Store a summary only if the post is still at content `version`.

    False when the row has moved on (edited) or is gone (deleted). The update locks the
    row, so an edit committing meanwhile waits and then clears what we wrote.
    """
    # Our fix (docs/differences.md item 10): cut to the column instead of failing the write.
    names = [name[:TAG_MAX_LEN].strip() for name in normalize_tag_list(tags)]
    names = list(dict.fromkeys(name for name in names if name))
    with transaction.atomic():
        updated = PostSummary.objects.filter(post_id=post_id, source_updated_at=version).update(
            summary=summary,
            hashes=keyword_hashes(keywords),
            features=features,
            embedding_model=embedding_model,
            summarized_at=timezone.now(),
            last_error="",
        )
        if not updated:
            return False
        _replace_ai_tags(post_id, names)
    return True


def summary_store_features(
    post_id: int, version: datetime, *, features: bytes, embedding_model: str
) -> bool:
    """Replace only the vector of a summarised post still at content `version`."""
    updated = PostSummary.objects.filter(
        post_id=post_id, source_updated_at=version, summary__isnull=False
    ).update(features=features, embedding_model=embedding_model)
    return bool(updated)


def _string_list(value, name: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InvalidInput(f"{name} must be an array of strings")
    return normalize_tag_list(value)


def summary_put(actor, post_id: int, *, summary=UNSET, features=UNSET, tags=UNSET, keywords=UNSET):
    """Admin write of `PUT /ai-posts/{id}`; only the given fields change and
    `source_updated_at` stays (the external summariser of the original uses this).

    `features` are raw bytes (already decoded from base64) or None; they are taken to
    be of the site's current embedding model, the only one the API hands out.
    """
    access_writable(actor)
    access_admin(actor)
    from ..embeddings import model_name

    if summary is not UNSET and summary is not None and not isinstance(summary, str):
        raise InvalidInput("summary must be a string or null")
    names = _string_list(tags, "tags") if tags is not UNSET else None
    if names is not None and any(len(name) > TAG_MAX_LEN for name in names):
        raise InvalidInput("tag is too long")
    changes: dict = {}
    if summary is not UNSET:
        changes["summary"] = summary
        changes["summarized_at"] = timezone.now() if summary is not None else None
    if features is not UNSET:
        changes["features"] = features
        changes["embedding_model"] = model_name() if features is not None else ""
    if keywords is not UNSET:
        changes["hashes"] = keyword_hashes(_string_list(keywords, "keywords"))
    with transaction.atomic():
        post = Post.objects.filter(pk=post_id).first()
        if post is None:
            raise InvalidInput("post not found")
        row, _ = PostSummary.objects.select_for_update().get_or_create(
            post=post, defaults={"source_updated_at": post.updated_at or post.created_at}
        )
        if changes:
            PostSummary.objects.filter(pk=row.pk).update(**changes)
        if names is not None:
            _replace_ai_tags(post_id, names)
    return summary_get(post_id)


def _with_tags(rows: list[PostSummary]) -> list[PostSummary]:
    """Attach `ai_tag_names` (sorted by name, as the original reads them): one query
    for the whole page."""
    names: dict[int, list[str]] = {row.post_id: [] for row in rows}
    if names:
        tags = AiPostTag.objects.filter(post_id__in=list(names)).order_by("name")
        for post_id, name in tags.values_list("post_id", "name"):
            names[post_id].append(name)
    for row in rows:
        row.ai_tag_names = names[row.post_id]
    return rows


def summary_get(post_id: int) -> PostSummary:
    row = PostSummary.objects.filter(post_id=post_id).first()
    if row is None:
        raise NotFound("not found")
    return _with_tags([row])[0]


def summary_is_ready(post_id: int) -> bool:
    return PostSummary.objects.filter(post_id=post_id, summary__isnull=False).exists()


def summaries_list(*, page: Page, null_only: bool = False, newer_than=None) -> list[PostSummary]:
    qs = PostSummary.objects.all()
    if null_only:
        qs = qs.filter(summary__isnull=True)
    if newer_than is not None:
        qs = qs.filter(source_updated_at__gt=newer_than)
    qs = qs.order_by("-post_id" if page.descending else "post_id")
    return _with_tags(list(qs[page.offset : page.offset + page.limit]))
