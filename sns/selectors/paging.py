"""Paging shared by the list reads: the page a caller asks for, and the orderings that
make "after" cursors stable."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import Q

from ..core.errors import InvalidInput


BIGINT_MAX = (1 << 63) - 1


@dataclass(frozen=True)
class Page:
    offset: int = 0
    limit: int = 100
    order: str = "desc"

    @property
    def descending(self) -> bool:
        return self.order != "asc"

    @property
    def end(self) -> int:
        """offset + limit, for reads that take the first `end` rows and page in Python.
        It reaches SQL as a BIGINT: an offset near 2^63 (which sns/api/params.py accepts)
        plus the limit would overflow it, and no page starts past the last row anyway."""
        return min(self.offset + self.limit, BIGINT_MAX)


def id_order(page: Page) -> str:
    return "-id" if page.descending else "id"


def page_slice(qs, page: Page):
    return list(qs[page.offset : page.offset + page.limit])


def after_pivot(rows, key_field: str, key_value: int, descending: bool):
    """Rows strictly after the row whose `key_field` is `key_value`, in (created_at,
    key) order, so rows sharing a timestamp are neither repeated nor skipped."""
    pivot = rows.filter(**{key_field: key_value}).values_list("created_at", flat=True).first()
    if pivot is None:
        raise InvalidInput("invalid after")
    op = "lt" if descending else "gt"
    return rows.filter(
        Q(**{f"created_at__{op}": pivot}) | Q(created_at=pivot, **{f"{key_field}__{op}": key_value})
    )


def time_then_key(key_field: str, page: Page) -> list[str]:
    return ["-created_at", f"-{key_field}"] if page.descending else ["created_at", key_field]


def union_all(first, *rest) -> list:
    """Rows of sliced querysets: one UNION ALL on PostgreSQL, a query each on SQLite
    (which cannot order and limit the parts of a compound statement)."""
    if connection.features.supports_slicing_ordering_in_compound:
        return list(first.union(*rest, all=True))
    return [row for part in (first, *rest) for row in part]
