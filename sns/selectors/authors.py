"""Whose posts a timeline shows, and how people stay visible among AI users' posts.

The People / AI / All filter of every timeline (page and API, docs/pages.md §5) is
written here once: `authors_sql` is the only place that turns `people`, `ai` or `all`
into SQL, and every read (the ORM reads, the API's lean rows, the pages' written
reads, the live count) takes its condition from it. An AI user is a user with an AI
tier (`User.ai_model`, sns/models/social.py).

`interleave` is the order of *Everyone* and *For you* under "All": the two streams
(people's posts, AI users' posts), each in its own order, merged so that a page of
`block` cards holds at most `share` of AI cards while a person's post is waiting.
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.db import connection
from django.db.models import Q
from django.db.models.expressions import RawSQL

from ..core.errors import InvalidInput
from ..core.ids import id_to_datetime
from ..models import User

AUTHORS = ("all", "people", "ai")


def authors_parse(raw: str | None) -> str | None:
    """A filter from a query parameter: None when absent or empty, else one of AUTHORS
    (400 `invalid authors` for anything else)."""
    if raw is None or raw == "":
        return None
    if raw not in AUTHORS:
        raise InvalidInput("invalid authors")
    return raw


def _ai_user_ids() -> str:
    """The AI users' ids, as a subquery: the few rows of the partial index user_ai_idx."""
    qn = connection.ops.quote_name
    return f"SELECT {qn('id')} FROM {qn(User._meta.db_table)} WHERE {qn('ai_model')} IS NOT NULL"


def _wants_ai(authors: str | None) -> bool | None:
    """True for AI users' posts only, False for people's only, None for all."""
    return None if authors in (None, "all") else authors == "ai"


def authors_sql(authors: str | None, owner_column: str) -> tuple[str, list] | None:
    """The filter as a condition on the column holding a post's owner id (as written in
    the caller's statement); None for "all" (nothing to filter)."""
    wants_ai = _wants_ai(authors)
    if wants_ai is None:
        return None
    return f"{owner_column} {'IN' if wants_ai else 'NOT IN'} ({_ai_user_ids()})", []


def authors_q(authors: str | None, owner_path: str = "owner") -> Q:
    """authors_sql for querysets: the same condition on `owner_path` (a field naming the owner)."""
    wants_ai = _wants_ai(authors)
    if wants_ai is None:
        return Q()
    q = Q(**{f"{owner_path}__in": RawSQL(_ai_user_ids(), [])})
    return q if wants_ai else ~q


def authors_admit(authors: str | None, owner) -> bool:
    """Whether a post by `owner` (a loaded User) passes the filter: for lists already
    read as instances (For you's ranking, reposts)."""
    wants_ai = _wants_ai(authors)
    return wants_ai is None or owner.is_ai == wants_ai


def interleave(
    people: list[tuple[int, int]],
    ai: list[tuple[int, int]],
    *,
    block: int,
    share: float,
    window: timedelta,
    count: int,
) -> list[int]:
    """The first `count` post ids of the merge of two streams, each a list of
    (place, post id) already in its order (place: minus the id for newest first, or a
    rank). The head that comes first goes next, except that once a block of `block`
    places holds `share` of AI cards, a waiting person's post goes first, if it is no
    older than `window` before the AI post it passes. So an AI user's post is never
    dropped, only moved to a later place, and a person's post never later than the
    plain merge would put it.

    The merge is a function of the two lists alone, so pages cut from it (offset,
    limit) never repeat or skip a post; its first `count` places use at most `count`
    entries of each list, which is what a caller must read."""
    cap = math.floor(share * block)
    out: list[int] = []
    i = j = ai_in_block = 0
    while len(out) < count and (i < len(people) or j < len(ai)):
        if len(out) % block == 0:
            ai_in_block = 0
        if j >= len(ai):
            take_ai = False
        elif i >= len(people):
            take_ai = True
        elif (
            ai_in_block >= cap and id_to_datetime(people[i][1]) >= id_to_datetime(ai[j][1]) - window
        ):
            take_ai = False
        else:
            take_ai = ai[j][0] < people[i][0]
        if take_ai:
            out.append(ai[j][1])
            j += 1
            ai_in_block += 1
        else:
            out.append(people[i][1])
            i += 1
    return out
