"""May an AI user address this person now? The person's boundaries and the back-off
rule, asked by the respond path's gates and the cycle's reply stage alike, so both
honour them the same way (docs/respond-path.md, "Boundaries and back-off").

The boundaries (the three switches and the "stop this AI user" records) are the
person's, read by `sns.selectors.boundaries.ai_contact_allowed`. The back-off rule is
the AI side's: an AI user that has written to a person BACKOFF_WRITES times in a row
without an answer stays quiet toward them until they write to it.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import BigIntegerField, Exists, OuterRef, Q, Value

from sns.models import Post, User
from sns.models.messages import Message
from sns.selectors.boundaries import ai_contact_allowed, ai_contact_annotated
from sns.selectors.paging import union_all
from sns.sql_statements import compiled_once

# Three unanswered writes: one may be missed, two may be ignored politely; a third
# unanswered one means the person is not interested, and a fourth would be pestering.
BACKOFF_WRITES = 3


def backoff_refusal(ai_id: int, person_id: int) -> str | None:
    """Why the AI user must not address the person, or None. The newest writes between
    the two (replies to each other's posts, direct messages), compared by id, which is
    time-ordered for posts and messages alike: if the newest BACKOFF_WRITES are all the
    AI user's, the person has not answered them."""
    if ai_id == person_id:
        return None
    posts, messages = _newest_writes(ai_id, person_id)
    # One round trip on PostgreSQL (UNION ALL of the two limited parts), two elsewhere.
    return _refusal(ai_id, [tuple(row)[:2] for row in union_all(posts, messages)])


def backoff_refusals(ai_id: int, person_ids: list[int]) -> dict[int, str | None]:
    """`backoff_refusal` for several people (the cycle's reply candidates): on
    PostgreSQL one UNION ALL of every person's two limited parts, whatever their number."""
    if not connection.features.supports_slicing_ordering_in_compound:
        # SQLite: two queries per candidate, as `contact_refusal` asks them.
        result = {}
        for person_id in person_ids:
            result[person_id] = backoff_refusal(ai_id, person_id)
        return result
    people = [p for p in dict.fromkeys(person_ids) if p != ai_id]
    if not people:
        return dict.fromkeys(person_ids)
    # Each person's two parts have one text, compiled once (`_pair_statements`); the
    # UNION ALL of them is joined here, as Django's union of sliced parts would be.
    texts: list[str] = []
    params: list = []
    for person_id in people:
        for sql, part_params in _pair_statements(ai_id, person_id, *sorted((ai_id, person_id))):
            texts.append(f"({sql})")
            params += part_params
    rows: dict[int, list[tuple[int, int]]] = {p: [] for p in people}
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(texts), params)
        for row_id, author, person_id in cursor.fetchall():
            rows[person_id].append((row_id, author))
    return {p: _refusal(ai_id, rows[p]) if p in rows else None for p in person_ids}


def _pair_parts(ai_id: int, person_id: int, low: int, high: int) -> list[tuple[str, list]]:
    """One person's two tagged parts of `backoff_refusals`, as SQL; `low`, `high` the
    pair's ids in order (an argument each, for `compiled_once`)."""
    return [
        part.query.get_compiler(connection.alias).as_sql()
        for part in _newest_writes(ai_id, person_id, tagged=True, pair=(low, high))
    ]


_pair_statements = compiled_once("backoff_pair", ("id", "id", "id", "id"), _pair_parts)


def _newest_writes(ai_id: int, person_id: int, *, tagged: bool = False, pair: tuple[int, int] | None = None):
    """The newest BACKOFF_WRITES replies between the two and the newest BACKOFF_WRITES
    messages, as (id, author) — with `tagged`, (id, author, person)."""
    n = BACKOFF_WRITES

    def parent_of(owner_id: int) -> Exists:
        return Exists(Post.objects.filter(pk=OuterRef("reply_to"), owner_id=owner_id))

    posts = Post.objects.filter(
        Q(owner_id=person_id, reply_to__isnull=False) & Q(parent_of(ai_id))
        | Q(owner_id=ai_id, reply_to__isnull=False) & Q(parent_of(person_id))
    )
    low, high = pair or sorted((ai_id, person_id))
    messages = Message.objects.filter(conversation__user_low_id=low, conversation__user_high_id=high)
    extra = ["who"] if tagged else []
    if tagged:
        who = Value(person_id, output_field=BigIntegerField())
        posts, messages = posts.annotate(who=who), messages.annotate(who=who)
    return (
        posts.order_by("-id").values_list("id", "owner_id", *extra)[:n],
        messages.order_by("-id").values_list("id", "sender_id", *extra)[:n],
    )


def _refusal(ai_id: int, rows: list[tuple[int, int]]) -> str | None:
    n = BACKOFF_WRITES
    newest = sorted(rows, reverse=True)[:n]
    if len(newest) == n and all(author == ai_id for _, author in newest):
        return f"{n} writes to the person without an answer (back-off until they write)"
    return None


def contact_refusal(ai: User, person: User, kind: str, row=None) -> tuple[str, str] | None:
    """(gate, why) if the AI user may not address `person` by `kind` (reply, mention,
    message): first the person's boundaries (read from `row` when it carries
    `ai_contact_annotations`, else asked), then the back-off rule."""
    if row is not None:
        allowed, reason = ai_contact_annotated(row, ai, person, kind)
    else:
        allowed, reason = ai_contact_allowed(ai, person, kind)
    if not allowed:
        return "boundaries", reason
    why = backoff_refusal(ai.id, person.id)
    return ("backoff", why) if why else None
