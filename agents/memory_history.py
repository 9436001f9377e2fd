"""Reading an AI user's memory versions, restoring one, and the interest's drift
(docs/api.md §6, "Memory versions"; docs/data-model.md, "Memory versions").

Who may: the AI user itself and admins read versions (`memory_access`); only admins
restore. A restore writes the version's value through the memory's one write function
with the source `restore`, so it is itself a version and the next cycle reads it.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Max, Min, OuterRef, Subquery
from django.utils import timezone

from agents.memory import interest_save as _interest_save
from agents.memory import memory_access, peer_impressions_save
from agents.memory_guards import vector_similarity
from agents.memory_versions import VersionSource
from agents.models import Interest, MemoryVersion, PeerImpression
from sns.core.errors import NotFound
from sns.models import User
from sns.reads.access import access_admin
from sns.selectors import Page

Kind = MemoryVersion.Kind
# Versions the AI memory page shows of the interest, newest last.
DRIFT_VERSIONS = 20


def _versions(owner_id: int, kind: str, peer_id: int | None = None):
    rows = MemoryVersion.objects.filter(user_id=owner_id, kind=kind)
    return rows.filter(peer_id=peer_id) if peer_id is not None else rows


def interest_versions_list(actor: User, *, user_id: int, page: Page) -> list[MemoryVersion]:
    """The interest's versions, newest first."""
    owner_id = memory_access(actor, user_id)
    rows = _versions(owner_id, Kind.INTEREST).order_by("-id")
    return list(rows[page.offset : page.offset + page.limit])


def peer_impression_versions_list(actor: User, *, user_id: int, peer_id: int, page: Page) -> list[MemoryVersion]:
    """The versions of the impression of one peer, newest first."""
    owner_id = memory_access(actor, user_id)
    rows = _versions(owner_id, Kind.PEER, peer_id).order_by("-id")
    return list(rows[page.offset : page.offset + page.limit])


def _restorable(actor: User, user_id: int, version_id: int, kind: str, peer_id: int | None = None):
    """Admins only (403 first), then the owner (404 for an unknown user), then the
    version: one of this AI user's versions of this memory, or 404."""
    access_admin(actor)
    owner_id = memory_access(actor, user_id, for_write=True)
    version = _versions(owner_id, kind, peer_id).filter(pk=version_id).first()
    if version is None:
        raise NotFound("version not found")
    return owner_id, version


def _restore_source(version: MemoryVersion) -> VersionSource:
    return VersionSource(MemoryVersion.Source.RESTORE, restored_from=version.pk)


def interest_version_restore(actor: User, *, user_id: int, version_id: int) -> Interest:
    """The interest as the version had it: text, tags and vector together."""
    owner_id, version = _restorable(actor, user_id, version_id, Kind.INTEREST)
    return _interest_save(
        actor, user_id=owner_id, interest=version.text, tags=list(version.tags or []),
        features=bytes(version.features or b""), embedding_model=version.embedding_model,
        source=_restore_source(version),
    )


def peer_impression_version_restore(actor: User, *, user_id: int, peer_id: int, version_id: int) -> PeerImpression:
    owner_id, version = _restorable(actor, user_id, version_id, Kind.PEER, peer_id)
    peer_impressions_save(actor, [(peer_id, version.text)], user_id=owner_id, source=_restore_source(version))
    return PeerImpression.objects.select_related("peer").get(user_id=owner_id, peer_id=peer_id)


# ----------------------------------------------------------------------------- drift

_TOKEN = re.compile(r"[A-Za-z0-9_']+|\s+|.", re.DOTALL)


def text_diff(before: str, after: str) -> list[tuple[str, str]]:
    """(op, text) runs turning `before` into `after`: op is "same", "del" or "ins".
    Latin words are compared whole, every other character alone (CJK has no spaces)."""
    a, b = _TOKEN.findall(before or ""), _TOKEN.findall(after or "")
    runs: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            runs.append(("same", "".join(a[i1:i2])))
            continue
        if i2 > i1:
            runs.append(("del", "".join(a[i1:i2])))
        if j2 > j1:
            runs.append(("ins", "".join(b[j1:j2])))
    return runs


@dataclass(frozen=True)
class DriftPoint:
    version: MemoryVersion
    diff: list[tuple[str, str]]
    to_first: float | None  # similarity to the first version kept
    to_previous: float | None


def _similarity(a: MemoryVersion, b: MemoryVersion) -> float | None:
    if not a.features or not b.features or a.embedding_model != b.embedding_model:
        return None  # never compare vectors of two models
    return round(vector_similarity(bytes(a.features), bytes(b.features), a.embedding_model), 3)


def interest_drift(owner_id: int, *, limit: int = DRIFT_VERSIONS) -> list[DriftPoint]:
    """The interest's newest `limit` versions, oldest first, each with its diff to the
    one before and its similarity to the first version kept and to the one before."""
    rows = list(_versions(owner_id, Kind.INTEREST).order_by("-id")[:limit])[::-1]
    if not rows:
        return []
    first = _versions(owner_id, Kind.INTEREST).order_by("id").first()
    points, previous = [], None
    for row in rows:
        points.append(DriftPoint(
            version=row,
            diff=text_diff(previous.text, row.text) if previous else [("same", row.text)],
            to_first=_similarity(first, row),
            to_previous=_similarity(previous, row) if previous else None,
        ))
        previous = row
    return points


def drift_chart(points: list[DriftPoint], *, width: int = 320, height: int = 80) -> dict:
    """The two similarity lines as SVG polyline points (x across the versions, y from
    similarity 1 at the top to 0 at the bottom), for the memory page's small chart."""
    step = width / max(1, len(points) - 1)

    def line(values):
        return " ".join(
            f"{round(i * step, 1)},{round((1 - max(0.0, v)) * height, 1)}"
            for i, v in enumerate(values) if v is not None
        )

    return {
        "width": width, "height": height,
        "first": line([p.to_first for p in points]),
        "previous": line([p.to_previous for p in points]),
    }


def interests_drifted(*, now: datetime | None = None) -> list[tuple[User, float]]:
    """AI users whose interest moved farther than STGY_AI_INTEREST_DRIFT_FLAG
    (1 − similarity) in the last day: the newest version against the last one before
    the day began (or the day's first). Farthest first; three queries, which load two
    vectors per AI user whatever the number of versions the day kept."""
    now = now or timezone.now()
    since = now - timedelta(days=1)
    before = _versions(OuterRef("user_id"), Kind.INTEREST).filter(created_at__lt=since).order_by("-id").values("id")[:1]
    spans = list(
        MemoryVersion.objects.filter(kind=Kind.INTEREST, created_at__gte=since)
        .values("user_id")
        .annotate(first_id=Min("id"), last_id=Max("id"), base_id=Subquery(before))
        .values_list("user_id", "first_id", "last_id", "base_id")
    )
    if not spans:
        return []
    ends = [(user_id, base_id or first_id, last_id) for user_id, first_id, last_id, base_id in spans]
    vectors = MemoryVersion.objects.only("id", "features", "embedding_model").in_bulk(
        [i for _user, base, last in ends for i in (base, last)]
    )
    users = User.objects.in_bulk([user_id for user_id, _base, _last in ends])
    flagged = []
    for user_id, base, last in ends:
        similarity = _similarity(vectors[base], vectors[last])
        if similarity is None or user_id not in users:
            continue
        distance = round(1 - similarity, 3)
        if distance > settings.STGY_AI_INTEREST_DRIFT_FLAG:
            flagged.append((users[user_id], distance))
    return sorted(flagged, key=lambda pair: -pair[1])


def memory_hold_set(actor: User, *, user_id: int, interest: bool, impressions: bool) -> Interest:
    """An admin holds (or releases) an AI user's interest and its impressions of
    people: cycles then read them but do not rewrite them. The hold lives on the
    interest row, which the cycle reads anyway; an AI user with no interest yet has
    nothing to hold (404)."""
    access_admin(actor)
    owner_id = memory_access(actor, user_id, for_write=True)
    if not Interest.objects.filter(user_id=owner_id).update(hold_interest=interest, hold_impressions=impressions):
        raise NotFound("no interest to hold")
    return Interest.objects.get(user_id=owner_id)
