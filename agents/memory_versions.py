"""Versions of an AI user's memory (docs/data-model.md, "Memory versions"): every write
of an interest, an impression or a relationship's level adds a MemoryVersion row with
the value written, when and what wrote it; restores are new versions, never edits of old
ones. The write functions of agents/memory.py and agents/relationships.py call
`upsert_with_versions` / `versions_add`, so no write of a memory escapes its version.

Nothing here is read on the cycle's reading path: the cycle reads the memory tables as
before, and a stage's versions go in with its upsert (one statement on PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from agents.models import MemoryVersion
from sns.reads.sql_statements import column, insert_rows_sql

Kind = MemoryVersion.Kind


@dataclass(frozen=True)
class VersionSource:
    """What wrote a memory: `kind` is a MemoryVersion.Source; a cycle's stage or a
    respond run names its run (and stage)."""

    kind: str
    run_id: int | None = None
    stage: str = ""
    restored_from: int | None = None

    def as_json(self) -> dict:
        return {"kind": self.kind, "runId": self.run_id, "stage": self.stage}


API = VersionSource(MemoryVersion.Source.API)
ADMIN = VersionSource(MemoryVersion.Source.ADMIN)
EXCHANGE = VersionSource(MemoryVersion.Source.EXCHANGE)


def cycle_source(run_id: int, stage: str) -> VersionSource:
    return VersionSource(MemoryVersion.Source.CYCLE, run_id, stage)


def respond_source(run_id: int) -> VersionSource:
    return VersionSource(MemoryVersion.Source.RESPOND, run_id, "respond")


def version_row(
    user_id: int,
    kind: str,
    source: VersionSource,
    *,
    at: datetime,
    peer_id: int | None = None,
    post_id: int | None = None,
    text: str = "",
    tags: Sequence[str] = (),
    features: bytes | None = None,
    embedding_model: str = "",
    score: float | None = None,
) -> MemoryVersion:
    return MemoryVersion(
        user_id=user_id,
        kind=kind,
        peer_id=peer_id,
        post_id=post_id,
        created_at=at,
        source=source.kind,
        run_id=source.run_id,
        stage=source.stage,
        restored_from=source.restored_from,
        text=text,
        tags=list(tags),
        features=features,
        embedding_model=embedding_model,
        score=score,
    )


def _upsert_sql(model, objs: list, unique_fields: list[str], update_fields: list[str]) -> tuple[str, list]:
    """The INSERT … ON CONFLICT DO UPDATE that `bulk_create(update_conflicts=True)` runs."""
    insert, params = insert_rows_sql(model, objs)
    conflict = ", ".join(column(model, name) for name in unique_fields)
    updates = ", ".join(f"{column(model, name)} = EXCLUDED.{column(model, name)}" for name in update_fields)
    return f"{insert} ON CONFLICT({conflict}) DO UPDATE SET {updates}", params


def upsert_with_versions(
    model,
    rows: list,
    versions: list[MemoryVersion],
    *,
    unique_fields: list[str],
    update_fields: list[str],
) -> None:
    """Upsert `rows` of a memory table and insert their `versions`: on PostgreSQL one
    statement (the versions' INSERT as a data-modifying CTE of the upsert), so a stage
    writing its memory costs no round trip more than before; elsewhere two, in a
    transaction."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        with transaction.atomic():
            model.objects.bulk_create(
                rows,
                update_conflicts=True,
                unique_fields=unique_fields,
                update_fields=update_fields,
            )
            versions_add(versions)
        return
    upsert, upsert_params = _upsert_sql(model, rows, unique_fields, update_fields)
    sql, params = upsert, list(upsert_params)
    if versions:
        version_sql, version_params = insert_rows_sql(MemoryVersion, versions)
        sql, params = (
            f"WITH versions AS ({version_sql}) {upsert}",
            [*version_params, *upsert_params],
        )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def versions_add(versions: list[MemoryVersion]) -> None:
    """Versions of writes made by other statements (the relationships' updates)."""
    if versions:
        MemoryVersion.objects.bulk_create(versions)


# ----------------------------------------------------------------------------- retention


def versions_prune(*, now: datetime | None = None) -> int:
    """Delete the versions past retention: a version goes when it is older than
    STGY_AI_MEMORY_VERSION_DAYS and not among the newest STGY_AI_MEMORY_VERSION_KEEP of its
    memory (so the current value, the newest version, always stays). Returns the count.

    One statement: the ranks are taken over all of a memory's versions, before the age
    test (a queryset filter would rank the old ones only)."""
    now = now or timezone.now()
    keep = max(1, int(settings.STGY_AI_MEMORY_VERSION_KEEP))
    cutoff = now - timedelta(days=settings.STGY_AI_MEMORY_VERSION_DAYS)
    qn = connection.ops.quote_name
    opts = MemoryVersion._meta
    table = qn(opts.db_table)
    col = {
        name: qn(opts.get_field(name).column)
        for name in ("id", "user", "kind", "peer", "post", "created_at")
    }
    sql = (
        f"DELETE FROM {table} WHERE {col['id']} IN (SELECT r.id FROM (SELECT {col['id']} AS id, "
        f"{col['created_at']} AS created_at, ROW_NUMBER() OVER (PARTITION BY {col['user']}, {col['kind']}, "
        f"{col['peer']}, {col['post']} ORDER BY {col['id']} DESC) AS rank FROM {table}) r "
        "WHERE r.rank > %s AND r.created_at < %s)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [keep, cutoff])
        return cursor.rowcount


def versions_forget_person(person_id: int, *, user_id: int | None = None) -> int:
    """Delete every version about a person — the impressions of her, of her posts, and
    the relationships with her — kept by one AI user (`user_id`) or by all. The "forget
    me" feature calls it beside deleting the current memory rows. Returns the count."""
    about = MemoryVersion.objects.filter(
        Q(peer_id=person_id) | Q(post__owner_id=person_id),
        kind__in=(Kind.PEER, Kind.POST, Kind.RELATIONSHIP),
    )
    if user_id is not None:
        about = about.filter(user_id=user_id)
    return about.delete()[0]
