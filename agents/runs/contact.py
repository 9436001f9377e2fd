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
from django.db.models import Exists, OuterRef, Q

from sns.models import Post, User
from sns.models.messages import Message
from sns.selectors.boundaries import ai_contact_allowed, ai_contact_annotated
from sns.selectors.paging import union_all

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
    # Each person's two parts are one text (`_PAIR`), joined by UNION ALL.
    params: list = []
    for person_id in people:
        low, high = sorted((ai_id, person_id))
        params += [person_id, person_id, ai_id, ai_id, person_id, person_id, low, high]
    rows: dict[int, list[tuple[int, int]]] = {p: [] for p in people}
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join([_PAIR] * len(people)), params)
        for row_id, author, person_id in cursor.fetchall():
            rows[person_id].append((row_id, author))
    return {p: _refusal(ai_id, rows[p]) if p in rows else None for p in person_ids}


# One person's part of `backoff_refusals`: `_newest_writes` tagged with the person.
# Parameters: the person, the person, the AI user, the AI user, the person; the person,
# the pair's lower and higher id.
_PAIR = (
    '(SELECT p."id", p."owned_by", CAST(%s AS BIGINT) FROM "sns_post" p WHERE p."reply_to" IS NOT NULL AND ('
    '(p."owned_by" = %s AND EXISTS (SELECT 1 FROM "sns_post" q WHERE q."id" = p."reply_to" AND q."owned_by" = %s)) '
    'OR (p."owned_by" = %s AND EXISTS (SELECT 1 FROM "sns_post" q WHERE q."id" = p."reply_to" AND q."owned_by" = %s))) '
    f'ORDER BY p."id" DESC LIMIT {BACKOFF_WRITES}) UNION ALL '
    '(SELECT m."id", m."sender_id", CAST(%s AS BIGINT) FROM "sns_message" m '
    'JOIN "sns_conversation" c ON c."id" = m."conversation_id" '
    f'WHERE c."user_low_id" = %s AND c."user_high_id" = %s ORDER BY m."id" DESC LIMIT {BACKOFF_WRITES})'
)


def _newest_writes(ai_id: int, person_id: int):
    """The newest BACKOFF_WRITES replies between the two and the newest BACKOFF_WRITES
    messages, as (id, author)."""
    n = BACKOFF_WRITES

    def parent_of(owner_id: int) -> Exists:
        return Exists(Post.objects.filter(pk=OuterRef("reply_to"), owner_id=owner_id))

    posts = Post.objects.filter(
        Q(owner_id=person_id, reply_to__isnull=False) & Q(parent_of(ai_id))
        | Q(owner_id=ai_id, reply_to__isnull=False) & Q(parent_of(person_id))
    )
    low, high = sorted((ai_id, person_id))
    messages = Message.objects.filter(conversation__user_low_id=low, conversation__user_high_id=high)
    return (
        posts.order_by("-id").values_list("id", "owner_id")[:n],
        messages.order_by("-id").values_list("id", "sender_id")[:n],
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
