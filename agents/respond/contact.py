"""May an AI user address this person now? The person's boundaries and the back-off
rule, asked by the respond path's gates and the cycle's reply stage alike, so both
honour them the same way (docs/respond-path.md, "Boundaries and back-off").

The boundaries (the three switches and the "stop this AI user" records) are the
person's, read by `sns.selectors.boundaries.ai_contact_allowed`. The back-off rule is
the AI side's: an AI user that has written to a person BACKOFF_WRITES times in a row
without an answer stays quiet toward them until they write to it.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from sns.models import Post, User
from sns.models_messages import Message
from sns.selectors.paging import union_all
from sns.selectors.boundaries import ai_contact_allowed, ai_contact_annotated

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
    n = BACKOFF_WRITES

    def parent_of(owner_id: int) -> Exists:
        return Exists(Post.objects.filter(pk=OuterRef("reply_to"), owner_id=owner_id))

    posts = (
        Post.objects.filter(
            Q(owner_id=person_id, reply_to__isnull=False) & Q(parent_of(ai_id))
            | Q(owner_id=ai_id, reply_to__isnull=False) & Q(parent_of(person_id))
        )
        .order_by("-id")
        .values_list("id", "owner_id")[:n]
    )
    low, high = sorted((ai_id, person_id))
    messages = (
        Message.objects.filter(conversation__user_low_id=low, conversation__user_high_id=high)
        .order_by("-id")
        .values_list("id", "sender_id")[:n]
    )
    # One round trip on PostgreSQL (UNION ALL of the two limited parts), two elsewhere.
    rows = [tuple(row) for row in union_all(posts, messages)]
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
